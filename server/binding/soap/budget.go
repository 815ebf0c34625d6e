package soap

import (
	"bytes"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// The parse budget bounds the lexical structure of one SOAP request: what encoding/xml would otherwise
// allocate for without limit. Element depth and count are bounded while parsing (xmlwire.Limits'
// MaxDepth, MaxElements); the budget's bounds, the rest of xmlwire.Limits, are checked before, by
// checkXMLBudget, a pre-scan over the raw body that allocates nothing, so a hostile body (96k
// attributes, 42k namespace declarations, a 1 MB name, a flood of comments) is refused for the cost of
// reading its bytes once, instead of the ~100 ms and ~30 MB encoding/xml spent on each before (issue 14).

// DefaultLimits returns the XML limits used when none are configured. A request of this contract is a
// few hundred bytes and a dozen elements deep, with at most a handful of attributes and namespaces (the
// envelope declares three; a WS-Security header adds a few attributes and perhaps a CDATA password); the
// defaults leave a wide margin for clients that decorate their envelopes, while keeping a refused
// body's cost to one pass over its bytes.
func DefaultLimits() xmlwire.Limits {
	return xmlwire.Limits{
		MaxDepth:           32,
		MaxElements:        1000,
		MaxAttrsPerElement: 32,
		MaxAttrs:           256,
		MaxNamespaces:      64,
		MaxNameBytes:       256,
		MaxAttrValueBytes:  4096,
		MaxSpecialTokens:   64,
		MaxSpecialBytes:    64 << 10,
	}
}

// checkXMLBudget refuses, with TooLarge, a body whose lexical structure exceeds b. It neither
// parses nor validates: where the body stops being lexically sound XML (an unquoted attribute value,
// an unterminated comment, a DOCTYPE) it stops and accepts, because encoding/xml refuses the body at
// that point, never reading past it, so nothing after it can cost anything. A body it accepts is
// thus within b up to wherever the real parser will stop. It allocates nothing unless it refuses.
func checkXMLBudget(body []byte, b xmlwire.Limits) *fault.Error {
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
func scanXML(body []byte, b xmlwire.Limits) (s xmlStats, err *fault.Error) {
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
			k := xmlNameEnd(body, i+1, b.MaxNameBytes)
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
			k := xmlNameEnd(body, i, b.MaxNameBytes)
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
				k := xmlNameEnd(body, i, b.MaxNameBytes)
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
					if end > b.MaxAttrValueBytes {
						return s, fault.Errorf(fault.TooLarge, "The XML has an attribute value longer than %d bytes.", b.MaxAttrValueBytes)
					}
				}
				if isNamespaceDeclaration(name) {
					s.namespaces++
					if s.namespaces > b.MaxNamespaces {
						return s, fault.Errorf(fault.TooLarge, "The XML declares more than %d namespaces.", b.MaxNamespaces)
					}
				} else {
					s.attrs++
					perElement++
					s.maxAttrsPerElement = max(s.maxAttrsPerElement, perElement)
					if perElement > b.MaxAttrsPerElement {
						return s, fault.Errorf(fault.TooLarge, "An XML element has more than %d attributes.", b.MaxAttrsPerElement)
					}
					if s.attrs > b.MaxAttrs {
						return s, fault.Errorf(fault.TooLarge, "The XML has more than %d attributes.", b.MaxAttrs)
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

func (s *xmlStats) name(length int, b xmlwire.Limits) *fault.Error {
	if length > s.maxName {
		s.maxName = length
		if length > b.MaxNameBytes {
			return fault.Errorf(fault.TooLarge, "The XML has a name longer than %d bytes.", b.MaxNameBytes)
		}
	}
	return nil
}

func (s *xmlStats) special(length int, b xmlwire.Limits) *fault.Error {
	s.specialTokens++
	s.specialBytes += length
	switch {
	case s.specialTokens > b.MaxSpecialTokens:
		return fault.Errorf(fault.TooLarge, "The XML has more than %d comments, processing instructions and CDATA sections.", b.MaxSpecialTokens)
	case s.specialBytes > b.MaxSpecialBytes:
		return fault.Errorf(fault.TooLarge, "The XML has more than %d bytes in comments, processing instructions and CDATA sections.", b.MaxSpecialBytes)
	}
	return nil
}
