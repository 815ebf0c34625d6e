package main

import "github.com/contactsync/contactsync/gen"

// operationNames lists the operations of the generated table, in the contract's order, for call's help
// and its errors.
func operationNames() []string {
	names := make([]string, len(gen.Operations))
	for i, op := range gen.Operations {
		names[i] = op.Name
	}
	return names
}
