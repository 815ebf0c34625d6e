package formwire

import (
	"strconv"

	"github.com/contactsync/contactsync/server/wire/xsd"
)

// Readers and formatters of the small and unsigned types, char, [Flags] enumerations and byte[] on HTTP
// GET and POST (asmx-typezoo/shapes, README §7 and §11; xsd:byte is Int with bits 8, and sbyte[] an
// array of it, one item per value: get-EchoSBytes-items).

// Unsigned reads an xsd:unsignedByte, unsignedShort, unsignedInt or unsignedLong (bits 8, 16, 32, 64)
// with ParseUnsigned's forms, as UInt32.Parse reads them (get-Unsigned-max; -1 refused,
// get-Unsigned-ui-negative).
func Unsigned(name string, item int, v, xsdType string, bits int) (uint64, error) {
	return xsd.Unsigned(formWhat(name, item), xsdType, v, bits)
}

// Char reads a char parameter: exactly one UTF-16 code unit, as ASMX's URL reader (Char.Parse) reads
// it (get-EchoChar-letter); its number is refused there as by ASMX (get-EchoChar-65), unlike SOAP,
// which carries the number.
func Char(name string, item int, v string) (xsd.Char, error) {
	c, ok := xsd.ParseFormChar(v)
	if !ok {
		return 0, xsd.BadValue(formWhat(name, item), "char", v)
	}
	return c, nil
}

// Flags reads a [Flags] enumeration xsdType with ParseFormFlags's forms: the space list and the comma
// list; a number is refused (get-EchoPerm-comma, get-EchoPerm-numeric).
func Flags(name string, item int, v, xsdType string, members []string) (uint64, error) {
	f, ok := xsd.ParseFormFlags(v, members)
	if !ok {
		return 0, xsd.BadValue(formWhat(name, item), xsdType, v)
	}
	return f, nil
}

// Bytes reads a byte[] (xsd:base64Binary) parameter as ASMX offers it on GET and POST: one decimal
// number per byte, each a value of the parameter (data=1&data=2&data=251&data=255,
// get-EchoBytes-items); base64 is refused (get-EchoBytes-base64). No value is the empty array, where
// ASMX fails with a null reference (get-EchoBytes-absent), as for every array parameter. values is
// Form.Values(name).
func Bytes(name string, values []string) ([]byte, error) {
	b := make([]byte, len(values))
	for i, v := range values {
		n, err := xsd.Unsigned(formWhat(name, i), "unsignedByte", v, 8)
		if err != nil {
			return nil, err
		}
		b[i] = byte(n)
	}
	return b, nil
}

// FormatUint writes an unsigned value as a form value.
func FormatUint(n uint64) string { return strconv.FormatUint(n, 10) }

// FormatBytes writes a byte[] as the values of its parameter, one decimal number per byte.
func FormatBytes(b []byte) []string {
	values := make([]string, len(b))
	for i, c := range b {
		values[i] = strconv.Itoa(int(c))
	}
	return values
}

// FormatChar is a char as an HTTP GET/POST client sends it: the character itself (xsd.Char.FormValue);
// half of a surrogate pair, which UTF-8 cannot carry alone, is the empty string, which ParseFormChar
// refuses, so the server reports it rather than read another value.
func FormatChar(c xsd.Char) string {
	s, _ := c.FormValue()
	return s
}
