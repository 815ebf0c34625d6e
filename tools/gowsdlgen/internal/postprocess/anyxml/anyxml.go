// Package anyxml gives gowsdl's fields of the open kinds (an element without a type, raw XML, a
// DataSet: contract.KindObject, KindRawXML, KindDataSet) their runtime types. gowsdl v0.5.0 declares
// each as an empty inline struct (struct{}), which can hold none of their values; Replace retypes
// them to what model.GoFieldOf names (anytype.Object, xmlany.RawXML, *xmlany.DataSet, a slice when
// the element repeats) and imports the runtime packages they need.
//
// It imports the standard library and model.
package anyxml

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// runtimePackages are the import paths of the runtime packages the open kinds' Go types name.
var runtimePackages = map[string]string{
	"anytype": model.RuntimeImport + "/anytype",
	"xmlany":  model.RuntimeImport + "/xmlany",
}

// Replace retypes the fields of the open kinds in the structs of c (by Go name, as PostProcess has
// named them) and adds the imports they need. A field the model has and the code does not is left to
// postprocess.CheckStructs, which names it.
func Replace(f *ast.File, c *model.Contract) error {
	want := map[string]map[string]model.GoField{} // Go struct -> XML name -> field
	for _, t := range c.Structs {
		for _, fl := range t.Fields {
			if model.Open(fl.Type.Kind) {
				if want[t.GoName] == nil {
					want[t.GoName] = map[string]model.GoField{}
				}
				want[t.GoName][fl.Name] = model.GoFieldOf(fl)
			}
		}
	}
	if len(want) == 0 {
		return nil
	}
	used := map[string]bool{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			fields := want[ts.Name.Name]
			if !ok || fields == nil {
				continue
			}
			for _, fl := range st.Fields.List {
				if fl.Tag == nil {
					continue
				}
				tag, err := strconv.Unquote(fl.Tag.Value)
				if err != nil {
					return fmt.Errorf("type %s: field tag %s: %w", ts.Name.Name, fl.Tag.Value, err)
				}
				name, _, _ := strings.Cut(reflect.StructTag(tag).Get("xml"), ",")
				gf, ok := fields[name]
				if !ok {
					continue
				}
				fl.Type = typeExpr(gf.Type)
				pkg, _, _ := strings.Cut(strings.TrimLeft(gf.Type, "[]*"), ".")
				used[pkg] = true
			}
		}
	}
	for _, pkg := range []string{"anytype", "xmlany"} {
		if used[pkg] {
			addImport(f, runtimePackages[pkg])
		}
	}
	return nil
}

// typeExpr is the expression of a Go type "[]pkg.Name", "*pkg.Name" or "pkg.Name", built without
// positions so that it prints on one line wherever it is put in gowsdl's file.
func typeExpr(s string) ast.Expr {
	switch {
	case strings.HasPrefix(s, "[]"):
		return &ast.ArrayType{Elt: typeExpr(s[2:])}
	case strings.HasPrefix(s, "*"):
		return &ast.StarExpr{X: typeExpr(s[1:])}
	}
	pkg, name, _ := strings.Cut(s, ".")
	return &ast.SelectorExpr{X: ast.NewIdent(pkg), Sel: ast.NewIdent(name)}
}

// addImport adds path to the file's first import declaration, once.
func addImport(f *ast.File, path string) {
	quoted := strconv.Quote(path)
	for _, imp := range f.Imports {
		if imp.Path.Value == quoted {
			return
		}
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: quoted}}
			gd.Specs = append(gd.Specs, spec)
			f.Imports = append(f.Imports, spec)
			return
		}
	}
}
