package model_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// oneWayWSDL is the third ASMX zoo's Notify and NotifyCount (shapes/zoo3.wsdl), as the oneway zoo
// package is generated from.
const oneWayWSDL = "../zoo/testdata/oneway/oneway.wsdl"

func readModel(t *testing.T, doc []byte) (*model.Contract, error) {
	t.Helper()
	defs, err := wsdl.Read(doc)
	require.NoError(t, err)
	return model.Read(defs)
}

// TestReadOneWay: a portType operation without wsdl:output is read as one-way, with its request and
// no response, on every binding the WSDL offers it on; GET and POST offer it as a void method (no
// result root). Its neighbour with an output is read as before.
func TestReadOneWay(t *testing.T) {
	doc, err := os.ReadFile(oneWayWSDL)
	require.NoError(t, err)
	c, err := readModel(t, doc)
	require.NoError(t, err)
	require.Len(t, c.Operations, 2)

	notify := c.Operations[0]
	assert.Equal(t, "Notify", notify.Name)
	assert.True(t, notify.OneWay)
	assert.Equal(t, "Notify", notify.RequestElement)
	assert.Equal(t, "", notify.ResponseElement)
	assert.Nil(t, notify.Response)
	require.Len(t, notify.Request.Fields, 1)
	assert.Equal(t, "message", notify.Request.Fields[0].Name)
	assert.Equal(t, []string{"SOAP11", "SOAP12", "HTTPGet", "HTTPPost"}, notify.Bindings)
	assert.Equal(t, "", notify.HTTPRoot, "GET/POST answer a one-way operation with an empty body")
	require.Len(t, notify.HTTPParams, 1)

	count := c.Operations[1]
	assert.False(t, count.OneWay)
	assert.Equal(t, "NotifyCountResponse", count.ResponseElement)
	assert.Equal(t, "int", count.HTTPRoot)
}

// TestReadOneWayRefusals: a one-way operation whose SOAP binding gives it an output, or another
// operation taking its request wrapper, is refused with the construct's line; an operation with a fault and
// no output is not one-way (WSDL 1.1 has no such shape) and is refused as before.
func TestReadOneWayRefusals(t *testing.T) {
	data, err := os.ReadFile(oneWayWSDL)
	require.NoError(t, err)
	doc := string(data)
	soapBinding := `      <soap:operation soapAction="http://localhost:8080/zoo3/v1/Notify" style="document" />
      <wsdl:input>
        <soap:body use="literal" />
      </wsdl:input>
`
	require.Equal(t, 1, strings.Count(doc, soapBinding))
	tests := []struct {
		name, old, new, wantErr string
	}{
		{"binding output", soapBinding, soapBinding + "      <wsdl:output>\n        <soap:body use=\"literal\" />\n      </wsdl:output>\n",
			"operation Notify is one-way (its portType operation has no output), but this binding gives it an output"},
		{"wrapper name", `<wsdl:part name="parameters" element="tns:NotifyCount" />`, `<wsdl:part name="parameters" element="tns:Notify" />`,
			"operation NotifyCount: the element Notify wraps its request and the request of operation Notify"},
		{"fault without output", `<wsdl:input message="tns:NotifySoapIn" />`, `<wsdl:input message="tns:NotifySoapIn" /><wsdl:fault name="f" message="tns:NotifySoapIn" />`,
			"a SOAP operation needs exactly one output"},
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
