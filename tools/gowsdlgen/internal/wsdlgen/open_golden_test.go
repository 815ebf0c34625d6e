package wsdlgen_test

import (
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdlgen"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestGenerateOpenTypesGolden: the generated code of every open shape (testdata/anyxml.wsdl: an
// object parameter, result and field, ArrayOfAnyType, XmlElement, XmlNode, XmlNode[] and both forms of
// a DataSet, an object result on HTTP GET) is the golden one, refreshed with -update: gowsdl's fields
// retyped (anytype.Object, xmlany.RawXML, *xmlany.DataSet), their XML and JSON codecs, the GET result
// and the object Registry.
func TestGenerateOpenTypesGolden(t *testing.T) {
	src, err := os.ReadFile("testdata/anyxml.wsdl")
	require.NoError(t, err)
	res, err := wsdlgen.Generate(src, wsdlgen.Options{Package: "open", Source: "anyxml.wsdl", Wire: true})
	require.NoError(t, err)
	for _, g := range []struct {
		file string
		got  []byte
	}{{"testdata/anyxml.go.golden", res.Code}, {"testdata/anyxml_wire.go.golden", res.Wire}} {
		if *update {
			require.NoError(t, os.WriteFile(g.file, g.got, 0o644))
			continue
		}
		want, err := os.ReadFile(g.file)
		require.NoError(t, err, "run go test -update to write it")
		assert.Equal(t, string(want), string(g.got), "%s: run go test -update and review the diff", g.file)
	}
}
