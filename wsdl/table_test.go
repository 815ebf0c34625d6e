package wsdl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

// TestOperationTableMatchesWSDL checks the operation table generated from the contract (gen.Operations)
// against the contract: each binding lists, in the same order, the operations the table offers on it,
// with SOAPAction = namespace + name.
func TestOperationTableMatchesWSDL(t *testing.T) {
	d := loadContract(t)
	require.Len(t, d.Bindings, 4)
	for _, b := range d.Bindings {
		// The table's operations that this binding offers (an operation with a complex parameter is
		// offered over SOAP only), in the table's order.
		var table []string
		for _, op := range gen.Operations {
			if op.Bindings.Has(bindingBit(t, b)) {
				table = append(table, op.Name)
			}
		}
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

// bindingBit is the table's bit for a wsdl:binding of the contract, by its extension element.
func bindingBit(t *testing.T, b binding) wire.Bindings {
	t.Helper()
	switch {
	case b.ext(nsSOAP11, "binding") != nil:
		return wire.SOAP11
	case b.ext(nsSOAP12, "binding") != nil:
		return wire.SOAP12
	}
	h := b.ext(nsHTTP, "binding")
	require.NotNil(t, h, "binding %s is neither SOAP nor HTTP", b.Name)
	if h.attr("verb") == "GET" {
		return wire.HTTPGet
	}
	return wire.HTTPPost
}
