package wire

import (
	"encoding/json"
	"strings"
)

// GUID is Microsoft's serialization guid ({http://microsoft.com/wsdl/types/}guid): 16 bytes in the
// order their hex digits are written, 8-4-4-4-12. (.NET's Guid(byte[]) constructor takes the first
// three groups little-endian; this type does not: GUID[0] is the first two hex digits of the text.)
// The zero value is 00000000-0000-0000-0000-000000000000, the value ASMX gives a missing Guid.
type GUID [16]byte

// guidDashes are the positions of the dashes in the 36-character form.
var guidDashes = [4]int{8, 13, 18, 23}

// ParseGUID reads a guid in the schema's pattern, [0-9a-fA-F]{8}-…-[0-9a-fA-F]{12}, upper or lower
// case, with surrounding white space allowed. The other forms .NET's Guid constructor accepts (32
// digits without dashes, braces, parentheses, the hex-array form) are refused, because the schema's
// pattern does not allow them and no ASMX client sends them.
func ParseGUID(s string) (GUID, bool) {
	var g GUID
	s = strings.TrimSpace(s)
	if len(s) != 36 {
		return g, false
	}
	for _, i := range guidDashes {
		if s[i] != '-' {
			return g, false
		}
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if i == guidDashes[0] || i == guidDashes[1] || i == guidDashes[2] || i == guidDashes[3] {
			continue
		}
		v, ok := unhex(s[i])
		if !ok {
			return GUID{}, false
		}
		g[n/2] |= v << (4 * (1 - n%2))
		n++
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

// AppendGUID appends <name>g</name>.
func AppendGUID(b []byte, name string, g GUID) []byte {
	b = AppendStart(b, name)
	b = g.AppendText(b)
	return AppendEnd(b, name)
}

// ReadGUID reads a guid element.
func (r *Reader) ReadGUID(s Start, what string) (GUID, error) {
	text, err := r.Text(s, what)
	if err != nil {
		return GUID{}, err
	}
	g, ok := ParseGUID(text)
	if !ok {
		return GUID{}, BadValue(what, "guid", text)
	}
	return g, nil
}

// FormGUID reads a guid parameter. ASMX never offers an operation with a Guid parameter on HTTP GET
// or POST (its URL reader cannot convert one), so its contracts never ask for this; a hand-written
// contract that does gets the same rules as SOAP.
func FormGUID(form *Form, name string) (GUID, error) {
	v, ok, err := FormValue(form, name)
	if err != nil {
		return GUID{}, err
	}
	if !ok {
		return GUID{}, FormRequired(name)
	}
	g, ok := ParseGUID(v)
	if !ok {
		return GUID{}, BadValue("parameter "+name, "guid", v)
	}
	return g, nil
}

// AppendJSONGUID appends g as a JSON string, lower case 8-4-4-4-12, as JavaScriptSerializer writes a
// Guid.
func AppendJSONGUID(b []byte, g GUID) []byte {
	b = append(b, '"')
	b = g.AppendText(b)
	return append(b, '"')
}

// JSONGUID reads a guid from a JSON string.
func JSONGUID(tok json.Token, what string) (GUID, error) {
	s, ok := tok.(string)
	if !ok {
		return GUID{}, WrongJSONType(what, "a guid string", tok)
	}
	g, ok := ParseGUID(s)
	if !ok {
		return GUID{}, BadValue(what, "guid", s)
	}
	return g, nil
}

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
