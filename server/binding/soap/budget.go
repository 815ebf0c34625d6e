package soap

import (
	"bytes"

	"github.com/contactsync/contactsync/server/fault"
)

// XMLBudget bounds the lexical structure of one SOAP request: what encoding/xml would otherwise
// allocate for without limit. Element depth and count are bounded while parsing (MaxXMLDepth,
// MaxXMLElements); these bounds are checked before, by checkXMLBudget, a pre-scan over the raw body
// that allocates nothing, so a hostile body (96k attributes, 42k namespace declarations, a 1 MB
// name, a flood of comments) is refused for the cost of reading its bytes once, instead of the
// ~100 ms and ~30 MB encoding/xml spent on each before (issue 14). Zero fields take their defaults.
type XMLBudget struct {
	// MaxXMLAttrsPerElement is the most attributes one element may carry, namespace declarations
	// not counted.
	MaxXMLAttrsPerElement int
	// MaxXMLAttrs is the most attributes in the whole request, namespace declarations not counted.
	MaxXMLAttrs int
	// MaxXMLNamespaces is the most namespace declarations (xmlns, xmlns:p) in the whole request.
	MaxXMLNamespaces int
	// MaxXMLNameBytes is the longest element or attribute name, prefix included, in bytes.
	MaxXMLNameBytes int
	// MaxXMLAttrValueBytes is the longest attribute value (namespace URIs included), in bytes as sent.
	MaxXMLAttrValueBytes int
	// MaxXMLSpecialTokens is the most comments, processing instructions and CDATA sections in the
	// request; the XML declaration at its start is not counted.
	MaxXMLSpecialTokens int
	// MaxXMLSpecialBytes is the most bytes inside all comments, processing instructions and CDATA
	// sections of the request together.
	MaxXMLSpecialBytes int
}

// DefaultXMLBudget returns the budget used when none is configured. A request of this contract has
// at most a handful of each (the envelope declares three namespaces; a WS-Security header adds a few
// attributes and perhaps a CDATA password); the defaults leave a wide margin for clients that
// decorate their envelopes, while keeping a refused body's cost to one pass over its bytes.
func DefaultXMLBudget() XMLBudget {
	return XMLBudget{
		MaxXMLAttrsPerElement: 32,
		MaxXMLAttrs:           256,
		MaxXMLNamespaces:      64,
		MaxXMLNameBytes:       256,
		MaxXMLAttrValueBytes:  4096,
		MaxXMLSpecialTokens:   64,
		MaxXMLSpecialBytes:    64 << 10,
	}
}

