package anyxml

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// TestReplace: gowsdl's empty struct{} fields of the open kinds take the runtime's types (a slice when
// the element repeats, a pointer for a DataSet), on one line, with the imports they need; other
// fields and structs are left alone.
func TestReplace(t *testing.T) {
	const src = `package p

import "encoding/xml"

type Put struct {
	XMLName xml.Name ` + "`xml:\"urn:t Put\"`" + `
	Value struct {
	} ` + "`xml:\"value,omitempty\"`" + `
	Ds struct {
	} ` + "`xml:\"ds,omitempty\"`" + `
	N int32 ` + "`xml:\"n\"`" + `
}

type ArrayOfAnyType struct {
	AnyType []struct {
	} ` + "`xml:\"anyType,omitempty\"`" + `
}
`
	str := &model.Type{Name: "string", Kind: model.KindString}
	put := &model.Type{Name: "Put", GoName: "Put", Kind: model.KindComplex, Fields: []*model.Field{
		{Name: "value", GoName: "Value", Type: &model.Type{Name: "anyType", Kind: model.KindObject}, MaxOccurs: 1},
		{Name: "ds", GoName: "Ds", Type: &model.Type{Name: "DataSet", Kind: model.KindDataSet}, MaxOccurs: 1},
		{Name: "n", GoName: "N", Type: str, MaxOccurs: 1}}}
	arr := &model.Type{Name: "ArrayOfAnyType", GoName: "ArrayOfAnyType", Kind: model.KindArray, Fields: []*model.Field{
		{Name: "anyType", GoName: "AnyType", Type: &model.Type{Name: "anyType", Kind: model.KindObject}, MaxOccurs: -1, Nillable: true}}}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	require.NoError(t, Replace(f, &model.Contract{Structs: []*model.Type{put, arr}}))
	var buf bytes.Buffer
	require.NoError(t, format.Node(&buf, fset, f))
	got := strings.Join(strings.Fields(buf.String()), " ") // gofmt's alignment aside
	assert.Contains(t, got, "Value anytype.Object `xml:\"value,omitempty\"`")
	assert.Contains(t, got, "Ds *xmlany.DataSet `xml:\"ds,omitempty\"`")
	assert.Contains(t, got, "AnyType []anytype.Object `xml:\"anyType,omitempty\"`")
	assert.Contains(t, got, "N int32 `xml:\"n\"`")
	assert.Contains(t, got, `"github.com/contactsync/contactsync/server/wire/anytype"`)
	assert.Contains(t, got, `"github.com/contactsync/contactsync/server/wire/xmlany"`)

	plain, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	require.NoError(t, err)
	require.NoError(t, Replace(plain, &model.Contract{}), "a contract without open fields changes nothing")
	assert.Len(t, plain.Imports, 1)
}
