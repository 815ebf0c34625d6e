// Package hierarchycodec writes the generated code of a contract's inheritance (issue 33 T2) for
// package xmlcodec: per base with derived types its xmlany.Hierarchy and the XML and JSON functions
// the field codecs call (Hierarchies), and those calls (AppendPoly, DecodePoly).
//
// It imports the standard library, emit and model.
package hierarchycodec

import (
	"fmt"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// Inheritance (design §3.7): an element declared with a type that has derived types holds its sealed
// interface Any<Base> (postprocess). It is written with xsi:type naming the value's type unless that is
// the declared one, and read through xmlany.Dispatch: no xsi:type is the declared type (a Client fault
// for an abstract one), an xsi:type must name the declared type or a derived one, else a Client fault
// naming it; xsi:nil on an element that is not nillable reads the empty type named (ASMX:
// soap11-EchoAnimal-nil). Hierarchies writes, per such base, its xmlany.Hierarchy and the functions the
// field codecs call.

// concrete are the types whose Go values an Any<t> may hold: t unless abstract, and every type
// derived from it (an abstract one among them gets the seal promoted from a concrete base: it is
// written as its type, which the reader then refuses as abstract, rather than dropped).
func concrete(t *model.Type) []*model.Type {
	if t.Abstract {
		return t.Derived
	}
	return append([]*model.Type{t}, t.Derived...)
}

// Emitter writes hierarchy code to its Writer.
type Emitter struct{ *emit.Writer }

func (e Emitter) p(format string, args ...any) { e.P(format, args...) }

// Hierarchies writes, for each type of the contract with derived types, hierarchy<T>, append<T>Any,
// decode<T>Any and appendJSON<T>Any/decodeJSON<T>Any (the JSON endpoint's form: the value's object,
// without "__type" yet; a value is read as the declared type).
func (e Emitter) Hierarchies(types []*model.Type) {
	first := true
	for _, t := range types {
		if !t.Polymorphic() {
			continue
		}
		if first {
			first = false
			e.p("")
			e.p("// appendTyped appends the element name holding m, with xsi:type naming typ, a type of the")
			e.p("// element's default namespace (the contract's), as ASMX writes a derived value.")
			e.p("func appendTyped(b []byte, name, typ string, m xmlwire.Content) []byte {")
			e.p("b = append(b, '<')")
			e.p("b = append(b, name...)")
			e.p("b = xmlany.AppendXSIType(b, xml.Name{Local: typ}, \"\")")
			e.p("mark := len(b)")
			e.p("b = append(b, '>')")
			e.p("n := len(b)")
			e.p("b = m.AppendXML(b)")
			e.p("if len(b) == n { return append(b[:mark], \" />\"...) }")
			e.p("return xmlwire.AppendEnd(b, name)")
			e.p("}")
		}
		var derived []string
		for _, d := range t.Derived {
			derived = append(derived, fmt.Sprintf("%q", d.Name))
		}
		g := t.GoName
		e.p("")
		e.p("var hierarchy%s = &xmlany.Hierarchy{Declared: %q, Abstract: %v, Derived: []string{%s}}",
			g, t.Name, t.Abstract, strings.Join(derived, ", "))
		e.p("")
		e.p("// append%sAny appends the element name holding v, with xsi:type unless v is a %s.", g, t.Name)
		e.p("func append%sAny(b []byte, name string, v Any%s) []byte {", g, g)
		e.p("switch x := v.(type) {")
		for _, s := range concrete(t) {
			e.p("case *%s:", s.GoName)
			if s == t {
				e.p("return xmlwire.AppendComplex(b, name, x)")
			} else {
				e.p("return appendTyped(b, name, %q, x)", s.Name)
			}
		}
		e.p("}")
		e.p("return b")
		e.p("}")
		e.p("")
		e.p("// decode%sAny reads the element el of type %s, of the type its xsi:type names.", g, t.Name)
		e.p("func decode%sAny(r *xmlwire.Reader, el xmlwire.Start) (Any%s, error) {", g, g)
		e.p("i, err := xmlany.Dispatch(r, el, hierarchy%s)", g)
		e.p("if err != nil { return nil, err }")
		e.p("switch i {")
		all := append([]*model.Type{t}, t.Derived...)
		for i, s := range all {
			if s.Abstract {
				if i > 0 { // an abstract derived type named: the fault names it (the declared one below)
					e.p("case %d:", i)
					e.p("return nil, xmlany.AbstractNamed(el.Local(), %q)", s.Name)
				}
				continue
			}
			e.p("case %d:", i)
			e.p("x := new(%s)", s.GoName)
			e.p("if el.Nil() { return x, r.Skip(el) }")
			if s.HasAttrs() { // its attributes, and its base chain's, are in el (attrcodec)
				e.p("return x, x.decodeXMLElement(r, el)")
			} else {
				e.p("return x, x.DecodeXML(r)")
			}
		}
		e.p("}")
		e.p("return nil, xmlany.Abstract(el.Local(), %q)", t.Name)
		e.p("}")
		e.p("")
		e.p("// appendJSON%sAny appends v's object, its type's XSD local name first as \"__type\".", g)
		e.p("func appendJSON%sAny(b []byte, v Any%s) []byte {", g, g)
		e.p("mark := len(b)")
		e.p("switch x := v.(type) {")
		for _, s := range concrete(t) {
			e.p("case *%s:", s.GoName)
			e.p("return jsonwire.InsertType(x.AppendJSON(b), mark, %q)", s.Name)
		}
		e.p("}")
		e.p("return append(b, \"null\"...)")
		e.p("}")
		e.p("")
		e.p("// decodeJSON%sAny reads an object of type %s, of the type its leading \"__type\" names.", g, t.Name)
		e.p("func decodeJSON%sAny(r *jsonwire.Reader, what string) (Any%s, error) {", g, g)
		e.p("typ, typed, err := r.TypeKey(what)")
		e.p("if err != nil { return nil, err }")
		e.p("if !typed { typ = %q }", t.Name)
		e.p("switch typ {")
		for _, s := range append([]*model.Type{t}, t.Derived...) {
			e.p("case %q:", s.Name)
			if s.Abstract {
				e.p("return nil, jsonwire.Abstract(what, %q)", t.Name)
				continue
			}
			e.p("x := new(%s)", s.GoName)
			e.p("return x, x.DecodeJSON(r)")
		}
		e.p("}")
		e.p("return nil, jsonwire.NotDerived(what, typ, %q)", t.Name)
		e.p("}")
		e.p("")
		e.p("// appendContent%sAny appends the content of v's element, an HTTP GET/POST result root whose", g)
		e.p("// start tag b ends with: xsi:type goes into it unless v is a %s.", t.Name)
		e.p("func appendContent%sAny(b []byte, v Any%s) []byte {", g, g)
		e.p("switch x := v.(type) {")
		for _, s := range concrete(t) {
			e.p("case *%s:", s.GoName)
			if s == t {
				e.p("return x.AppendXML(b)")
			} else {
				e.p("return x.AppendXML(xmlany.AppendRootXSIType(b, %q))", s.Name)
			}
		}
		e.p("}")
		e.p("return b")
		e.p("}")
	}
}

// AppendPoly writes the statements appending the element of f holding expr, an Any<Base>.
func (e Emitter) AppendPoly(f *model.Field, expr string) {
	e.p("if %s != nil {", expr)
	e.p("b = append%sAny(b, %q, %s)", f.Type.GoName, f.Name, expr)
	if f.Nillable {
		e.p("} else {")
		e.p("b = xmlwire.AppendNil(b, %q)", f.Name)
	}
	e.p("}")
}

// DecodePoly writes the statements reading the element el of f into expr, an Any<Base>.
func (e Emitter) DecodePoly(f *model.Field, expr string) {
	if f.Nillable {
		e.p("if el.Nil() {")
		e.p("%s = nil", expr)
		e.p("err = r.Skip(el)")
		e.p("} else {")
		e.p("%s, err = decode%sAny(r, el)", expr, f.Type.GoName)
		e.p("}")
		return
	}
	e.p("%s, err = decode%sAny(r, el)", expr, f.Type.GoName)
}
