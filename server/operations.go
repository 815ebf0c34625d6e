package server

import "github.com/contactsync/contactsync/gen"

// OperationNames lists the operations of the generated table, in the contract's order, for the CLI and
// documentation.
func OperationNames() []string {
	names := make([]string, len(gen.Operations))
	for i, op := range gen.Operations {
		names[i] = op.Name
	}
	return names
}
