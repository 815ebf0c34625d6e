package wsdlgen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// componentStrings are the components of a view's Dropped list in their printed form.
func componentStrings(cs []wsdl.Component) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// fieldTags maps "Struct.Field" (nested anonymous structs: "Struct.Outer.Inner") to its struct tag.
func fieldTags(t *testing.T, src []byte) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	require.NoError(t, err)
	tags := make(map[string]string)
	var walk func(prefix string, st *ast.StructType)
	walk = func(prefix string, st *ast.StructType) {
		for _, fld := range st.Fields.List {
			key := prefix + "." + fld.Names[0].Name
			if fld.Tag != nil {
				tag, err := strconv.Unquote(fld.Tag.Value)
				require.NoError(t, err)
				tags[key] = tag
			}
			typ := fld.Type
			if arr, ok := typ.(*ast.ArrayType); ok {
				typ = arr.Elt
			}
			if inner, ok := typ.(*ast.StructType); ok {
				walk(key, inner)
			}
		}
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, s := range gd.Specs {
				if st, ok := s.(*ast.TypeSpec).Type.(*ast.StructType); ok {
					walk(s.(*ast.TypeSpec).Name.Name, st)
				}
			}
		}
	}
	return tags
}
