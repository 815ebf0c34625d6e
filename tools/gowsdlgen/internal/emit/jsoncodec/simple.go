package jsoncodec

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// The small and unsigned integer kinds and ASMX's char on the JSON endpoint (issue 33, shapes §7):
// JSON numbers, the unsigned ones read exactly (jsonwire.Unsigned, no float64 on the way), char as its
// code unit's number (a guess written down in docs/xsd-types.md: there is no capture of ASP.NET AJAX's
// form).

// jsonAppendSmall writes the statement appending a small kind's value; false for any other kind.
func (e *emitter) jsonAppendSmall(f *model.Field, val string) bool {
	switch k := f.Type.Kind; {
	case k == model.KindByte:
		e.p("b = xsd.AppendInt(b, int64(%s))", val)
	case k == model.KindChar, emit.Unsigned(k):
		e.p("b = xsd.AppendUint(b, uint64(%s))", val)
	default:
		return false
	}
	return true
}

// jsonDecodeSmall writes the statements reading tok into target, of a small kind; false for any
// other kind.
func (e *emitter) jsonDecodeSmall(f *model.Field, goType, target, label string) bool {
	bits, _ := emit.IntBits(f.Type.Kind)
	switch k := f.Type.Kind; {
	case k == model.KindByte:
		e.p("{")
		e.p("var n int64")
		e.p("n, err = jsonwire.Int(tok, %s, %q, %d)", label, f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	case k == model.KindFlags:
		e.p("{")
		e.p("var text string")
		e.p("if text, err = jsonwire.String(tok, %s); err == nil {", label)
		e.p("var n uint64")
		e.p("n, err = xsd.FlagsValue(%s, %q, text, %s.Enum)", label, f.Type.Name, emit.TypeRef(f.Type))
		e.p("%s = %s(n)", target, goType)
		e.p("}")
		e.p("}")
	case k == model.KindChar, emit.Unsigned(k):
		e.p("{")
		e.p("var n uint64")
		e.p("n, err = jsonwire.Unsigned(tok, %s, %q, %d)", label, f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	default:
		return false
	}
	return true
}
