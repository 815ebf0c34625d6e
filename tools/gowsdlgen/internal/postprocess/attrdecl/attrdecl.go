// Package attrdecl is the post-processing step for a contract's attributes and simple content
// (shapes README §11): gowsdl types an attribute as its element would be (a decimal as float64, an
// enumeration by value) with omitempty, and declares a simple-content type whose base is a string as
// that string, losing its attributes (type Note string). Replace declares every such type from the
// model instead: its elements as gowsdl and the earlier steps left them, then one field per attribute
// (contract.Attr.GoField), and for simple content a Value field first.
//
// It imports the standard library and model.
package attrdecl

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// Replace rewrites gowsdl's declarations of c's types with attributes or text content; it reports
// whether a field it declared has a type of the runtime's xsd package, whose import the caller adds.
func Replace(f *ast.File, c *model.Contract) (usesXSD bool, err error) {
	byName := map[string]*model.Type{}
	for _, t := range c.Structs {
		if t.HasAttrs() {
			byName[t.GoName] = t
		}
	}
	if len(byName) == 0 {
		return false, nil
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			t := byName[ts.Name.Name]
			if t == nil {
				continue
			}
			delete(byName, ts.Name.Name)
			st := &ast.StructType{Fields: &ast.FieldList{}}
			if old, ok := ts.Type.(*ast.StructType); ok && t.Text == nil {
				for _, fld := range old.Fields.List {
					if !isAttrOrText(fld) {
						st.Fields.List = append(st.Fields.List, fld)
					}
				}
			}
			if t.Text != nil {
				goType := t.TextGoType()
				usesXSD = usesXSD || strings.HasPrefix(goType, "xsd.")
				st.Fields.List = append(st.Fields.List, field("Value", goType, `xml:",chardata" json:"-,"`))
			}
			for _, a := range t.Attrs {
				gf := a.GoField()
				usesXSD = usesXSD || strings.Contains(gf.Type, "xsd.")
				tag := fmt.Sprintf(`xml:"%s,attr,omitempty" json:"%s,omitempty"`, a.Name, a.Name)
				st.Fields.List = append(st.Fields.List, field(gf.Name, gf.Type, tag))
			}
			ts.Type = st
			ts.Assign = token.NoPos // a type definition, never an alias (type Note = …)
		}
	}
	for name := range byName {
		return false, fmt.Errorf("gowsdl declared no type %s", name)
	}
	return usesXSD, nil
}

// isAttrOrText reports whether gowsdl's field fld is an attribute or the text of simple content.
func isAttrOrText(fld *ast.Field) bool {
	if fld.Tag == nil {
		return false
	}
	tag, err := strconv.Unquote(fld.Tag.Value)
	if err != nil {
		return false
	}
	x, _, _ := strings.Cut(strings.TrimPrefix(tag, `xml:"`), `"`)
	return strings.HasPrefix(tag, `xml:"`) && (strings.Contains(x, ",attr") || strings.Contains(x, ",chardata"))
}

// field is the struct field name of Go type goType ("*Perm", "xsd.Decimal") with tag.
func field(name, goType, tag string) *ast.Field {
	return &ast.Field{Names: []*ast.Ident{ast.NewIdent(name)}, Type: typeExpr(goType),
		Tag: &ast.BasicLit{Kind: token.STRING, Value: "`" + tag + "`"}}
}

func typeExpr(goType string) ast.Expr {
	if rest, ok := strings.CutPrefix(goType, "*"); ok {
		return &ast.StarExpr{X: typeExpr(rest)}
	}
	if rest, ok := strings.CutPrefix(goType, "[]"); ok {
		return &ast.ArrayType{Elt: typeExpr(rest)}
	}
	if pkg, name, ok := strings.Cut(goType, "."); ok {
		return &ast.SelectorExpr{X: ast.NewIdent(pkg), Sel: ast.NewIdent(name)}
	}
	return ast.NewIdent(goType)
}
