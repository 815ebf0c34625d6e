package model_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outRefWSDL is the third ASMX zoo's Split and Divide (shapes/zoo3.wsdl, README §5), as the outref zoo
// package is generated from.
const outRefWSDL = "../zoo/testdata/outref/outref.wsdl"

// TestReadOutRef: a response wrapper with several elements is read with all of them, in order (the
// result first when the method is not void, then the out and ref parameters); such an operation has
// no single Result and no HTTP root, and is offered where the WSDL offers it (SOAP only, as ASMX).
func TestReadOutRef(t *testing.T) {
	doc, err := os.ReadFile(outRefWSDL)
	require.NoError(t, err)
	c, err := readModel(t, doc)
	require.NoError(t, err)
	require.Len(t, c.Operations, 2)
	names := func(op int) []string {
		var out []string
		for _, f := range c.Operations[op].Results() {
			out = append(out, f.Name)
		}
		return out
	}
	tests := []struct {
		op      string
		results []string
		params  int
	}{
		{"Split", []string{"SplitResult", "head", "count"}, 2},
		{"Divide", []string{"quotient", "remainder"}, 2},
	}
	for i, tt := range tests {
		op := c.Operations[i]
		assert.Equal(t, tt.op, op.Name)
		assert.Equal(t, tt.results, names(i))
		assert.True(t, op.OutRef())
		assert.Nil(t, op.Result())
		assert.Len(t, op.Request.Fields, tt.params)
		assert.Equal(t, []string{"SOAP11", "SOAP12"}, op.Bindings)
		assert.Empty(t, op.HTTPRoot)
		assert.Nil(t, op.HTTPParams)
	}
}

// TestReadOutRefRefusals: an HTTP GET or POST binding that offers an operation with out or ref
// parameters is refused with the operation and binding named and the line, since one result root
// cannot carry its values (ASMX never offers it there: get-Split-not-offered).
func TestReadOutRefRefusals(t *testing.T) {
	data, err := os.ReadFile(outRefWSDL)
	require.NoError(t, err)
	doc := string(data)
	// offer adds operation op to the HTTP portType and binding of verb.
	offer := func(verb, op string) string {
		pt := `<wsdl:portType name="SyncHttp` + verb + `">`
		b := `<http:binding verb="` + strings.ToUpper(verb) + `" />`
		require.Equal(t, 1, strings.Count(doc, pt))
		require.Equal(t, 1, strings.Count(doc, b))
		d := strings.Replace(doc, pt, pt+`<wsdl:operation name="`+op+`"><wsdl:input message="tns:`+op+`SoapIn" /><wsdl:output message="tns:`+op+`SoapOut" /></wsdl:operation>`, 1)
		return strings.Replace(d, b, b+`<wsdl:operation name="`+op+`"><http:operation location="/`+op+`" /></wsdl:operation>`, 1)
	}
	tests := []struct {
		name, doc, wantErr string
	}{
		{"GET", offer("Get", "Split"),
			"operation Split has out or ref parameters (its response wrapper SplitResponse holds 3 elements), which HTTP GET/POST cannot answer with one root element; ASMX does not offer it there: leave Split out of the HTTPGet binding"},
		{"POST", offer("Post", "Divide"), "leave Divide out of the HTTPPost binding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readModel(t, []byte(tt.doc))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Contains(t, err.Error(), "line ")
		})
	}
}

// renamedWSDL is the third ASMX zoo's Renamed and Lookup (shapes/zoo3.wsdl, README §6), as the renamed
// zoo package is generated from.
const renamedWSDL = "../zoo/testdata/renamed/renamed.wsdl"

// TestReadRenamed: wrapper, result and parameter names come from the schema, not from the operation's
// name (Answer, LookupReply, x-id and Count), and the HTTP GET/POST parameters from the message parts
// (id and n), positionally.
func TestReadRenamed(t *testing.T) {
	doc, err := os.ReadFile(renamedWSDL)
	require.NoError(t, err)
	c, err := readModel(t, doc)
	require.NoError(t, err)
	require.Len(t, c.Operations, 2)
	r, l := c.Operations[0], c.Operations[1]

	assert.Equal(t, "Renamed", r.RequestElement)
	assert.Equal(t, "RenamedResponse", r.ResponseElement)
	require.NotNil(t, r.Result())
	assert.Equal(t, "Answer", r.Result().Name)
	require.Len(t, r.HTTPParams, 2)
	for i, want := range []struct{ part, element string }{{"id", "x-id"}, {"n", "Count"}} {
		assert.Equal(t, want.part, r.HTTPParams[i].Name)
		assert.Equal(t, want.element, r.HTTPParams[i].Field.Name)
	}
	assert.Equal(t, "int", r.HTTPRoot)

	assert.Equal(t, "Lookup", l.RequestElement)
	assert.Equal(t, "LookupReply", l.ResponseElement)
	assert.Equal(t, "LookupResult", l.Result().Name)
	assert.Equal(t, "key", l.HTTPParams[0].Name)
	assert.Equal(t, "string", l.HTTPRoot)
}

// TestReadRenamedRefusals: a wrapper element that is another message's, of this operation or
// another, is refused naming both uses, since a request is routed by its wrapper and each wrapper is
// one Go type; an HTTP part named like another position's element is out of order, not renamed.
func TestReadRenamedRefusals(t *testing.T) {
	data, err := os.ReadFile(renamedWSDL)
	require.NoError(t, err)
	doc := string(data)
	tests := []struct {
		name, old, new, wantErr string
	}{
		{"request of another", `<wsdl:part name="parameters" element="tns:Lookup" />`, `<wsdl:part name="parameters" element="tns:Renamed" />`,
			"operation Lookup: the element Renamed wraps its request and the request of operation Renamed"},
		{"response of another", `<wsdl:part name="parameters" element="tns:LookupReply" />`, `<wsdl:part name="parameters" element="tns:RenamedResponse" />`,
			"operation Lookup: the element RenamedResponse wraps its response and the response of operation Renamed"},
		{"both messages", `<wsdl:part name="parameters" element="tns:LookupReply" />`, `<wsdl:part name="parameters" element="tns:Lookup" />`,
			"operation Lookup: the element Lookup wraps both its request and its response"},
		{"parts out of order", "<wsdl:part name=\"id\" type=\"s:string\" />\n    <wsdl:part name=\"n\" type=\"s:string\" />",
			"<wsdl:part name=\"Count\" type=\"s:string\" />\n    <wsdl:part name=\"n\" type=\"s:string\" />",
			`operation Renamed on HTTPGet: part "Count" must be the parameter x-id (the parameters in order: [x-id Count])`},
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
