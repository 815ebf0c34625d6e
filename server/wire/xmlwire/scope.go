package xmlwire

import "encoding/xml"

// NS is a namespace declaration: Prefix "" is the default namespace. InScope, LookupPrefix and
// RawContent serve the readers of open content (xsi:type values, raw XML: server/wire/xmlany).
type NS struct{ Prefix, URI string }

// NSXML is the namespace the prefix xml is bound to without a declaration.
const NSXML = "http://www.w3.org/XML/1998/namespace"

// pushScope brings a full-mode start element's declarations into scope.
func (r *Reader) pushScope(t xml.StartElement) {
	r.fmark = append(r.fmark, len(r.fns))
	for _, a := range t.Attr {
		if a.Name.Space == "xmlns" {
			r.fns = append(r.fns, NS{a.Name.Local, a.Value})
		} else if a.Name == (xml.Name{Local: "xmlns"}) {
			r.fns = append(r.fns, NS{"", a.Value})
		}
	}
}

// InScope appends to dst the namespace declarations in scope at the element whose start was just
// returned, its own included, outermost first: a prefix declared again appears again, the later in
// force. Full mode only, as RawContent, which it serves: in fast mode it appends nothing.
func (r *Reader) InScope(dst []NS) []NS {
	if r.fast {
		return dst
	}
	return append(dst, r.fns...)
}

// LookupPrefix returns the namespace prefix ("" the default, "" when undeclared) is bound to at the
// element whose start was just returned, ok false if undeclared. Fast mode: call before the next read.
func (r *Reader) LookupPrefix(prefix string) (uri string, ok bool) {
	if prefix == "xml" {
		return NSXML, true
	}
	if r.fast {
		b, ok := r.lookup([]byte(prefix))
		return string(b), ok
	}
	for i := len(r.fns) - 1; i >= 0; i-- {
		if r.fns[i].Prefix == prefix {
			return r.fns[i].URI, true
		}
	}
	return "", prefix == ""
}

// TypeAttr returns the xsi:type value of s (just returned) as sent, if any. Fast mode, which keeps no
// attribute values, steps aside (ErrFallback) for an element with a prefixed type attribute; call it
// before the next read.
func (r *Reader) TypeAttr(s Start) (string, bool, error) {
	if r.fast {
		if r.typAt == r.elements && r.typAt > 0 {
			return "", false, ErrFallback
		}
		return "", false, nil
	}
	v, ok := s.Attr(NSXSI, "type")
	return v, ok, nil
}

// RawContent reads the rest of the element whose start was just returned, up to its end tag, with the
// limits enforced, and returns its content as it stands in the document: the bytes between the start
// and the end tag, empty for <x/>. They are the document's: copy them before the Reader is reused.
// Fast mode steps aside (ErrFallback): open content is rare, and the full decoder checks all of it.
func (r *Reader) RawContent() ([]byte, error) {
	if r.fast {
		return nil, ErrFallback
	}
	start := r.d.InputOffset()
	for depth := 0; ; {
		end := r.d.InputOffset()
		tok, err := r.token()
		if err != nil {
			return nil, err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth == 0 {
				return r.src[start:end], nil
			}
			depth--
		}
	}
}
