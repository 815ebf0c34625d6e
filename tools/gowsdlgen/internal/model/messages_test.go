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
	tests := []struct {
		name, old, new, wantErr string
	}{
		{"GET", `<http:binding verb="GET" />`, `<http:binding verb="GET" /><wsdl:operation name="Split"><http:operation location="/Split" /></wsdl:operation>`,
			"operation Split has out or ref parameters (its response wrapper SplitResponse holds 3 elements), which HTTP GET/POST cannot answer with one root element; ASMX does not offer it there: leave Split out of the HTTPGet binding"},
		{"POST", `<http:binding verb="POST" />`, `<http:binding verb="POST" /><wsdl:operation name="Divide"><http:operation location="/Divide" /></wsdl:operation>`,
			"leave Divide out of the HTTPPost binding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, 1, strings.Count(doc, tt.old))
			_, err := readModel(t, []byte(strings.Replace(doc, tt.old, tt.new, 1)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.Contains(t, err.Error(), "line ")
		})
	}
}
