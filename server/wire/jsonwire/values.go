package jsonwire

import (
	"strconv"

	"github.com/contactsync/contactsync/server/wire/xsd"
)

// AppendDecimal appends d as a JSON number in its lexical form, scale kept, as ASP.NET's
// JavaScriptSerializer writes a decimal (1.10, not 1.1).
func AppendDecimal(b []byte, d xsd.Decimal) []byte { return d.AppendText(b) }

// Decimal reads an xsd:decimal from a JSON number, or from a string holding one (which keeps
// digits a JavaScript number would round, as JavaScriptSerializer also accepts). The lexical rules
// are ParseDecimal's: a number in exponent form is refused.
func Decimal(tok Token, what string) (xsd.Decimal, error) {
	if tok.kind != '0' && tok.kind != '"' {
		return xsd.Decimal{}, WrongType(what, "a number", tok)
	}
	text := tok.text
	d, ok := xsd.ParseDecimal(text)
	if !ok {
		return xsd.Decimal{}, xsd.BadValue(what, "decimal", text)
	}
	return d, nil
}

// AppendGUID appends g as a JSON string, lower case 8-4-4-4-12, as JavaScriptSerializer writes a
// Guid.
func AppendGUID(b []byte, g xsd.GUID) []byte {
	b = append(b, '"')
	b = g.AppendText(b)
	return append(b, '"')
}

// GUID reads a guid from a JSON string.
func GUID(tok Token, what string) (xsd.GUID, error) {
	if tok.kind != '"' {
		return xsd.GUID{}, WrongType(what, "a guid string", tok)
	}
	s := tok.text
	g, ok := xsd.ParseGUID(s)
	if !ok {
		return xsd.GUID{}, xsd.BadValue(what, "guid", s)
	}
	return g, nil
}

// Message is implemented by the generated wrapper and complex types for the JSON endpoint.
type Message interface {
	// AppendJSON appends the value as a JSON object (an array for ArrayOfX types).
	AppendJSON(b []byte) []byte
	// DecodeJSON reads the value whose opening '{' (or '[') was just read, up to its end.
	DecodeJSON(r *Reader) error
}

// Unsigned reads an unsignedByte, unsignedShort, unsignedInt or unsignedLong (bits 8, 16, 32, 64)
// from a JSON number in plain digits, as Int reads the signed types, exact to 18446744073709551615
// (no float64 on the way). A minus sign is refused, -0 included. ASMX's char travels as a number on
// the JSON endpoint too (Unsigned with bits 16): a guess written down in docs/xsd-types.md, there
// being no capture of ASP.NET AJAX's form.
func Unsigned(tok Token, what, xsdType string, bits int) (uint64, error) {
	if tok.kind != '0' {
		return 0, WrongType(what, "a number", tok)
	}
	n, err := strconv.ParseUint(tok.text, 10, bits)
	if err != nil {
		return 0, xsd.BadValue(what, xsdType, tok.text)
	}
	return n, nil
}
