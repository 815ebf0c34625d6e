package main

import (
	"strings"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire"
)

// operationNames lists the operations of the generated table, in the contract's order, for call's help
// and its errors.
func operationNames() []string {
	names := make([]string, len(gen.Operations))
	for i, op := range gen.Operations {
		names[i] = op.Name
	}
	return names
}

// callExamples are call's help examples, taken from the generated table so that they name operations
// the contract has: the first operation with exactly one parameter (called with --id and with --param),
// and the first one without parameters that HTTP GET offers. Examples a contract has no operation for
// are left out.
func callExamples(ops []*wire.Operation) string {
	var lines []string
	for _, op := range ops {
		if len(op.Params) == 1 {
			lines = append(lines,
				"contactsync call "+op.Name+" --id 42",
				"contactsync call "+op.Name+" --param "+op.Params[0].Name+"=42 --binding soap12",
				"contactsync call "+op.Name+" --id 42 --url https://contacts.example.com/contactsync/v1/sync.asmx --user alice --ca-cert ca.pem")
			break
		}
	}
	for _, op := range ops {
		if len(op.Params) == 0 && op.Bindings.Has(wire.HTTPGet) {
			lines = append(lines, "contactsync call "+op.Name+" --binding get")
			break
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "  " + strings.Join(lines, "\n  ")
}
