package server

import (
	"bytes"
	"unicode/utf8"
)

// The SOAP fast path. encoding/xml was over a third of a SOAP ReadContact's CPU time and half its
// allocations in the profile (BENCHMARKS.md), for requests that nearly always have one shape:
// an optional XML declaration, Envelope, Body, the operation wrapper and an optional id, with
// namespace declarations. fastDecodeEnvelope parses exactly that shape by hand and answers ok=false
// for anything else (a Header, comments, entities or character references, CDATA, a CR in the id,
// other children, unusual names or declarations, anything malformed), and decodeEnvelope then parses
// the document with encoding/xml as before. So the fast path never produces an error and never
// accepts a document the full decoder refuses; when it accepts one, its result is the one the full
// decoder returns (FuzzFastEnvelope checks this on arbitrary input).

// fastDecodeEnvelope is decodeEnvelope for the common shape; ok is false when the document is not of
// that shape and must go through the full decoder.
func fastDecodeEnvelope(body []byte, envNS, serviceNS string, limits Limits) (env envelope, ok bool) {
	// Envelope, Body, wrapper and id: four elements, four deep.
	if limits.MaxXMLDepth < 4 || limits.MaxXMLElements < 4 {
		return env, false
	}
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	if !onlyXMLChars(body) {
		return env, false
	}
	s := fastScanner{b: body}
	if bytes.HasPrefix(body, []byte("<?")) && !s.xmlDeclaration() {
		return env, false
	}
	s.space()
	root, selfClosing, ok := s.startTag()
	if !ok || selfClosing || !s.is(root, envNS, "Envelope") {
		return env, false
	}
	s.space()
	bodyTag, selfClosing, ok := s.startTag()
	if !ok || selfClosing || !s.is(bodyTag, envNS, "Body") {
		return env, false
	}
	s.space()
	wrapper, selfClosing, ok := s.startTag()
	if !ok {
		return env, false
	}
	space, ok := s.resolve(wrapper)
	if !ok {
		return env, false
	}
	env.wrapper.Space = internString(space, serviceNS)
	env.wrapper.Local = string(wrapper.local)
	if op := operationByBytes(wrapper.local); op != nil {
		env.wrapper.Local = op.name // no allocation for the names that matter
	}
	if !selfClosing {
		for {
			s.space()
			if s.at("</") {
				if !s.endTag(wrapper) {
					return env, false
				}
				break
			}
			if env.idSet {
				return env, false // a repeated id is an error the full decoder reports
			}
			idTag, selfClosing, ok := s.startTag()
			if !ok || selfClosing || idTag.attributes != 0 || !s.is(idTag, serviceNS, "id") {
				return env, false
			}
			text, ok := s.text()
			if !ok || !s.endTag(idTag) {
				return env, false
			}
			env.id, env.idSet = string(text), true
		}
	}
	for _, t := range []fastTag{bodyTag, root} {
		s.space()
		if !s.endTag(t) {
			return env, false
		}
	}
	s.space()
	return env, s.i == len(s.b)
}

// fastScanner reads the restricted syntax fastDecodeEnvelope accepts.
type fastScanner struct {
	b []byte
	i int
	// ns holds the namespace declarations in scope, innermost last; prefix "" is the default namespace.
	ns []fastBinding
	// nsStore is ns's initial backing array, so a request's usual three or four declarations do not
	// allocate.
	nsStore [8]fastBinding
}

type fastBinding struct{ prefix, uri []byte }

// fastTag is a start tag read: its name as written and where its declarations begin in ns.
type fastTag struct {
	prefix, local []byte
	mark          int
	attributes    int // attributes other than namespace declarations
}

func (s *fastScanner) at(prefix string) bool {
	return len(s.b)-s.i >= len(prefix) && string(s.b[s.i:s.i+len(prefix)]) == prefix
}

// space skips white space and reports how much it skipped.
func (s *fastScanner) space() int {
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return s.i - start
		}
	}
	return s.i - start
}

// xmlDeclaration accepts the XML declarations clients write for UTF-8 documents, and nothing else.
func (s *fastScanner) xmlDeclaration() bool {
	for _, decl := range []string{
		`<?xml version="1.0" encoding="utf-8"?>`, `<?xml version="1.0" encoding="UTF-8"?>`,
		`<?xml version='1.0' encoding='utf-8'?>`, `<?xml version='1.0' encoding='UTF-8'?>`,
		`<?xml version="1.0"?>`, `<?xml version='1.0'?>`,
	} {
		if s.at(decl) {
			s.i += len(decl)
			return true
		}
	}
	return false
}

// name reads an ASCII XML name with at most one colon, split into prefix and local part.
func (s *fastScanner) name() (prefix, local []byte, ok bool) {
	start, colon := s.i, -1
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case (c >= '0' && c <= '9') || c == '-' || c == '.':
			if s.i == start || s.i == colon+1 {
				return nil, nil, false // a name (or its local part) must not start with these
			}
		case c == ':':
			if colon >= 0 || s.i == start {
				return nil, nil, false
			}
			colon = s.i
		default:
			goto done
		}
		s.i++
	}
