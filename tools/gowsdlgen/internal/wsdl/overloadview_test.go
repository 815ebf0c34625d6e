package wsdl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// TestSOAPViewRenamesOverloads: in the view gowsdl reads, an overload's portType and SOAP binding
// operations are named by their message name (the input's name), so its client has one method per
// overload; the operation without an input name (the plain Add) and everything else stay as written.
func TestSOAPViewRenamesOverloads(t *testing.T) {
	data, err := os.ReadFile("../zoo/testdata/overloads/overloads.wsdl")
	require.NoError(t, err)
	view, err := wsdl.SOAPView(data)
	require.NoError(t, err)
	got := string(view.WSDL)
	for _, tt := range []struct {
		input string
		soap  int // the SOAP portType and the two SOAP bindings
	}{{"AddDoubles", 3}, {"ScaleInt", 3}, {"ScaleText", 3}} {
		assert.Equal(t, tt.soap, strings.Count(got, `<wsdl:operation name="`+tt.input+`">`), tt.input)
		assert.Equal(t, tt.soap, strings.Count(got, `<wsdl:input name="`+tt.input+`"`), "input names kept: %s", tt.input)
		assert.Equal(t, tt.soap, strings.Count(got, `<wsdl:output name="`+tt.input+`"`), "output names kept: %s", tt.input)
	}
	assert.Equal(t, 3, strings.Count(got, `<wsdl:operation name="Add">`), "the plain Add keeps its name")
	assert.NotContains(t, got, `<wsdl:operation name="Scale">`)
	// Only the name attributes changed: undo them and the view is the document minus what it drops.
	undone := got
	for _, input := range []string{"AddDoubles", "ScaleInt", "ScaleText"} {
		undone = strings.ReplaceAll(undone, `<wsdl:operation name="`+input+`">`, `<wsdl:operation name="`+strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(input, "Doubles"), "Int"), "Text")+`">`)
	}
	for _, line := range strings.Split(undone, "\n") {
		assert.Contains(t, string(data), line)
	}
}
