package record

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// The small and unsigned integer kinds and ASMX's char in the record form (issue 33, generator-model
// §3.8): JSON numbers, the unsigned ones exact to 18446744073709551615 (recordwire's Unsigned), char
// as its code unit's number.

// recordAppendSmall writes the statement appending a small kind's value; false for any other kind.
func (e *emitter) recordAppendSmall(f *model.Field, val string) bool {
	switch k := f.Type.Kind; {
	case k == model.KindByte:
		e.p("b = recordwire.AppendInt(b, int64(%s))", val)
	case k == model.KindChar, emit.Unsigned(k):
		e.p("b = recordwire.AppendUint(b, uint64(%s))", val)
	default:
		return false
	}
	return true
}

// recordDecodeSmall writes the statements reading the record value into target, of a small kind;
// false for any other kind.
func (e *emitter) recordDecodeSmall(f *model.Field, goType, target string) bool {
	bits, _ := emit.IntBits(f.Type.Kind)
	switch k := f.Type.Kind; {
	case k == model.KindByte:
		e.p("{")
		e.p("var n int64")
		e.p("n, err = r.Int(%q, %d)", f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	case k == model.KindFlags:
		e.p("{")
		e.p("var text string")
		e.p("if text, err = r.String(); err == nil {")
		e.p("n, ok := xsd.ParseFlags(text, %s.Enum)", emit.TypeRef(f.Type))
		e.p("if !ok { err = r.BadEnum(%q, text) }", f.Type.Name)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
		e.p("}")
	case k == model.KindChar, emit.Unsigned(k):
		e.p("{")
		e.p("var n uint64")
		e.p("n, err = r.Unsigned(%q, %d)", f.Type.Name, bits)
		e.p("%s = %s(n)", target, goType)
		e.p("}")
	default:
		return false
	}
	return true
}
