package fault

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMappingComplete: every code declared in fault.go is in Codes and has every column of the table;
// a new code that misses one fails here.
func TestMappingComplete(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "fault.go", nil, 0)
	require.NoError(t, err)
	var declared []Code
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Code" {
				for _, n := range vs.Names {
					declared = append(declared, Code(n.Name))
				}
			}
		}
	}
	require.NotEmpty(t, declared)
	assert.ElementsMatch(t, declared, Codes, "Codes lists every declared code once")
	assert.Len(t, mappings, len(Codes))
	for _, c := range Codes {
		m, ok := mappings[c]
		require.True(t, ok, "%s has no row", c)
		v := reflect.ValueOf(m)
		for i := range v.NumField() {
			assert.False(t, v.Field(i).IsZero(), "%s: the column %s is empty", c, v.Type().Field(i).Name)
		}
		assert.Equal(t, string(c), m.Outcome, "the metric outcome is the code's name")
		assert.Equal(t, c.CallerFault(), m.SOAP11 != "Server", "%s: Client/Server follows whose fault it is", c)
	}
	assert.Equal(t, mappings[Internal], Code("NoSuchCode").Mapping())
}
