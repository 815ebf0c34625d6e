// Package attrcodec writes the XML codec of a complex type's attributes and simple content (shapes
// README §11): ASMX writes a member marked [XmlAttribute] in the start tag, in declaration order, a
// value type always and a string only when it is not null; it reads the unqualified attributes it
// knows and ignores the rest (soap11-EchoTagged-attr-prefixed), an absent one leaving the zero value
// (soap11-EchoTagged-attrs-absent). A class with an [XmlText] member is simple content: its element
// holds the text and the attributes only. Package xmlcodec calls it for every type with either.
//
// It imports the standard library, emit and model.
package attrcodec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// Emitter writes a type's attribute and text code into the wire file.
type Emitter struct {
	*emit.Writer
}

// DecodeCall is the call reading the element el, just returned, into expr, a non-nil pointer to a
// complex type's struct: DecodeXML, or decodeXMLElement for a type with attributes or text, which
// reads them from el first (DecodeXML has no element start to read them from).
func DecodeCall(t *model.Type, expr string) string {
	if t.HasAttrs() {
		return expr + ".decodeXMLElement(r, el)"
	}
	return expr + ".DecodeXML(r)"
}

// Codec writes the attribute methods of t (Go struct goName): appendXMLAttrs, which adds them to the
// start tag its AppendXML's caller wrote, and decodeXMLElement. For a simple-content type it writes
// the whole codec (AppendXML and DecodeXML too) and reports done, since t has no elements.
func (e Emitter) Codec(t *model.Type, goName string) (done bool, err error) {
	if !t.HasAttrs() {
		return false, nil
	}
	if t.Text != nil && t.Polymorphic() {
		// The model refuses a type extending simple content (model/attrs.InHierarchy).
		return false, fmt.Errorf("type %s has simple content ([XmlText]) and derived types: text content in a hierarchy is not supported yet", t.Name)
	}
	// A derived type writes and reads its base chain's attributes before its own, as it does its
	// elements (AllFields); xsi:type, when written, is already in the start tag (appendTyped).
	attrs := t.AllAttrs()
	if err := promotedNames(t); err != nil {
		return false, err
	}
	e.P("")
	e.P("// appendXMLAttrs adds the attributes of %s, in declaration order, to the start tag b ends with.", t.Name)
	e.P("func (v *%s) appendXMLAttrs(b []byte) []byte {", goName)
	e.P("b, ok := xmlwire.ReopenStart(b)")
	e.P("if !ok { return b }")
	for i, a := range attrs {
		if err := e.appendAttr(t, i); err != nil {
			return false, fmt.Errorf("%s: attribute %s: %w", t.Name, a.Name, err)
		}
	}
	e.P("return append(b, '>')")
	e.P("}")

	e.P("")
	e.P("// decodeXMLElement reads the element el of %s, just returned: its unqualified attributes, which", t.Name)
	e.P("// ASMX reads in any order, ignoring others, then its content.")
	e.P("func (v *%s) decodeXMLElement(r *xmlwire.Reader, el xmlwire.Start) error {", goName)
	e.P("attrs, err := r.PlainAttrs(el)")
	e.P("if err != nil { return err }")
	e.P("for _, a := range attrs {")
	e.P("if a.Name.Space != \"\" { continue }")
	e.P("text := a.Value")
	e.P("switch a.Name.Local {")
	for _, a := range attrs {
		gf := a.GoField()
		e.P("case %q:", a.Name)
		label := strconv.Quote("attribute " + a.Name)
		target := "v." + gf.Name
		base, ptr := strings.CutPrefix(gf.Type, "*")
		if ptr {
			e.P("var x %s", base)
			target = "x"
		}
		if err := e.parse(a.Type, base, target, label); err != nil {
			return false, fmt.Errorf("%s: attribute %s: %w", t.Name, a.Name, err)
		}
		if ptr {
			e.P("v.%s = &x", gf.Name)
		}
	}
	e.P("}")
	e.P("if err != nil { return err }")
	e.P("}")
	e.P("return v.DecodeXML(r)")
	e.P("}")
	if t.Text == nil {
		return false, nil
	}
	return true, e.text(t, goName)
}

// text writes AppendXML and DecodeXML of a simple-content type: the attributes, then the text. The
// text of an element holding elements is refused (ASMX keeps its last text node,
// soap11-EchoTagged-text-with-element: a deviation, since simple content has no child elements).
func (e Emitter) text(t *model.Type, goName string) error {
	goType := t.TextGoType()
	expr, err := emit.TextExpr(t.Text, goType, "v.Value")
	if err != nil {
		return err
	}
	e.P("")
	e.P("// AppendXML appends the attributes and text of %s.", t.Name)
	e.P("func (v *%s) AppendXML(b []byte) []byte {", goName)
	e.P("b = v.appendXMLAttrs(b)")
	e.P("return %s", expr)
	e.P("}")
	e.P("")
	e.P("// DecodeXML reads the text of %s.", t.Name)
	e.P("func (v *%s) DecodeXML(r *xmlwire.Reader) error {", goName)
	// Text reads the content of the element just returned, whatever start it is given.
	e.P("text, err := r.Text(xmlwire.Start{}, %q)", "content of "+t.Name)
	e.P("if err != nil { return err }")
	if t.Text.Kind == model.KindString {
		e.P("v.Value = text")
		e.P("return nil")
		e.P("}")
		return nil
	}
	if err := e.parse(t.Text, goType, "v.Value", strconv.Quote("the text of "+t.Name)); err != nil {
		return err
	}
	e.P("return err")
	e.P("}")
	return nil
}

