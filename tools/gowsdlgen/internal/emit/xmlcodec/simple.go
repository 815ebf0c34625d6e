package xmlcodec

import (
	"fmt"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/names"

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

// formSmall is the formwire call reading the form value v of a small kind, and the conversion of its
// result to goType ("" for none); ok is false for any other kind.
func formSmall(t *model.Type, goType, name, item string) (call, conv string, ok bool) {
	bits, _ := emit.IntBits(t.Kind)
	switch k := t.Kind; {
	case k == model.KindByte:
		return fmt.Sprintf("formwire.Int(%s, %s, v, %q, %d)", name, item, t.Name, bits), goType, true
	case k == model.KindChar:
		return fmt.Sprintf("formwire.Char(%s, %s, v)", name, item), "", true
	case k == model.KindFlags:
		return fmt.Sprintf("formwire.Flags(%s, %s, v, %q, %s.Enum)", name, item, t.Name, emit.TypeRef(t)), goType, true
	case emit.Unsigned(k):
		return fmt.Sprintf("formwire.Unsigned(%s, %s, v, %q, %d)", name, item, t.Name, bits), goType, true
	}
	return "", "", false
}

// formSmallText is the expression of a small kind's form text; "" for any other kind. A char is the
// character itself, as a client sends it (its FormValue; half of a surrogate pair has none and is
// sent as the empty string, which the server refuses).
func formSmallText(kind model.Kind, val string) string {
	switch {
	case kind == model.KindByte:
		return "formwire.FormatInt(int64(" + val + "))"
	case kind == model.KindChar:
		return "formwire.FormatChar(" + val + ")"
	case kind == model.KindFlags:
		return val + ".wireText()"
	case emit.Unsigned(kind):
		return "formwire.FormatUint(uint64(" + val + "))"
	}
	return ""
}

// formBytes writes the statements reading a byte[] parameter offered as ASMX offers it on GET/POST
// (model.HTTPParam.Bytes): one decimal number per byte, each a value of the parameter; none is the
// empty array.
func (e *emitter) formBytes(gf model.GoField, name string) {
	e.p("data, err := formwire.Bytes(%s, form.Values(%s))", name, name)
	e.p("if err != nil { return nil, err }")
	e.p("req.%s = data", gf.Name)
}

// flagsTexts writes, for every [Flags] enumeration (a uint64 of bits, gowsdl's declaration from the
// view's xsd:unsignedLong), a constant per member (member i is 1<<i; a first None is zero, see
// xsd.FlagBit) and wireText, the space list ASMX writes. A bit no member names cannot be written
// (ASMX fails: soap11-GetTagged-3); wireText leaves it out, since the encoders have no error to
// return (docs/xsd-types.md).
func (e *emitter) flagsTexts() {
	for _, t := range e.c.Types {
		if t.Kind != model.KindFlags {
			continue
		}
		name := t.GoName
		e.p("")
		e.p("// The members of the [Flags] enumeration %s, one bit each.", t.Name)
		e.p("const (")
		var all []string
		bit := 0
		for i, m := range t.Enum {
			constName := name + names.GowsdlType(m)
			if i == 0 && m == "None" {
				e.p("%s %s = 0", constName, name)
				continue
			}
			e.p("%s %s = 1 << %d", constName, name, bit)
			all = append(all, constName)
			bit++
		}
		e.p(")")
		e.p("")
		e.p("// wireText is the space list of v's members, in declaration order, as ASMX writes a [Flags] value.")
		e.p("func (v %s) wireText() string {", name)
		e.p("b, _ := xsd.AppendFlags(nil, uint64(v&(%s)), type%s.Enum)", strings.Join(all, "|"), name)
		e.p("return string(b)")
		e.p("}")
	}
}
