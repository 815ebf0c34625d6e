package xmlcodec

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// The small and unsigned integer kinds and ASMX's char (issue 33, shapes §7): xsd:byte is read as
// the signed types are, with 8 bits; the unsigned ones and char are written in plain digits (char as
// its code unit's number, soap11-GetSmalls-min) and read with the XSD lexical forms and range checks
// of xsd.Unsigned and xsd.CharValue. On GET/POST a char is one character (get-EchoChar-letter).

// appendSmall writes the statement appending <name>val</name> of a small kind; false for any other.
func (e *emitter) appendSmall(f *model.Field, val, name string) bool {
	switch k := f.Type.Kind; {
	case k == model.KindByte:
		e.p("b = xmlwire.AppendInt(b, %s, int64(%s))", name, val)
	case k == model.KindChar:
		e.p("b = xmlwire.AppendStart(b, %s)", name)
		e.p("b = %s.AppendText(b)", val)
		e.p("b = xmlwire.AppendEnd(b, %s)", name)
	case emit.Unsigned(k):
		e.p("b = xmlwire.AppendStart(b, %s)", name)
		e.p("b = xsd.AppendUint(b, uint64(%s))", val)
		e.p("b = xmlwire.AppendEnd(b, %s)", name)
	default:
		return false
	}
	return true
}

// decodeSmall writes the statements reading the element el of a small kind into target; false for
// any other kind.
func (e *emitter) decodeSmall(f *model.Field, goType, target, label string) bool {
	bits, _ := emit.IntBits(f.Type.Kind)
	switch k := f.Type.Kind; {
	case k == model.KindByte:
		e.p("var n int64")
		e.p("n, err = r.ReadInt(el, %s, %q, %d)", label, f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
	case k == model.KindChar:
		e.p("var text string")
		e.p("if text, err = r.Text(el, %s); err == nil {", label)
		e.p("%s, err = xsd.CharValue(%s, text)", target, label)
		e.p("}")
	case k == model.KindFlags:
		e.p("var text string")
		e.p("if text, err = r.Text(el, %s); err == nil {", label)
		e.p("var n uint64")
		e.p("n, err = xsd.FlagsValue(%s, %q, text, %s.Enum)", label, f.Type.Name, emit.TypeRef(f.Type))
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	case emit.Unsigned(k):
		e.p("var text string")
		e.p("if text, err = r.Text(el, %s); err == nil {", label)
		e.p("var n uint64")
		e.p("n, err = xsd.Unsigned(%s, %q, text, %d)", label, f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	default:
		return false
	}
	return true
}

// formBytes writes the statements reading a byte[] parameter offered as ASMX offers it on GET/POST
// (model.HTTPParam.Bytes): one decimal number per byte, each a value of the parameter; none is the
// empty array.
func (e *emitter) formBytes(gf model.GoField, name string) {
	e.p("data, err := formwire.Bytes(%s, form.Values(%s))", name, name)
	e.p("if err != nil { return nil, err }")
	e.p("req.%s = data", gf.Name)
}
