package xmlwire

import (
	"encoding/xml"
	"strings"
)

// Attributes of a complex type ([XmlAttribute], shapes README §11): the generated decoder of a type
// with attributes reads them from its element's start (PlainAttrs), and its encoder adds them to the
// start tag its caller has just written (ReopenStart), so every caller of AppendXML stays as it is.

// PlainAttrs returns the attributes of s (just returned), for a decoder of a type with attributes to
// pick the unqualified ones it knows; call it before the next read. Fast mode, which keeps no
// attribute values, steps aside (ErrFallback) for an element with an unqualified attribute, so a
// document without attributes (today's contract) is still read without allocating.
func (r *Reader) PlainAttrs(s Start) ([]xml.Attr, error) {
	if r.fast {
		if r.plainAt == r.elements && r.plainAt > 0 {
			return nil, ErrFallback
		}
		return nil, nil
	}
	return s.attrs, nil
}

// ReopenStart removes the '>' that ends the start tag b ends with, so attributes can be appended
// before the caller's content; the encoder appends '>' after them. ok is false when b does not end
// with an open start tag (an empty element "/>", or no tag at all), and b is then returned unchanged.
func ReopenStart(b []byte) (_ []byte, ok bool) {
	if len(b) == 0 || b[len(b)-1] != '>' || len(b) > 1 && (b[len(b)-2] == '/' || b[len(b)-2] == '?') {
		return b, false
	}
	return b[:len(b)-1], true
}

// AppendAttrValue appends s escaped for an attribute value in double quotes: as AppendEscaped, and a
// tab or line feed as a character reference, as .NET writes them, since an XML reader normalises a
// literal one in an attribute value to a space (XML 1.0 §3.3.3).
func AppendAttrValue(b []byte, s string) []byte {
	for {
		i := strings.IndexAny(s, "\t\n")
		if i < 0 {
			return AppendEscaped(b, s)
		}
		b = AppendEscaped(b, s[:i])
		if s[i] == '\t' {
			b = append(b, "&#x9;"...)
		} else {
			b = append(b, "&#xA;"...)
		}
		s = s[i+1:]
	}
}
