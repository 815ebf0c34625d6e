package xsd

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The small and unsigned integer types, ASMX's char and [Flags] enumerations (asmx-typezoo/shapes,
// README §7 and §11). xsd:byte is ParseInt with bits 8; the unsigned types are ParseUnsigned.

// ParseUnsigned reads an xsd:unsignedByte, unsignedShort, unsignedInt or unsignedLong (bits 8, 16, 32,
// 64) as XmlConvert does: optional surrounding white space, an optional sign, decimal digits only,
// leading zeros allowed; a minus sign only before a zero value ("-0", as UInt32.Parse reads it and as
// the XSD lexical space of nonNegativeInteger allows). A value outside the type's range is refused
// (soap11-Unsigned-b-overflow, -ul-overflow), and so is a negative one (soap11-Unsigned-ui-negative,
// get-Unsigned-ui-negative).
func ParseUnsigned(s string, bits int) (uint64, bool) {
	s = strings.TrimSpace(s)
	negative := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		negative = s[0] == '-'
		s = s[1:]
	}
	if s == "" || s[0] < '0' || s[0] > '9' { // strconv would take a second sign; an underscore never passes base 10
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, bits)
	if err != nil || negative && n != 0 {
		return 0, false
	}
	return n, true
}

// AppendUint appends n in decimal digits, as ASMX writes every unsigned type
// (soap11-GetSmalls-max: <UL>18446744073709551615</UL>).
func AppendUint(b []byte, n uint64) []byte { return strconv.AppendUint(b, n, 10) }

// Unsigned is ParseUnsigned with the error the readers of every encoding report: what names the value
// ("parameter ui", "element UI"), xsdType its type ("unsignedInt").
func Unsigned(what, xsdType, text string, bits int) (uint64, error) {
	n, ok := ParseUnsigned(text, bits)
	if !ok {
		return 0, BadValue(what, xsdType, text)
	}
	return n, nil
}

// Char is ASMX's char ({http://microsoft.com/wsdl/types/}char, a restriction of xsd:unsignedShort): one
// UTF-16 code unit, which may be half of a surrogate pair.
type Char uint16

// ParseChar reads a char as SOAP carries it: the code unit's number, 0 to 65535, with the forms of
// ParseUnsigned (soap11-EchoChar-65, -65535); a letter is refused (soap11-EchoChar-letter), and so is
// 65536 (soap11-EchoChar-65536).
func ParseChar(s string) (Char, bool) {
	n, ok := ParseUnsigned(s, 16)
	return Char(n), ok
}

// ParseFormChar reads a char as HTTP GET and POST carry it: exactly one UTF-16 code unit, nothing
// trimmed, as Char.Parse reads it (get-EchoChar-letter). A number is that many characters, so 65 is
// refused (get-EchoChar-65), and so are AB (get-EchoChar-two-letters), the empty string and a
// character outside the Basic Multilingual Plane, which is two code units in UTF-16.
func ParseFormChar(s string) (Char, bool) {
	r, size := utf8.DecodeRuneInString(s)
	if size != len(s) || r == utf8.RuneError || utf16.RuneLen(r) != 1 {
		return 0, false
	}
	return Char(r), true
}

// AppendText appends the code unit's number, as ASMX writes a char on every binding
// (soap11-GetSmalls-min: 'é' is 233; get-EchoChar-letter: <char>65</char>).
func (c Char) AppendText(b []byte) []byte { return strconv.AppendUint(b, uint64(c), 10) }

// FormValue returns the char as an HTTP GET/POST client sends it: the character itself. ok is false
// for half of a surrogate pair, which UTF-8 cannot carry alone.
func (c Char) FormValue() (string, bool) {
	if utf16.IsSurrogate(rune(c)) {
		return "", false
	}
	return string(rune(c)), true
}

// CharValue is ParseChar with the readers' error (what as for Unsigned).
func CharValue(what, text string) (Char, error) {
	c, ok := ParseChar(text)
	if !ok {
		return 0, BadValue(what, "char", text)
	}
	return c, nil
}