// WithDefaults fills every zero (or negative) field of b from DefaultXMLBudget.
func (b XMLBudget) WithDefaults() XMLBudget {
	d := DefaultXMLBudget()
	for _, f := range []struct{ v, d *int }{
		{&b.MaxXMLAttrsPerElement, &d.MaxXMLAttrsPerElement},
		{&b.MaxXMLAttrs, &d.MaxXMLAttrs},
		{&b.MaxXMLNamespaces, &d.MaxXMLNamespaces},
		{&b.MaxXMLNameBytes, &d.MaxXMLNameBytes},
		{&b.MaxXMLAttrValueBytes, &d.MaxXMLAttrValueBytes},
		{&b.MaxXMLSpecialTokens, &d.MaxXMLSpecialTokens},
		{&b.MaxXMLSpecialBytes, &d.MaxXMLSpecialBytes},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return b
}

// checkXMLBudget refuses, with TooLarge, a body whose lexical structure exceeds b. It neither
// parses nor validates: where the body stops being lexically sound XML (an unquoted attribute value,
// an unterminated comment, a DOCTYPE) it stops and accepts, because encoding/xml refuses the body at
// that point, never reading past it, so nothing after it can cost anything. A body it accepts is
// thus within b up to wherever the real parser will stop. It allocates nothing unless it refuses.
func checkXMLBudget(body []byte, b XMLBudget) *fault.Error {
	_, err := scanXML(body, b)
	return err
}

// xmlStats is what scanXML counted, up to where it stopped.
type xmlStats struct {
	attrs, namespaces, specialTokens, specialBytes int
	maxAttrsPerElement, maxName, maxAttrValue      int
}

// xmlNameStop marks the bytes that end a name: XML white space and the delimiters around names. No
// byte of it can occur in an XML name, so a name scanned with it is never shorter than the name
// encoding/xml reads; bytes from 0x80 up (UTF-8 name characters) continue a name.
var xmlNameStop = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n=<>/?\"'!") {
		t[c] = true
	}
	return t
}()

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// scanXML walks body's lexical structure (text, start and end tags with quoted attribute values,
// comments, processing instructions, CDATA sections) and counts what b bounds, refusing at the first
// limit exceeded. The states are implicit in the position: text until '<', then one construct read
// to its end with bytes.Index, so a '<' or '>' inside a comment, a CDATA section, a processing
// instruction or a quoted attribute value is never taken for markup.
func scanXML(body []byte, b XMLBudget) (s xmlStats, err *fault.Error) {
	b = b.WithDefaults()
	n := len(body)
	i := 0
	// The XML declaration at the very start (after an optional byte order mark) is not counted;
	// later <?xml …?> are ordinary processing instructions here, as a flood of them must count.
	declAt := 0
	if bytes.HasPrefix(body, []byte("\xEF\xBB\xBF")) {
		declAt = 3
	}
	for {
		j := bytes.IndexByte(body[i:], '<')
		if j < 0 || i+j+1 >= n {
			return s, nil
		}
		lt := i + j // the '<'
		i = lt + 1
		switch c := body[i]; c {
		case '/': // end tag: </name S? >
			k := xmlNameEnd(body, i+1, b.MaxXMLNameBytes)
			if k == i+1 {
				return s, nil
			}
			if err := s.name(k-i-1, b); err != nil {
				return s, err
			}
			for k < n && isXMLSpace(body[k]) {
				k++
			}
			if k >= n || body[k] != '>' {
				return s, nil
			}
			i = k + 1
		case '?': // processing instruction: <?target … ?>
			// The target is not checked as a name: encoding/xml ends it at the first byte that is not
			// a name character, where this scan cannot tell; the whole instruction counts as content.
			end := bytes.Index(body[i+1:], []byte("?>"))
			if end < 0 {
				return s, nil
			}
			if lt != declAt || !isXMLDeclaration(body[i+1:i+1+end]) {
				if err := s.special(end, b); err != nil {
					return s, err
				}
			}
			i = i + 1 + end + 2
		case '!':
			switch {
			case bytes.HasPrefix(body[i:], []byte("!--")):
				// A comment ends at its first "--", which must be followed by '>' (XML 1.0 §2.5).
				start := i + 3
				end := bytes.Index(body[start:], []byte("--"))
				if end < 0 || start+end+2 >= n || body[start+end+2] != '>' {
					return s, nil
				}
				if err := s.special(end, b); err != nil {
					return s, err
				}
				i = start + end + 3
			case bytes.HasPrefix(body[i:], []byte("![CDATA[")):
				start := i + 8
				end := bytes.Index(body[start:], []byte("]]>"))
				if end < 0 {
					return s, nil
				}
				if err := s.special(end, b); err != nil {
					return s, err
				}
				i = start + end + 3
			default:
				// DOCTYPE or another declaration: every one is refused by the decoder when it reaches
				// it (limitedDecoder.token), so nothing after it is ever parsed.
				return s, nil
			}
		default: // start tag: <name (S attr S? = S? "value")* S? /? >
			k := xmlNameEnd(body, i, b.MaxXMLNameBytes)
			if k == i {
				return s, nil
			}
			if err := s.name(k-i, b); err != nil {
				return s, err
			}
			i = k
			perElement := 0
		attributes:
			for {
				for i < n && isXMLSpace(body[i]) {
					i++
				}
				if i >= n {
					return s, nil
				}
				switch body[i] {
				case '>':
					i++
					break attributes
				case '/':
					if i+1 >= n || body[i+1] != '>' {
						return s, nil
					}
					i += 2
					break attributes
				}
				k := xmlNameEnd(body, i, b.MaxXMLNameBytes)
				if k == i {
					return s, nil
				}
				name := body[i:k]
				if err := s.name(k-i, b); err != nil {
					return s, err
				}
				for k < n && isXMLSpace(body[k]) {
					k++
				}
				if k >= n || body[k] != '=' {
					return s, nil
				}
				k++
				for k < n && isXMLSpace(body[k]) {
					k++
				}
				if k >= n || (body[k] != '"' && body[k] != '\'') {
					return s, nil
				}
				end := bytes.IndexByte(body[k+1:], body[k])
				if end < 0 {
					return s, nil
				}
				if end > s.maxAttrValue {
					s.maxAttrValue = end
					if end > b.MaxXMLAttrValueBytes {
						return s, fault.Errorf(fault.TooLarge, "The XML has an attribute value longer than %d bytes.", b.MaxXMLAttrValueBytes)
					}
				}
				if isNamespaceDeclaration(name) {
					s.namespaces++
					if s.namespaces > b.MaxXMLNamespaces {
						return s, fault.Errorf(fault.TooLarge, "The XML declares more than %d namespaces.", b.MaxXMLNamespaces)
					}
				} else {
					s.attrs++
					perElement++
					s.maxAttrsPerElement = max(s.maxAttrsPerElement, perElement)
					if perElement > b.MaxXMLAttrsPerElement {
						return s, fault.Errorf(fault.TooLarge, "An XML element has more than %d attributes.", b.MaxXMLAttrsPerElement)
					}
					if s.attrs > b.MaxXMLAttrs {
						return s, fault.Errorf(fault.TooLarge, "The XML has more than %d attributes.", b.MaxXMLAttrs)
					}
				}
				i = k + 1 + end + 1
			}
		}
	}
}

