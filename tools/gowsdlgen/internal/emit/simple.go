package emit

import (
	"fmt"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/names"
)

// intBits are the integer kinds' sizes in bits, negative for the unsigned ones (char as the unsigned 16
// bits it travels as).
var intBits = map[model.Kind]int{model.KindInt: 32, model.KindLong: 64, model.KindShort: 16, model.KindByte: 8, model.KindUnsignedByte: -8,
	model.KindUnsignedShort: -16, model.KindChar: -16, model.KindUnsignedInt: -32, model.KindUnsignedLong: -64}

// IntBits is the size in bits of an integer kind, and whether it is unsigned; 0 for any other kind.
func IntBits(k model.Kind) (bits int, unsigned bool) {
	if n := intBits[k]; n < 0 {
		return -n, true
	}
	return intBits[k], false
}

// Unsigned reports whether k is one of the unsigned integer kinds (char excluded: it has forms of its
// own on GET/POST).
func Unsigned(k model.Kind) bool {
	bits, unsigned := IntBits(k)
	return bits > 0 && unsigned && k != model.KindChar
}

// FormSmall is the formwire call reading the form value v of a small kind, and the conversion of its
// result to goType ("" for none); ok is false for any other kind.
func FormSmall(t *model.Type, goType, name, item string) (call, conv string, ok bool) {
	bits, _ := IntBits(t.Kind)
	switch k := t.Kind; {
	case k == model.KindByte:
		return fmt.Sprintf("formwire.Int(%s, %s, v, %q, %d)", name, item, t.Name, bits), goType, true
	case k == model.KindChar:
		return fmt.Sprintf("formwire.Char(%s, %s, v)", name, item), "", true
	case k == model.KindFlags:
		return fmt.Sprintf("formwire.Flags(%s, %s, v, %q, %s.Enum)", name, item, t.Name, TypeRef(t)), goType, true
	case Unsigned(k):
		return fmt.Sprintf("formwire.Unsigned(%s, %s, v, %q, %d)", name, item, t.Name, bits), goType, true
	}
	return "", "", false
}

// FormSmallText is the expression of a small kind's form text; "" for any other kind. A char is the
// character itself, as a client sends it (its FormValue; half of a surrogate pair has none and is
// sent as the empty string, which the server refuses).
func FormSmallText(kind model.Kind, val string) string {
	switch {
	case kind == model.KindByte:
		return "formwire.FormatInt(int64(" + val + "))"
	case kind == model.KindChar:
		return "formwire.FormatChar(" + val + ")"
	case kind == model.KindFlags:
		return val + ".wireText()"
	case Unsigned(kind):
		return "formwire.FormatUint(uint64(" + val + "))"
	}
	return ""
}

// FlagsTexts writes, for every [Flags] enumeration (a uint64 of bits, gowsdl's declaration from the
// view's xsd:unsignedLong), a constant per member (member i is 1<<i; a first None is zero, see
// xsd.FlagBit) and wireText, the space list ASMX writes. A bit no member names cannot be written
// (ASMX fails: soap11-GetTagged-3); wireText leaves it out, since the encoders have no error to
// return (docs/xsd-types.md).
func FlagsTexts(w *Writer, types []*model.Type) {
	for _, t := range types {
		if t.Kind != model.KindFlags {
			continue
		}
		name := t.GoName
		w.P("")
		w.P("// The members of the [Flags] enumeration %s, one bit each.", t.Name)
		w.P("const (")
		var all []string
		bit := 0
		for i, m := range t.Enum {
			constName := name + names.GowsdlType(m)
			if i == 0 && m == "None" {
				w.P("%s %s = 0", constName, name)
				continue
			}
			w.P("%s %s = 1 << %d", constName, name, bit)
			all = append(all, constName)
			bit++
		}
		w.P(")")
		w.P("")
		w.P("// wireText is the space list of v's members, in declaration order, as ASMX writes a [Flags] value.")
		w.P("func (v %s) wireText() string {", name)
		w.P("b, _ := xsd.AppendFlags(nil, uint64(v&(%s)), type%s.Enum)", strings.Join(all, "|"), name)
		w.P("return string(b)")
		w.P("}")
	}
}
