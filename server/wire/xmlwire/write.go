package xmlwire

import (
	"encoding/base64"
	"strconv"
	"unicode/utf8"

	"github.com/contactsync/contactsync/server/wire/xsd"
)

// Namespaces the wire format uses (XML Schema Part 1 §3.2.7, §2.6).
const (
	NSXSI = "http://www.w3.org/2001/XMLSchema-instance"
	NSXSD = "http://www.w3.org/2001/XMLSchema"
)

// XMLDeclaration starts every document the service writes, as ASMX writes it.
const XMLDeclaration = `<?xml version="1.0" encoding="utf-8"?>` + "\n"

// AppendEscaped appends s as XML character data or attribute content. It escapes the three characters
// that can end or confuse markup in either place (&, <, >), the double quote (attributes are written
// with double quotes), and CR, which XML parsers would otherwise normalise to LF. Characters XML 1.0
// cannot carry at all, and invalid UTF-8, become U+FFFD rather than producing a document no client can
// parse.
func AppendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, width := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && width == 1) || !IsXMLChar(r) {
				b = append(b, s[last:i]...)
				b = append(b, "\uFFFD"...)
				i += width
				last = i
				continue
			}
			i += width
			continue
		}
		var esc string
		switch {
		case c == '&':
			esc = "&amp;"
		case c == '<':
			esc = "&lt;"
		case c == '>':
			esc = "&gt;"
		case c == '"':
			esc = "&quot;"
		case c == '\r':
			esc = "&#xD;"
		case c < 0x20 && c != '\t' && c != '\n':
			esc = "\uFFFD"
		default:
			i++
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, esc...)
		i++
		last = i
	}
	return append(b, s[last:]...)
}

// IsXMLChar reports whether r may appear in an XML 1.0 document (XML 1.0 §2.2, production Char).
func IsXMLChar(r rune) bool {
	switch {
	case r == 0x09 || r == 0x0A || r == 0x0D:
		return true
	case r >= 0x20 && r <= 0xD7FF:
		return true
	case r >= 0xE000 && r <= 0xFFFD:
		return true
	case r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// AppendStart appends <name>.
func AppendStart(b []byte, name string) []byte {
	b = append(b, '<')
	b = append(b, name...)
	return append(b, '>')
}

// AppendEnd appends </name>.
func AppendEnd(b []byte, name string) []byte {
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

// appendEmpty appends <name />, the form ASMX writes for an empty element.
func appendEmpty(b []byte, name string) []byte {
	b = append(b, '<')
	b = append(b, name...)
	return append(b, " />"...)
}

// AppendNil appends <name xsi:nil="true" />: a nillable element holding no value. The xsi prefix is
// declared on every document root the service writes.
func AppendNil(b []byte, name string) []byte {
	b = append(b, '<')
	b = append(b, name...)
	return append(b, ` xsi:nil="true" />`...)
}

// AppendString appends <name>s</name>, or <name /> when s is empty.
func AppendString(b []byte, name, s string) []byte {
	if s == "" {
		return appendEmpty(b, name)
	}
	b = AppendStart(b, name)
	b = AppendEscaped(b, s)
	return AppendEnd(b, name)
}

// AppendInt appends <name>n</name> for the XSD integer types (int, long, short).
func AppendInt(b []byte, name string, n int64) []byte {
	b = AppendStart(b, name)
	b = strconv.AppendInt(b, n, 10)
	return AppendEnd(b, name)
}

// AppendBool appends <name>true</name> or <name>false</name>.
func AppendBool(b []byte, name string, v bool) []byte {
	b = AppendStart(b, name)
	b = strconv.AppendBool(b, v)
	return AppendEnd(b, name)
}

// AppendDouble appends <name>f</name> in .NET's round-trip form (see AppendDoubleValue).
func AppendDouble(b []byte, name string, f float64) []byte {
	b = AppendStart(b, name)
	b = xsd.AppendDouble(b, f)
	return AppendEnd(b, name)
}

// AppendFloat appends <name>f</name> in .NET's round-trip form for xsd:float.
func AppendFloat(b []byte, name string, f float32) []byte {
	b = AppendStart(b, name)
	b = xsd.AppendFloat(b, f)
	return AppendEnd(b, name)
}

// AppendBase64 appends <name>base64</name> (standard alphabet, padded, no line breaks), or <name />
// for an empty value. A nil slice is an absent element, which the generated code handles.
func AppendBase64(b []byte, name string, v []byte) []byte {
	if len(v) == 0 {
		return appendEmpty(b, name)
	}
	b = AppendStart(b, name)
	b = base64.StdEncoding.AppendEncode(b, v)
	return AppendEnd(b, name)
}

// AppendDateTime appends <name>dateTime</name> (see DateTime.AppendText).
func AppendDateTime(b []byte, name string, v xsd.DateTime) []byte {
	b = AppendStart(b, name)
	b = v.AppendText(b)
	return AppendEnd(b, name)
}

// Content is a value that writes an element's content: the generated complex types and wrappers
// (every wire.Message is one).
type Content interface {
	// AppendXML appends the element's children in schema order.
	AppendXML(b []byte) []byte
}

// AppendComplex appends <name>content</name> with m's content, or <name /> when m writes none.
func AppendComplex(b []byte, name string, m Content) []byte {
	b = append(b, '<')
	b = append(b, name...)
	mark := len(b)
	b = append(b, '>')
	n := len(b)
	b = m.AppendXML(b)
	if len(b) == n {
		return append(b[:mark], " />"...)
	}
	return AppendEnd(b, name)
}
