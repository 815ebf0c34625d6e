// Package xmlchars holds what XML 1.0 allows as characters (XML 1.0 §2.2): the check the XML reader
// makes of character data and the escaping its writer applies. It imports the standard library only.
package xmlchars

import (
	"encoding/binary"
	"unicode/utf8"
)

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

// Valid reports whether b is valid UTF-8 holding only characters XML 1.0 allows. Eight bytes
// of printable ASCII, the bulk of every request, are checked at once.
func Valid(b []byte) bool {
	const (
		high = 0x8080808080808080 // the top bit of each byte
		low  = 0x2020202020202020 // 0x20 in each byte
	)
	for i := 0; i < len(b); {
		if len(b)-i >= 8 {
			w := binary.LittleEndian.Uint64(b[i:])
			// No byte has its top bit set, and no byte is below 0x20: subtracting 0x20 from each
			// byte borrows into a top bit exactly where a byte was below 0x20.
			if w&high == 0 && (w-low)&high == 0 {
				i += 8
				continue
			}
		}
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return false
			}
			i++
			continue
		}
		r, width := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && width == 1 || !IsXMLChar(r) {
			return false
		}
		i += width
	}
	return true
}