// appendAttr writes the statements appending attribute i of t (AllAttrs): a value type always, an
// optional string when not empty, any other optional value when not nil.
func (e Emitter) appendAttr(t *model.Type, i int) error {
	a := t.AllAttrs()[i]
	gf := a.GoField()
	val := "v." + gf.Name
	base, ptr := strings.CutPrefix(gf.Type, "*")
	switch {
	case ptr:
		e.P("if %s != nil {", val)
		val = "(*" + val + ")"
	case a.Type.Kind == model.KindString && !a.Required:
		e.P("if %s != \"\" {", val)
	default:
		e.P("{")
	}
	expr, err := emit.TextExpr(a.Type, base, val)
	if err != nil {
		return err
	}
	// A tab or line feed in a string goes as a character reference (xmlwire.AppendAttrValue).
	expr = strings.Replace(expr, "xmlwire.AppendEscaped(", "xmlwire.AppendAttrValue(", 1)
	e.P("b = append(b, ` %s=\"`...)", a.Name)
	e.P("b = %s", expr)
	e.P("b = append(b, '\"')")
	e.P("}")
	return nil
}

// parse writes the statements reading text (a string variable) as a value of the simple type t into
// target, of Go type goType; err (declared by the caller) says why it cannot be read, naming label.
func (e Emitter) parse(t *model.Type, goType, target, label string) error {
	bits, _ := emit.IntBits(t.Kind)
	bad := fmt.Sprintf("err = xsd.BadValue(%s, %q, text)", label, t.Name)
	switch k := t.Kind; {
	case k == model.KindString:
		e.P("%s = text", target)
	case k == model.KindEnum:
		e.P("switch text {")
		e.P("case %s:", emit.QuoteList(t.Enum))
		e.P("%s = %s(text)", target, goType)
		e.P("default:")
		e.P("%s", bad)
		e.P("}")
	case k == model.KindFlags:
		e.P("var n uint64")
		e.P("n, err = xsd.FlagsValue(%s, %q, text, %s.Enum)", label, t.Name, emit.TypeRef(t))
		e.P("%s = %s(n)", target, goType)
	case k == model.KindChar:
		e.P("%s, err = xsd.CharValue(%s, text)", target, label)
	case emit.Unsigned(k):
		e.P("var n uint64")
		e.P("n, err = xsd.Unsigned(%s, %q, text, %d)", label, t.Name, bits)
		e.P("%s = %s(n)", target, goType)
	case bits != 0:
		e.P("if n, ok := xsd.ParseInt(text, %d); ok { %s = %s(n) } else { %s }", bits, target, goType, bad)
	case k == model.KindBoolean:
		e.P("if parsed, ok := xsd.ParseBool(text); ok { %s = parsed } else { %s }", target, bad)
	case k == model.KindDouble, k == model.KindFloat:
		size := map[model.Kind]int{model.KindDouble: 64, model.KindFloat: 32}[k]
		e.P("if parsed, ok := xsd.ParseDouble(text, %d); ok { %s = %s(parsed) } else { %s }", size, target, goType, bad)
	case k == model.KindDecimal:
		e.P("if parsed, ok := xsd.ParseDecimal(text); ok { %s = parsed } else { %s }", target, bad)
	case k == model.KindDateTime:
		e.P("if parsed, ok := xsd.ParseDateTime(text); ok { %s = parsed } else { %s }", target, bad)
	case k == model.KindGUID:
		e.P("if parsed, ok := xsd.ParseGUID(text); ok { %s = parsed } else { %s }", target, bad)
	default:
		return fmt.Errorf("type %s has no attribute form", t.Name)
	}
	return nil
}

// Descriptor writes the statements completing t's descriptor (type<GoName>, a wire.Type) with its
// attributes and text type, for the help pages' samples: a derived type's base chain's attributes
// first, as its Fields hold the base chain's elements first.
func (e Emitter) Descriptor(t *model.Type) {
	if attrs := t.AllAttrs(); len(attrs) > 0 {
		e.P("type%s.Attrs = []wire.Field{", t.GoName)
		for _, a := range attrs {
			required := 0
			if a.Required {
				required = 1
			}
			e.P("{Name: %q, Type: %s, MinOccurs: %d, MaxOccurs: 1},", a.Name, emit.TypeRef(a.Type), required)
		}
		e.P("}")
	}
	if t.Text != nil {
		e.P("type%s.Text = %s", t.GoName, emit.TypeRef(t.Text))
	}
}

// promotedNames refuses a derived type t whose Go fields would hide one another: its own attribute
// named in Go like an element or attribute of its base chain (XML names differing in case only, "id"
// beside "Id"), which the embedded base's promoted field would lose to.
func promotedNames(t *model.Type) error {
	if t.Base == nil {
		return nil
	}
	owner := map[string]string{}
	for _, f := range t.Base.AllFields() {
		owner[f.GoName] = "element " + f.Name
	}
	for _, a := range t.Base.AllAttrs() {
		owner[a.GoName] = "attribute " + a.Name
	}
	for _, a := range t.Attrs {
		if what, ok := owner[a.GoName]; ok {
			return fmt.Errorf("type %s: the attribute %s has the Go name %s of its base's %s, which it would hide: not supported yet", t.Name, a.Name, a.GoName, what)
		}
	}
	return nil
}