done:
	switch {
	case s.i == start || s.i == colon+1:
		return nil, nil, false
	case colon < 0:
		return nil, s.b[start:s.i], true
	default:
		return s.b[start:colon], s.b[colon+1 : s.i], true
	}
}

// startTag reads <name attributes> or <name attributes/>, bringing its namespace declarations into
// scope.
func (s *fastScanner) startTag() (t fastTag, selfClosing, ok bool) {
	if !s.at("<") {
		return t, false, false
	}
	s.i++
	if t.prefix, t.local, ok = s.name(); !ok {
		return t, false, false
	}
	if s.ns == nil {
		s.ns = s.nsStore[:0]
	}
	t.mark = len(s.ns)
	var seen [8][]byte // raw attribute names, to refuse duplicates
	count := 0
	for {
		separated := s.space() > 0
		switch {
		case s.at(">"):
			s.i++
			return t, false, true
		case s.at("/>"):
			s.i += 2
			return t, true, true
		case !separated:
			return t, false, false
		}
		nameStart := s.i
		prefix, local, ok := s.name()
		if !ok || count == len(seen) {
			return t, false, false
		}
		raw := s.b[nameStart:s.i]
		for _, other := range seen[:count] {
			if bytes.Equal(other, raw) {
				return t, false, false
			}
		}
		seen[count] = raw
		count++
		if !s.at(`="`) && !s.at(`='`) {
			return t, false, false
		}
		quote := s.b[s.i+1]
		s.i += 2
		end := bytes.IndexByte(s.b[s.i:], quote)
		if end < 0 {
			return t, false, false
		}
		value := s.b[s.i : s.i+end]
		s.i += end + 1
		for _, c := range value {
			if c == '<' || c == '&' || c < 0x20 {
				return t, false, false
			}
		}
		switch {
		case prefix == nil && string(local) == "xmlns":
			if len(value) == 0 {
				return t, false, false
			}
			s.ns = append(s.ns, fastBinding{uri: value})
		case string(prefix) == "xmlns":
			if len(value) == 0 || string(local) == "xml" || string(local) == "xmlns" {
				return t, false, false
			}
			s.ns = append(s.ns, fastBinding{prefix: local, uri: value})
		default:
			t.attributes++
		}
	}
}

// endTag reads </name> (white space allowed before >) for t and drops t's declarations from scope.
func (s *fastScanner) endTag(t fastTag) bool {
	if !s.at("</") {
		return false
	}
	s.i += 2
	prefix, local, ok := s.name()
	if !ok || !bytes.Equal(prefix, t.prefix) || !bytes.Equal(local, t.local) {
		return false
	}
	s.space()
	if !s.at(">") {
		return false
	}
	s.i++
	s.ns = s.ns[:t.mark]
	return true
}

// text reads character data up to the next '<', refusing what the full decoder would transform
// (entity and character references, CR) or reject (]]>).
func (s *fastScanner) text() ([]byte, bool) {
	end := bytes.IndexByte(s.b[s.i:], '<')
	if end < 0 {
		return nil, false
	}
	t := s.b[s.i : s.i+end]
	if bytes.IndexByte(t, '&') >= 0 || bytes.IndexByte(t, '\r') >= 0 || bytes.Contains(t, []byte("]]>")) {
		return nil, false
	}
	s.i += end
	return t, true
}

// resolve returns the namespace of t's name; ok is false for an undeclared prefix, or the xml prefix,
// which the fast path leaves to the full decoder.
func (s *fastScanner) resolve(t fastTag) ([]byte, bool) {
	for i := len(s.ns) - 1; i >= 0; i-- {
		if bytes.Equal(s.ns[i].prefix, t.prefix) {
			return s.ns[i].uri, true
		}
	}
	return nil, t.prefix == nil // no default namespace: the empty one
}

// is reports whether t is the element local in namespace ns.
func (s *fastScanner) is(t fastTag, ns, local string) bool {
	space, ok := s.resolve(t)
	return ok && string(t.local) == local && string(space) == ns
}

// internString returns b as a string, without allocating when it equals common.
func internString(b []byte, common string) string {
	if string(b) == common {
		return common
	}
	return string(b)
}

// operationByBytes is operationByName for a name held in bytes, without allocating.
func operationByBytes(name []byte) *operation {
	for i := range operations {
		if operations[i].name == string(name) {
			return &operations[i]
		}
	}
	return nil
}

// onlyXMLChars reports whether b is valid UTF-8 holding only characters XML 1.0 allows.
func onlyXMLChars(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return false
			}
			i++
			continue
		}
		r, width := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && width == 1 || !isXMLChar(r) {
			return false
		}
		i += width
	}
	return true
}
