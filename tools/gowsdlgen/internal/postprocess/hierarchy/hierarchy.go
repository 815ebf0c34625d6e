// Package hierarchy is the post-processing step for a contract's inheritance (issue 33 T2): it
// replaces gowsdl's declarations of derived types and of uses of their bases (Replace) and writes the
// sealed Any<Base> interfaces gowsdl cannot (SealedDecls). Package postprocess calls it.
//
// It imports the standard library and model.
package hierarchy

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// Inheritance (design §1.1, §3.7). gowsdl embeds a derived type's base as a pointer (type Dog struct
// { *Animal; … }) and types every use of a base *Animal, so a field cannot hold a Dog. Replace
// replaces those declarations: the base is embedded by value (d.Name works, the base's fields come
// first and a Dog is never half nil), and every field, array item and result declared with a base
// that has derived types has its sealed interface type instead, AnyAnimal (SealedDecls).

// Replace edits gowsdl's declarations for the contract's derived types; it changes nothing for a
// contract without them.
func Replace(f *ast.File, c *model.Contract) error {
	bases, derived := map[string]bool{}, map[string]*model.Type{}
	for _, t := range c.Structs {
		if t.Polymorphic() {
			bases[t.GoName] = true
		}
		if t.Base != nil {
			derived[t.GoName] = t
		}
	}
	if len(bases) == 0 && len(derived) == 0 {
		return nil
	}
	var visit func(st *ast.StructType, owner *model.Type) error
	visit = func(st *ast.StructType, owner *model.Type) error {
		for _, fld := range st.Fields.List {
			if len(fld.Names) == 0 { // embedded: gowsdl's *Base in a derived type
				star, _ := fld.Type.(*ast.StarExpr)
				if owner == nil || star == nil || types.ExprString(star.X) != owner.Base.GoName {
					return fmt.Errorf("embedded field %s: only a derived type embeds its base", types.ExprString(fld.Type))
				}
				fld.Type = star.X
				continue
			}
			if inner := inlineStruct(fld.Type); inner != nil {
				if err := visit(inner, nil); err != nil {
					return err
				}
				continue
			}
			t := &fld.Type
			if arr, ok := (*t).(*ast.ArrayType); ok {
				t = &arr.Elt
			}
			if star, ok := (*t).(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && bases[id.Name] {
					*t = ast.NewIdent("Any" + id.Name)
				}
			}
		}
		return nil
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			if st, ok := ts.Type.(*ast.StructType); ok {
				if err := visit(st, derived[ts.Name.Name]); err != nil {
					return fmt.Errorf("type %s: %w", ts.Name.Name, err)
				}
			}
		}
	}
	return nil
}

// SealedDecls is the Go source of the declarations gowsdl cannot write for the contract's
// hierarchies: for each base with derived types, its sealed interface AnyBase, satisfied by the base
// (unless abstract) and by every concrete derived type; for each type in a hierarchy, XSDType, the
// local name xsi:type names it by. Nothing for a contract without derived types.
func SealedDecls(c *model.Contract) []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	for _, t := range c.Structs {
		if !t.Polymorphic() {
			continue
		}
		var names []string
		for _, d := range t.Derived {
			names = append(names, d.GoName)
		}
		p("")
		if t.Abstract {
			p("// Any%s holds a type derived from the abstract %s (%s); nil is no value.", t.GoName, t.GoName, strings.Join(names, ", "))
		} else {
			p("// Any%s holds a %s or a type derived from it (%s); nil is no value.", t.GoName, t.GoName, strings.Join(names, ", "))
		}
		p("type Any%s interface {", t.GoName)
		p("// %sBase returns the %s fields, whatever the value's type.", t.GoName, t.GoName)
		p("%sBase() *%s", t.GoName, t.GoName)
		p("// XSDType is the value's type's XSD local name, as xsi:type names it.")
		p("XSDType() string")
		p("isAny%s()", t.GoName)
		p("}")
		p("")
		p("// %sBase returns v: the fields of %s are promoted to every type derived from it.", t.GoName, t.GoName)
		p("func (v *%s) %sBase() *%s { return v }", t.GoName, t.GoName, t.GoName)
		for _, s := range append([]*model.Type{t}, t.Derived...) {
			if !s.Abstract && !promotedSeal(s, t) {
				p("")
				p("func (*%s) isAny%s() {}", s.GoName, t.GoName)
			}
		}
	}
	for _, t := range c.Structs {
		if t.Polymorphic() || t.Base != nil {
			p("")
			p("// XSDType returns %q, the type's XSD local name.", t.Name)
			p("func (*%s) XSDType() string { return %q }", t.GoName, t.Name)
		}
	}
	return b.Bytes()
}

// promotedSeal reports whether s, deriving from base, gets base's isAny method promoted from a
// concrete type between them (base itself included), which declares it.
func promotedSeal(s, base *model.Type) bool {
	if s == base {
		return false
	}
	for a := s.Base; a != nil; a = a.Base {
		if !a.Abstract {
			return true
		}
		if a == base {
			break
		}
	}
	return false
}

// inlineStruct returns the anonymous struct gowsdl generates for an element with an inline complex
// type: struct{…}, or []struct{…} when the element repeats.
func inlineStruct(e ast.Expr) *ast.StructType {
	for {
		switch x := e.(type) {
		case *ast.StructType:
			return x
		case *ast.ArrayType:
			e = x.Elt
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
