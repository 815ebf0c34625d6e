package postprocess

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// CheckStructs confirms that gowsdl's (post-processed) types have the struct of every wrapper and
// complex type of the model, with the field GoFieldOf names for each element: the wire code is
// written against those fields, so a difference is a generation error here rather than a compile
// error in the generated package.
func CheckStructs(c *model.Contract, src []byte) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "types.go", src, 0)
	if err != nil {
		return err
	}
	structs := map[string]map[string]model.GoField{} // Go type name -> XML element name -> field
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			fields := map[string]model.GoField{}
			for _, fl := range st.Fields.List {
				if len(fl.Names) != 1 || fl.Tag == nil {
					continue
				}
				tag, _ := strconv.Unquote(fl.Tag.Value)
				xmlName, _, _ := strings.Cut(reflect.StructTag(tag).Get("xml"), ",")
				if xmlName == "" || strings.Contains(xmlName, " ") {
					continue
				}
				var buf bytes.Buffer
				if err := format.Node(&buf, fset, fl.Type); err != nil {
					return err
				}
				fields[xmlName] = model.GoField{Name: fl.Names[0].Name, Type: buf.String()}
			}
			structs[ts.Name.Name] = fields
		}
	}
	types := slices.Clone(c.Types)
	for _, op := range c.Operations {
		types = append(types, op.Request)
		if op.Response != nil { // nil for a one-way operation
			types = append(types, op.Response)
		}
	}
	for _, t := range types {
		if t.Simple() {
			continue
		}
		name := t.GoName
		fields, ok := structs[name]
		if !ok {
			return fmt.Errorf("gowsdl generated no struct %s for %s", name, t.Name)
		}
		for _, f := range t.Fields {
			got, ok := fields[f.Name]
			if want := model.GoFieldOf(f); !ok || got != want {
				return fmt.Errorf("gowsdl's struct %s has %s for element %s, not the field %s %s the wire code is written against",
					name, describeField(got, ok), f.Name, want.Name, want.Type)
			}
		}
	}
	return nil
}

func describeField(f model.GoField, ok bool) string {
	if !ok {
		return "no field"
	}
	return "the field " + f.Name + " " + f.Type
}
