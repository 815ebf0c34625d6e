package xmlwire

import (
	"encoding/base64"
	"strconv"

	"github.com/contactsync/contactsync/server/wire/internal/xmlchars"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// Namespaces the wire format uses (XML Schema Part 1 §3.2.7, §2.6).
const (
	NSXSI = "http://www.w3.org/2001/XMLSchema-instance"
	NSXSD = "http://www.w3.org/2001/XMLSchema"
)

// XMLDeclaration starts every document the service writes, as ASMX writes it.
const XMLDeclaration = `<?xml version="1.0" encoding="utf-8"?>` + "\n"

// AppendEscaped appends s as XML character data or attribute content (xmlchars.AppendEscaped).
func AppendEscaped(b []byte, s string) []byte { return xmlchars.AppendEscaped(b, s) }

// IsXMLChar reports whether r may appear in an XML 1.0 document (XML 1.0 §2.2, production Char).
func IsXMLChar(r rune) bool { return xmlchars.IsXMLChar(r) }

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
