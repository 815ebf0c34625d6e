package server

import (
	"strconv"
	"unicode/utf8"

	"github.com/contactsync/contactsync/gen"
)

// Namespaces the wire format uses (SOAP 1.1 §4.1.1; SOAP 1.2 Part 1 §5.1; XML Schema Part 1 §3.2.7).
const (
	nsSOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
	nsSOAP12 = "http://www.w3.org/2003/05/soap-envelope"
	nsXSI    = "http://www.w3.org/2001/XMLSchema-instance"
	nsXSD    = "http://www.w3.org/2001/XMLSchema"
)

const xmlDeclaration = `<?xml version="1.0" encoding="utf-8"?>` + "\n"

// appendEscaped appends s as XML character data or attribute content. It escapes the three characters
// that can end or confuse markup in either place (&, <, >), the double quote (attributes are written
// with double quotes), and CR, which XML parsers would otherwise normalise to LF. Characters XML 1.0
// cannot carry at all, and invalid UTF-8, become U+FFFD rather than producing a document no client can
// parse.
func appendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == '&':
			esc = "&amp;"
		case r == '<':
			esc = "&lt;"
		case r == '>':
			esc = "&gt;"
		case r == '"':
			esc = "&quot;"
		case r == '\r':
			esc = "&#xD;"
		case r == utf8.RuneError && width == 1, !isXMLChar(r):
			esc = "\uFFFD"
		default:
			i += width
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, esc...)
		i += width
		last = i
	}
	return append(b, s[last:]...)
}

// isXMLChar reports whether r may appear in an XML 1.0 document (XML 1.0 §2.2, production Char).
func isXMLChar(r rune) bool {
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

// appendElement appends <name>escaped text</name>.
func appendElement(b []byte, name, text string) []byte {
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, '>')
	b = appendEscaped(b, text)
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

// appendContactFields appends the Contact's child elements in the schema's order. The elements are
// unqualified in the text but inherit the service namespace from their parent's default namespace
// declaration, as elementFormDefault="qualified" requires.
func appendContactFields(b []byte, c *gen.Contact) []byte {
	b = appendElement(b, "Id", c.Id)
	b = appendElement(b, "AccountId", c.AccountId)
	b = appendElement(b, "FirstName", c.FirstName)
	b = appendElement(b, "LastName", c.LastName)
	b = appendElement(b, "PhoneMobile", c.PhoneMobile)
	b = appendElement(b, "PhoneWork", c.PhoneWork)
	b = appendElement(b, "EmailAddress", c.EmailAddress)
	if c.RoleIds == nil {
		return b
	}
	b = append(b, "<RoleIds>"...)
	for _, role := range c.RoleIds.Astring {
		if role == nil {
			b = append(b, `<string xsi:nil="true" />`...)
			continue
		}
		b = appendElement(b, "string", *role)
	}
	return append(b, "</RoleIds>"...)
}

// appendResultValue appends the content of a result element of the given kind.
func appendResultValue(b []byte, kind resultKind, r result) []byte {
	switch kind {
	case resultContact:
		return appendContactFields(b, r.contact)
	case resultString:
		return appendEscaped(b, r.text)
	default:
		return strconv.AppendInt(b, int64(r.number), 10)
	}
}