// isXMLDeclaration reports whether the inside of a processing instruction has the target xml, as
// encoding/xml reads a target: up to the first byte that cannot continue a name.
func isXMLDeclaration(inside []byte) bool {
	rest, ok := bytes.CutPrefix(inside, []byte("xml"))
	if !ok || len(rest) == 0 {
		return ok
	}
	c := rest[0]
	nameByte := c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ':' || c == '.' || c == '-'
	return !nameByte
}

// xmlNameEnd returns the index just past the name starting at i (i itself when there is none), or
// past its first limit+1 bytes when it is longer, which is enough to refuse it.
func xmlNameEnd(body []byte, i, limit int) int {
	end := len(body)
	if limit < end-i {
		end = i + limit + 1
	}
	for i < end && !xmlNameStop[body[i]] {
		i++
	}
	return i
}

// isNamespaceDeclaration reports whether an attribute name declares a namespace, as encoding/xml
// reads it: xmlns itself, or the prefix xmlns with a non-empty local part.
func isNamespaceDeclaration(name []byte) bool {
	if string(name) == "xmlns" {
		return true
	}
	local, ok := bytes.CutPrefix(name, []byte("xmlns:"))
	return ok && len(local) > 0 && bytes.IndexByte(local, ':') < 0
}

func (s *xmlStats) name(length int, b XMLBudget) *fault.Error {
	if length > s.maxName {
		s.maxName = length
		if length > b.MaxXMLNameBytes {
			return fault.Errorf(fault.TooLarge, "The XML has a name longer than %d bytes.", b.MaxXMLNameBytes)
		}
	}
	return nil
}

func (s *xmlStats) special(length int, b XMLBudget) *fault.Error {
	s.specialTokens++
	s.specialBytes += length
	switch {
	case s.specialTokens > b.MaxXMLSpecialTokens:
		return fault.Errorf(fault.TooLarge, "The XML has more than %d comments, processing instructions and CDATA sections.", b.MaxXMLSpecialTokens)
	case s.specialBytes > b.MaxXMLSpecialBytes:
		return fault.Errorf(fault.TooLarge, "The XML has more than %d bytes in comments, processing instructions and CDATA sections.", b.MaxXMLSpecialBytes)
	}
	return nil
}
