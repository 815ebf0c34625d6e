package model_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// overloadsWSDL is the third ASMX zoo's Add and Scale overloads (shapes/zoo3.wsdl, README §6), as the
// overloads zoo package is generated from.
const overloadsWSDL = "../zoo/testdata/overloads/overloads.wsdl"

// TestReadOverloads: two portType operations with one name are two operations, each named by its
// message name (wsdl:input/@name, else the operation's name), with the portType's name kept beside
// it; each is bound to the binding operations with the same (name, input name) pair, on SOAP and on
// GET/POST, whose portType operations are matched the same way.
func TestReadOverloads(t *testing.T) {
	doc, err := os.ReadFile(overloadsWSDL)
	require.NoError(t, err)
	c, err := readModel(t, doc)
	require.NoError(t, err)
	tests := []struct {
		name, portType, request, root string
	}{
		{"Add", "Add", "Add", "int"},
		{"AddDoubles", "Add", "AddDoubles", "double"},
		{"ScaleInt", "Scale", "ScaleInt", "int"},
		{"ScaleText", "Scale", "ScaleText", "string"},
	}
	require.Len(t, c.Operations, len(tests))
	for i, tt := range tests {
		op := c.Operations[i]
		assert.Equal(t, tt.name, op.Name)
		assert.Equal(t, tt.portType, op.PortTypeName)
		assert.Equal(t, tt.request, op.RequestElement)
		assert.Equal(t, tt.root, op.HTTPRoot, tt.name)
		assert.Equal(t, []string{"SOAP11", "SOAP12", "HTTPGet", "HTTPPost"}, op.Bindings, tt.name)
	}
}

// TestReadOverloadsRefusals: overloads that cannot be told apart (the same name and message name
// twice), and a binding operation that matches no portType operation (an overload's binding operation
// without its input name), are refused with the line, never left unbound.
func TestReadOverloadsRefusals(t *testing.T) {
	data, err := os.ReadFile(overloadsWSDL)
	require.NoError(t, err)
	doc := string(data)
	tests := []struct {
		name, old, new, wantErr string
	}{
		{"same message name", `<wsdl:input name="ScaleText" message="tns:ScaleTextSoapIn" />`, `<wsdl:input name="ScaleInt" message="tns:ScaleTextSoapIn" />`,
			"the portType has 2 operations named Scale/ScaleInt with the same message name"},
		{"binding without input name", "<wsdl:input name=\"ScaleInt\">\n        <soap:body", "<wsdl:input>\n        <soap:body",
			"binding operation Scale (message name Scale) matches no operation of its portType"},
		{"binding lists one twice", "<wsdl:input name=\"AddDoubles\">\n        <soap:body", "<wsdl:input>\n        <soap:body",
			"the binding lists operation Add (message name Add) twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Contains(t, doc, tt.old)
			_, err := readModel(t, []byte(strings.Replace(doc, tt.old, tt.new, 1)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Contains(t, err.Error(), "line ")
		})
	}
}
