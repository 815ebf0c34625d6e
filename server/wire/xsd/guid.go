package xsd

import (
	"strings"
)

// GUID is Microsoft's serialization guid ({http://microsoft.com/wsdl/types/}guid): 16 bytes in the
// order their hex digits are written, 8-4-4-4-12. (.NET's Guid(byte[]) constructor takes the first
// three groups little-endian; this type does not: GUID[0] is the first two hex digits of the text.)
// The zero value is 00000000-0000-0000-0000-000000000000, the value ASMX gives a missing Guid.
type GUID [16]byte

// guidDashes are the positions of the dashes in the 36-character form.
var guidDashes = [4]int{8, 13, 18, 23}

// ParseGUID reads a guid in any of the forms .NET's Guid constructor reads, as ASMX does on SOAP and
// the JSON endpoint (asmx-typezoo/more: soap11-EchoKey-*): the schema's pattern 8-4-4-4-12 ("D"), 32
// digits without dashes ("N"), the D form in braces ("B") or parentheses ("P"), and the hex struct
// form {0x0f8fad5b,0xd9cb,0x469f,{0xa1,0x65,…}} ("X"), in either case, with surrounding white space.
// .NET writes a Guid in each of them (Guid.ToString("B") and so on), so a client whose values came from
// .NET code may send any; they all mean the same 16 bytes, so refusing all but the pattern's form only
// turns a valid value away. Empty text and anything else are refused.
func ParseGUID(s string) (GUID, bool) {
	s = strings.TrimSpace(s)
	switch {
	case len(s) == 36:
		return parseGUIDDashes(s)
	case len(s) == 38 && (s[0] == '{' && s[37] == '}' || s[0] == '(' && s[37] == ')'):
		return parseGUIDDashes(s[1:37])
	case len(s) == 32:
		return parseGUIDDigits(s)
	case strings.HasPrefix(s, "{0"):
		return parseGUIDHexStruct(s)
	}
	return GUID{}, false
}

// parseGUIDDashes reads the D form, 8-4-4-4-12.
func parseGUIDDashes(s string) (GUID, bool) {
	for _, i := range guidDashes {
		if s[i] != '-' {
			return GUID{}, false
		}
	}
	return parseGUIDDigits(s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:36])
}

// parseGUIDDigits reads 32 hex digits.
func parseGUIDDigits(s string) (GUID, bool) {
	var g GUID
	if len(s) != 32 {
		return g, false
	}
	for i := 0; i < len(s); i++ {
		v, ok := unhex(s[i])
		if !ok {
			return GUID{}, false
		}
		g[i/2] |= v << (4 * (1 - i%2))
	}
	return g, true
}

// guidStructWidths are the hex digits of each number of the X form: a uint32, two uint16 and eight
// bytes.
var guidStructWidths = [11]int{8, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2}

// parseGUIDHexStruct reads the X form, {0x…,0x…,0x…,{0x…,0x…,0x…,0x…,0x…,0x…,0x…,0x…}}, each number
// with a 0x (or 0X) prefix and up to its width's hex digits, as Guid.ToString("X") writes it.
func parseGUIDHexStruct(s string) (GUID, bool) {
	var g GUID
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}}") {
		return g, false
	}
	parts := strings.Split(s[1:len(s)-2], ",")
	if len(parts) != len(guidStructWidths) || !strings.HasPrefix(parts[3], "{") {
		return g, false
	}
	parts[3] = parts[3][1:]
	pos := 0
	for i, p := range parts {
		width := guidStructWidths[i]
		if len(p) < 3 || len(p)-2 > width || p[0] != '0' || p[1]|0x20 != 'x' {
			return GUID{}, false
		}
		var v uint32
		for j := 2; j < len(p); j++ {
			h, ok := unhex(p[j])
			if !ok {
				return GUID{}, false
			}
			v = v<<4 | uint32(h)
		}
		for b := width/2 - 1; b >= 0; b-- {
			g[pos+b] = byte(v)
			v >>= 8
		}
		pos += width / 2
	}
	return g, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// MustParseGUID is ParseGUID for values known to be valid, such as constants; it panics on a bad
// one.
func MustParseGUID(s string) GUID {
	g, ok := ParseGUID(s)
	if !ok {
		panic("wire: not a guid: " + s)
	}
	return g
}

// AppendText appends the guid as ASMX writes it: lower case, 8-4-4-4-12.
func (g GUID) AppendText(b []byte) []byte {
	const digits = "0123456789abcdef"
	for i, c := range g {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, digits[c>>4], digits[c&0xf])
	}
	return b
}

// String returns the lexical form.
func (g GUID) String() string { return string(g.AppendText(make([]byte, 0, 36))) }

// MarshalText and UnmarshalText make a GUID an encoding.TextMarshaler (see Decimal.MarshalText).
func (g GUID) MarshalText() ([]byte, error) { return g.AppendText(nil), nil }

// UnmarshalText reads the lexical form with ParseGUID's rules.
func (g *GUID) UnmarshalText(text []byte) error {
	v, ok := ParseGUID(string(text))
	if !ok {
		return BadValue("value", "guid", string(text))
	}
	*g = v
	return nil
}
