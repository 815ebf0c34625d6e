package wsdl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/wsdl"
)

// TestOperationTableMatchesWSDL checks the operation table generated from the contract (gen.Operations)
// against the contract: the same operations, in the same order, in every binding, with SOAPAction =
// namespace + name.
func TestOperationTableMatchesWSDL(t *testing.T) {
	var table []string
	for _, op := range gen.Operations {
		table = append(table, op.Name)
	}
	d := loadContract(t)
	require.Len(t, d.Bindings, 4)
	for _, b := range d.Bindings {
		var names []string
		for _, op := range b.Operations {
			names = append(names, op.Name)
			for _, ns := range []string{nsSOAP11, nsSOAP12} {
				if so := op.ext(ns, "operation"); so != nil {
					assert.Equal(t, wsdl.DefaultNamespace+op.Name, so.attr("soapAction"), "%s/%s", b.Name, op.Name)
				}
			}
		}
		assert.Equal(t, table, names, b.Name)
	}
}