// A [Flags] enumeration is an xsd:list of an enumeration of names (README §11: Perm). Its value is a
// uint64 with one bit per member in declaration order: member i is 1<<i, except that a first member
// named None is the zero value and the bits start at the member after it. A list of more than 64
// members (65 with None) has no value here: the generator refuses it.

// FlagBit returns the bit of members[i]; zero for a leading None, and ok false for a member past the
// 64th bit.
func FlagBit(members []string, i int) (bit uint64, ok bool) {
	if len(members) > 0 && members[0] == "None" {
		if i == 0 {
			return 0, true
		}
		i--
	}
	if i < 0 || i >= 64 {
		return 0, false
	}
	return 1 << i, true
}

// flagOf returns the bit of the member named name.
func flagOf(members []string, name string) (uint64, bool) {
	for i, m := range members {
		if m == name {
			return FlagBit(members, i)
		}
	}
	return 0, false
}

// ParseFlags reads a flags value as SOAP carries it, as XmlSerializer reads it: names separated by
// XML white space, in any order; duplicates, None and extra white space are absorbed
// (soap11-EchoPerm-duplicate, -none-and-read, soap11-EchoTagged-perm-order); the empty list is zero
// (soap11-EchoPerm-empty). A comma (soap11-EchoPerm-comma), a number (soap11-EchoPerm-numeric) or a
// name that is no member (soap11-EchoPerm-unknown) is refused. Names are case-sensitive.
func ParseFlags(s string, members []string) (uint64, bool) {
	var v uint64
	for _, name := range strings.FieldsFunc(s, isXMLSpace) {
		bit, ok := flagOf(members, name)
		if !ok {
			return 0, false
		}
		v |= bit
	}
	return v, true
}

// ParseFormFlags reads a flags value as HTTP GET and POST carry it: the space list of ParseFlags, and
// the comma list Enum.ToString writes and ASMX's URL reader takes, "Read, Write", white space around
// each name trimmed (get-EchoPerm-comma). Where ASMX's reader refuses the space list and the empty
// value (get-EchoPerm-read-write, -empty), they are accepted as on SOAP, the XSD forms on every
// binding; where it takes a member's number (get-EchoPerm-numeric), the number is refused, because the
// WSDL gives the members no numbers (docs/xsd-types.md lists both).
func ParseFormFlags(s string, members []string) (uint64, bool) {
	if !strings.Contains(s, ",") {
		return ParseFlags(s, members)
	}
	var v uint64
	for _, name := range strings.Split(s, ",") {
		bit, ok := flagOf(members, strings.Trim(name, " \t\n\r"))
		if !ok {
			return 0, false
		}
		v |= bit
	}
	return v, true
}

// AppendFlags appends v as ASMX writes a flags value: the names of its bits separated by one space, in
// declaration order (README §11: "Read Write Execute"); zero is None when the first member is None,
// else nothing. ok is false when v has a bit no member names, which ASMX cannot write either
// (soap11-GetTagged-3: "Instance validation error: '8' is not a valid value"); b is then unchanged.
func AppendFlags(b []byte, v uint64, members []string) ([]byte, bool) {
	start := len(b)
	if v == 0 {
		if len(members) > 0 && members[0] == "None" {
			b = append(b, "None"...)
		}
		return b, true
	}
	var named uint64
	for i, m := range members {
		bit, ok := FlagBit(members, i)
		if !ok || bit == 0 || v&bit == 0 {
			continue
		}
		if len(b) > start {
			b = append(b, ' ')
		}
		b = append(b, m...)
		named |= bit
	}
	if named != v {
		return b[:start], false
	}
	return b, true
}

// FlagsValue is ParseFlags with the readers' error; xsdType names the enumeration.
func FlagsValue(what, xsdType, text string, members []string) (uint64, error) {
	v, ok := ParseFlags(text, members)
	if !ok {
		return 0, BadValue(what, xsdType, text)
	}
	return v, nil
}

// isXMLSpace reports whether r is XML white space (XML 1.0 §2.3 S), which separates the items of an
// xsd:list.
func isXMLSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }
