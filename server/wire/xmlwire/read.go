package xmlwire

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"sync"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/internal/xmlchars"
)

// Limits bound what one XML document may cost. The Reader enforces MaxDepth and MaxElements in both
// modes. The lexical bounds below them apply to fast mode only, where zero means none: beyond any of
// them it steps aside (ErrFallback) as it does for any unusual document. The SOAP binding checks the
// same fields, and the two on comments, processing instructions and CDATA that no Reader counts, in its
// parse budget before the full decoder runs (binding/soap, budget.go); since the fast reader is held to
// the budget's own values, a document it accepts is within the budget, and the budget needs checking
// only when fast mode steps aside. The server's limits tree (server.Limits) holds one Limits for every
// XML request; the JSON endpoint takes its MaxDepth too.
type Limits struct {
	// MaxDepth is the deepest element nesting accepted.
	MaxDepth int
	// MaxElements is the most elements accepted.
	MaxElements int

	// MaxAttrsPerElement is the most attributes of one element, namespace declarations not counted.
	MaxAttrsPerElement int
	// MaxAttrs is the most attributes in the document, namespace declarations not counted.
	MaxAttrs int
	// MaxNamespaces is the most namespace declarations (xmlns, xmlns:p) in the document.
	MaxNamespaces int
	// MaxNameBytes is the longest element or attribute name, prefix included, in bytes.
	MaxNameBytes int
	// MaxAttrValueBytes is the longest attribute value (namespace URIs included), in bytes as sent.
	MaxAttrValueBytes int

	// MaxSpecialTokens is the most comments, processing instructions and CDATA sections in the
	// document, the XML declaration at its start not counted; MaxSpecialBytes the most bytes inside
	// them all together. Fast mode steps aside at the first of them, so only the SOAP binding's parse
	// budget counts them.
	MaxSpecialTokens int
	MaxSpecialBytes  int
}

// over reports whether n exceeds the bound limit, zero meaning no bound.
func over(n, limit int) bool { return limit > 0 && n > limit }

// ErrFallback is returned by a Reader in fast mode when the document leaves the shape the fast path
// handles. The caller discards what it decoded and decodes the same bytes again with NewReader(…,
// false), which accepts every well-formed document and decides every error.
var ErrFallback = errors.New("wire: the document needs the full decoder")

// Reader reads an XML document element by element for the generated decoders. It has two modes with
// one API:
//
//   - Fast mode parses the common shape of a request by hand, without encoding/xml: an optional XML
//     declaration, elements with ASCII names and simple attributes (namespace declarations, xsi:nil,
//     others ignored), white space and text without references, CR or CDATA. Anything else, and every error, makes it return
//     ErrFallback; it never reports an error of its own and never accepts what full mode refuses.
//   - Full mode reads every well-formed document with encoding/xml (strict, UTF-8 only, DOCTYPE refused)
//     and reports every error as a *fault.Error.
//
// Both enforce Limits. FuzzReaderModes holds the two to each other: when fast mode decodes a document,
// full mode decodes it to the same value.
type Reader struct {
	ns     string // the service namespace: elements outside it are not the contract's
	limits Limits
	fast   bool

	depth, elements int
	// attrs and decls count fast mode's attributes and namespace declarations (Limits).
	attrs, decls int
	// misplaced records local names of elements skipped because they were outside the service
	// namespace, so a decoder can say "must be in the namespace" instead of "is required".
	misplaced []string

	// Fast mode.
	b       []byte
	i       int
	scope   []nsBinding // namespace declarations in scope, innermost last
	open    []openTag   // elements open, innermost last
	pending bool        // the innermost open element was self-closing: its end is next
	typAt   int         // the number of the last element with a prefixed type attribute (TypeAttr)
	plainAt int         // the number of the last element with an unqualified attribute (PlainAttrs)
	store   [8]nsBinding
	opens   [8]openTag

	// Full mode: the decoder, the document (for RawContent), and the namespace declarations in scope,
	// innermost last, with len(fns) before each open element's own (InScope, LookupPrefix).
	d     *xml.Decoder
	src   []byte
	fns   []NS
	fmark []int
}

type nsBinding struct{ prefix, uri []byte }

type openTag struct {
	prefix, local []byte
	mark          int // len(scope) before the tag's declarations
}

// Start is an element start returned by Root or Child.
type Start struct {
	inNS bool
	nil  bool
	// Fast mode keeps the name as bytes of the document (no allocation); full mode as strings.
	local []byte
	name  xml.Name
	attrs []xml.Attr
}

// Is reports whether the element is {service namespace}local.
func (s Start) Is(local string) bool {
	if !s.inNS {
		return false
	}
	if s.local != nil {
		return string(s.local) == local
	}
	return s.name.Local == local
}

// Nil reports whether the element carries xsi:nil="true" (or "1").
func (s Start) Nil() bool { return s.nil }

// Local returns the element's local name.
func (s Start) Local() string {
	if s.local != nil {
		return string(s.local)
	}
	return s.name.Local
}

// Name returns the element's namespace and local name. In fast mode it allocates.
func (s Start) Name(r *Reader) xml.Name {
	if s.local != nil {
		space, _ := r.resolve(r.open[len(r.open)-1])
		return xml.Name{Space: string(space), Local: string(s.local)}
	}
	return s.name
}

// Attr returns the value of the attribute {space}local, and whether it is present. Only full mode
// keeps attributes; fast mode reads only namespace declarations and xsi:nil, so a decoder that needs
// an attribute must fall back (as the SOAP binding does for headers).
func (s Start) Attr(space, local string) (string, bool) {
	for _, a := range s.attrs {
		if a.Name.Space == space && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// NewReader returns a Reader of body in fast or full mode. ns is the service namespace.
func NewReader(body []byte, ns string, limits Limits, fast bool) *Reader {
	r := &Reader{}
	r.reset(body, ns, limits, fast)
	return r
}

// readerPool recycles Readers: one is needed per request, and its fixed arrays make it a few hundred
// bytes.
var readerPool = sync.Pool{New: func() any { return new(Reader) }}

// GetReader is NewReader from a pool; give the Reader back with PutReader once nothing refers to it.
// Decoded values never refer to a Reader's memory (text is copied out), so they outlive it.
func GetReader(body []byte, ns string, limits Limits, fast bool) *Reader {
	r := readerPool.Get().(*Reader)
	r.reset(body, ns, limits, fast)
	return r
}

// PutReader returns r to the pool.
func PutReader(r *Reader) {
	r.b, r.d, r.src, r.misplaced = nil, nil, nil, r.misplaced[:0]
	readerPool.Put(r)
}

func (r *Reader) reset(body []byte, ns string, limits Limits, fast bool) {
	// A UTF-8 byte order mark is allowed before the XML declaration (XML 1.0 §4.3.3); encoding/xml does
	// not skip it itself.
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	// Fields are reset one by one rather than by assigning a zero Reader, which would clear the fixed
	// arrays (about 800 bytes) on every request for nothing: only their used prefixes are ever read.
	r.ns, r.limits, r.fast = ns, limits, fast
	r.depth, r.elements, r.attrs, r.decls, r.misplaced = 0, 0, 0, 0, r.misplaced[:0]
	r.b, r.i, r.pending, r.d, r.typAt, r.plainAt = nil, 0, false, nil, 0, 0 // src, fns, fmark: full mode's, set below
	if fast {
		r.b = body
		r.scope = r.store[:0]
		r.open = r.opens[:0]
		return
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = true
	d.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		// Only UTF-8 is accepted; encoding/xml calls this for any other declared encoding.
		return nil, errUnsupportedCharset{charset}
	}
	r.d, r.src, r.fns, r.fmark = d, body, r.fns[:0], r.fmark[:0]
}

// Fast reports whether the Reader is in fast mode.
func (r *Reader) Fast() bool { return r.fast }

// Namespace returns the service namespace the Reader checks elements against.
func (r *Reader) Namespace() string { return r.ns }

// SetNamespace makes ns the namespace the elements read from now on are checked against, and returns
// the one it replaces: the decoder of a wrapper in another namespace than the service's ({urn:items}
// GetItem, whose qualified children are in urn:items) reads its children in that namespace and
// restores the service namespace when it returns (defer r.SetNamespace(r.SetNamespace(ns))).
func (r *Reader) SetNamespace(ns string) (previous string) {
	previous, r.ns = r.ns, ns
	return previous
}

type errUnsupportedCharset struct{ charset string }

func (e errUnsupportedCharset) Error() string { return "unsupported charset " + e.charset }

func (r *Reader) countStart() error {
	r.depth++
	r.elements++
	if r.depth > r.limits.MaxDepth {
		if r.fast {
			return ErrFallback
		}
		return fault.Errorf(fault.TooLarge, "The XML is nested deeper than %d elements.", r.limits.MaxDepth)
	}
	if r.elements > r.limits.MaxElements {
		if r.fast {
			return ErrFallback
		}
		return fault.Errorf(fault.TooLarge, "The XML has more than %d elements.", r.limits.MaxElements)
	}
	return nil
}

// Root skips the prolog (XML declaration, white space; comments and processing instructions in full
// mode) and returns the root element.
func (r *Reader) Root() (Start, error) {
	if r.fast {
		if !onlyXMLChars(r.b) {
			return Start{}, ErrFallback
		}
		if bytes.HasPrefix(r.b, []byte("<?")) && !r.xmlDeclaration() {
			return Start{}, ErrFallback
		}
		r.space()
		return r.fastStart()
	}
	for {
		tok, err := r.d.Token()
		if err == io.EOF {
			return Start{}, fault.Errorf(fault.MalformedRequest, "The request body is empty; an XML document is required.")
		}
		if err != nil {
			return Start{}, r.syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			r.depth, r.elements = 0, 0
			if err := r.countStart(); err != nil {
				return Start{}, err
			}
			r.pushScope(t)
			return r.fullStart(t), nil
		case xml.Directive:
			return Start{}, fault.Errorf(fault.MalformedRequest, "DOCTYPE and other XML declarations are not allowed.")
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return Start{}, fault.Errorf(fault.MalformedRequest, "The request is not an XML document.")
			}
		}
	}
}

func (r *Reader) fullStart(t xml.StartElement) Start {
	s := Start{name: t.Name, attrs: t.Attr, inNS: t.Name.Space == r.ns}
	for _, a := range t.Attr {
		if a.Name.Space == NSXSI && a.Name.Local == "nil" && (a.Value == "true" || a.Value == "1") {
			s.nil = true
		}
	}
	return s
}

// Child returns the next child element of the innermost open element, skipping white space, ignorable
// text, comments and processing instructions; ok is false when that element ends instead (its end
// tag is then consumed). stray reports non-white-space text skipped before it.
func (r *Reader) Child() (s Start, ok bool, err error) {
	s, ok, _, err = r.ChildStrict()
	return s, ok, err
}

// ChildStrict is Child that also reports whether non-white-space text was skipped, for the envelope's
// elements, where text is an error.
func (r *Reader) ChildStrict() (s Start, ok bool, stray bool, err error) {
	if r.fast {
		for {
			if r.pending {
				r.pending = false
				r.closeTag()
				return Start{}, false, stray, nil
			}
			r.space()
			switch {
			case r.at("</"):
				if !r.endTag() {
					return Start{}, false, false, ErrFallback
				}
				return Start{}, false, stray, nil
			case r.at("<"):
				s, err := r.fastStart()
				return s, err == nil, stray, err
			default:
				text, ok := r.text()
				if !ok {
					return Start{}, false, false, ErrFallback
				}
				if len(bytes.TrimSpace(text)) > 0 {
					stray = true
				}
			}
		}
	}
	for {
		tok, err := r.token()
		if err != nil {
			return Start{}, false, false, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return r.fullStart(t), true, stray, nil
		case xml.EndElement:
			return Start{}, false, stray, nil
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				stray = true
			}
		}
	}
}

// token returns the next token in full mode with the limits enforced, refusing DOCTYPE.
func (r *Reader) token() (xml.Token, error) {
	tok, err := r.d.Token()
	if err != nil {
		return nil, r.syntaxError(err)
	}
	switch t := tok.(type) {
	case xml.StartElement:
		if err := r.countStart(); err != nil {
			return nil, err
		}
		r.pushScope(t)
	case xml.EndElement:
		r.depth--
		r.fns, r.fmark = r.fns[:r.fmark[len(r.fmark)-1]], r.fmark[:len(r.fmark)-1]
	case xml.Directive:
		return nil, fault.Errorf(fault.MalformedRequest, "DOCTYPE and other XML declarations are not allowed.")
	}
	return tok, nil
}

func (r *Reader) syntaxError(err error) error {
	var charset errUnsupportedCharset
	switch {
	case errors.As(err, &charset):
		return fault.Errorf(fault.MalformedRequest, "The request declares the encoding %q; only UTF-8 is accepted.", charset.charset)
	case err == io.EOF:
		return fault.Errorf(fault.MalformedRequest, "The request body ended before the XML document was complete.")
	}
	var syntax *xml.SyntaxError
	if errors.As(err, &syntax) {
		return fault.Errorf(fault.MalformedRequest, "The request is not well-formed XML: line %d: %s.", syntax.Line, syntax.Msg)
	}
	return fault.Errorf(fault.MalformedRequest, "The request is not well-formed XML: %v.", err)
}

// Skip consumes the rest of the element whose start was just returned, with the limits enforced.
// An element skipped because it is outside the service namespace is remembered (Misplaced).
func (r *Reader) Skip(s Start) error {
	if !s.inNS && len(r.misplaced) < 8 {
		r.misplaced = append(r.misplaced, s.Local())
	}
	for {
		c, ok, err := r.Child()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := r.skipQuiet(c); err != nil {
			return err
		}
	}
}

func (r *Reader) skipQuiet(Start) error {
	for {
		c, ok, err := r.Child()
		if err != nil || !ok {
			return err
		}
		if err := r.skipQuiet(c); err != nil {
			return err
		}
	}
}

// Misplaced reports whether an element with this local name was skipped because it was outside the
// service namespace.
func (r *Reader) Misplaced(local string) bool {
	for _, m := range r.misplaced {
		if m == local {
			return true
		}
	}
	return false
}

// Text reads the content of the element whose start was just returned, which must be text only.
// what names the element in the error ("parameter id", "element FirstName").
func (r *Reader) Text(s Start, what string) (string, error) {
	text, ok, err := r.TextOnly()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fault.Errorf(fault.InvalidArgument, "The %s must hold text, not elements.", what)
	}
	return text, nil
}

// TextOnly reads the text content of the element whose start was just returned, up to its end; ok is
// false when the element holds elements (which are skipped).
func (r *Reader) TextOnly() (text string, ok bool, err error) {
	if r.fast {
		if r.pending {
			r.pending = false
			r.closeTag()
			return "", true, nil
		}
		t, ok := r.text()
		if !ok || !r.endTag() {
			return "", false, ErrFallback
		}
		return string(t), true, nil
	}
	var sb []byte
	ok = true
	for {
		tok, err := r.token()
		if err != nil {
			return "", false, err
		}
		switch t := tok.(type) {
		case xml.CharData:
			sb = append(sb, t...)
		case xml.StartElement:
			ok = false
			if err := r.skipQuiet(Start{}); err != nil {
				return "", false, err
			}
		case xml.EndElement:
			return string(sb), ok, nil
		}
	}
}

// End checks that nothing but white space (and, in full mode, comments and processing instructions)
// follows the root element.
func (r *Reader) End() error {
	if r.fast {
		r.space()
		if r.i != len(r.b) {
			return ErrFallback
		}
		return nil
	}
	for {
		tok, err := r.d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return r.syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return fault.Errorf(fault.MalformedRequest, "Unexpected content after the document element.")
			}
		case xml.Comment, xml.ProcInst:
		default:
			return fault.Errorf(fault.MalformedRequest, "Unexpected content after the document element.")
		}
	}
}

// Fast mode: a scanner of the restricted syntax.

func (r *Reader) at(prefix string) bool {
	return len(r.b)-r.i >= len(prefix) && string(r.b[r.i:r.i+len(prefix)]) == prefix
}

func (r *Reader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// xmlDeclaration accepts the XML declarations clients write for UTF-8 documents, and nothing else.
func (r *Reader) xmlDeclaration() bool {
	for _, decl := range []string{
		`<?xml version="1.0" encoding="utf-8"?>`, `<?xml version="1.0" encoding="UTF-8"?>`,
		`<?xml version='1.0' encoding='utf-8'?>`, `<?xml version='1.0' encoding='UTF-8'?>`,
		`<?xml version="1.0"?>`, `<?xml version='1.0'?>`,
	} {
		if r.at(decl) {
			r.i += len(decl)
			return true
		}
	}
	return false
}

// name reads an ASCII XML name with at most one colon, split into prefix and local part.
func (r *Reader) name() (prefix, local []byte, ok bool) {
	start, colon := r.i, -1
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case (c >= '0' && c <= '9') || c == '-' || c == '.':
			if r.i == start || r.i == colon+1 {
				return nil, nil, false // a name (or its local part) must not start with these
			}
		case c == ':':
			if colon >= 0 || r.i == start {
				return nil, nil, false
			}
			colon = r.i
		default:
			goto done
		}
		r.i++
	}
done:
	switch {
	case r.i == start || r.i == colon+1:
		return nil, nil, false
	case colon < 0:
		return nil, r.b[start:r.i], true
	default:
		return r.b[start:colon], r.b[colon+1 : r.i], true
	}
}

// fastStart reads <name attributes> or <name attributes/>, bringing its namespace declarations into
// scope and opening it.
func (r *Reader) fastStart() (Start, error) {
	if !r.at("<") || r.pending {
		return Start{}, ErrFallback
	}
	r.i++
	var t openTag
	var ok bool
	nameStart := r.i
	if t.prefix, t.local, ok = r.name(); !ok || over(r.i-nameStart, r.limits.MaxNameBytes) {
		return Start{}, ErrFallback
	}
	elementAttrs := 0
	t.mark = len(r.scope)
	var seen [8][]byte // raw attribute names, to refuse duplicates
	count := 0
	var nilValue, nilPrefix []byte
	selfClosing := false
	for {
		separated := r.i < len(r.b) && (r.b[r.i] == ' ' || r.b[r.i] == '\t' || r.b[r.i] == '\n' || r.b[r.i] == '\r')
		r.space()
		if r.at(">") {
			r.i++
			break
		}
		if r.at("/>") {
			r.i += 2
			selfClosing = true
			break
		}
		if !separated {
			return Start{}, ErrFallback
		}
		attrStart := r.i
		prefix, local, ok := r.name()
		if !ok || count == len(seen) || over(r.i-attrStart, r.limits.MaxNameBytes) {
			return Start{}, ErrFallback
		}
		raw := r.b[attrStart:r.i]
		for _, other := range seen[:count] {
			if bytes.Equal(other, raw) {
				return Start{}, ErrFallback
			}
		}
		seen[count] = raw
		count++
		if !r.at(`="`) && !r.at(`='`) {
			return Start{}, ErrFallback
		}
		quote := r.b[r.i+1]
		r.i += 2
		end := bytes.IndexByte(r.b[r.i:], quote)
		if end < 0 {
			return Start{}, ErrFallback
		}
		value := r.b[r.i : r.i+end]
		r.i += end + 1
		if over(len(value), r.limits.MaxAttrValueBytes) {
			return Start{}, ErrFallback
		}
		for _, c := range value {
			if c == '<' || c == '&' || c < 0x20 {
				return Start{}, ErrFallback
			}
		}
		declaration := (prefix == nil && string(local) == "xmlns") || string(prefix) == "xmlns"
		if declaration {
			// A declaration beyond the fixed store would make the scope grow on the heap; documents
			// with that many are left to the full mode (and its budget).
			r.decls++
			if len(r.scope) == cap(r.store) || over(r.decls, r.limits.MaxNamespaces) {
				return Start{}, ErrFallback
			}
		} else {
			r.attrs++
			elementAttrs++
			if over(r.attrs, r.limits.MaxAttrs) || over(elementAttrs, r.limits.MaxAttrsPerElement) {
				return Start{}, ErrFallback
			}
		}
		switch {
		case prefix == nil && string(local) == "xmlns":
			if len(value) == 0 {
				return Start{}, ErrFallback
			}
			r.scope = append(r.scope, nsBinding{uri: value})
		case string(prefix) == "xmlns":
			if len(value) == 0 || string(local) == "xml" || string(local) == "xmlns" {
				return Start{}, ErrFallback
			}
			r.scope = append(r.scope, nsBinding{prefix: local, uri: value})
		case prefix == nil:
			r.plainAt = r.elements + 1 // this element's number once counted below
		case prefix != nil && string(local) == "nil":
			if nilPrefix != nil {
				return Start{}, ErrFallback
			}
			nilPrefix, nilValue = prefix, value
		case prefix != nil && string(local) == "type":
			r.typAt = r.elements + 1 // this element's number once counted below
		}
		// Any other attribute is ignored, as the decoders ignore it in full mode too.
	}
	r.open = append(r.open, t)
	if err := r.countStart(); err != nil {
		return Start{}, err
	}
	space, ok := r.resolve(t)
	if !ok {
		return Start{}, ErrFallback
	}
	s := Start{local: t.local, inNS: string(space) == r.ns}
	if nilPrefix != nil {
		uri, ok := r.lookup(nilPrefix)
		if !ok {
			return Start{}, ErrFallback
		}
		s.nil = string(uri) == NSXSI && (string(nilValue) == "true" || string(nilValue) == "1")
	}
	r.pending = selfClosing
	return s, nil
}

// closeTag pops the innermost open element and its declarations.
func (r *Reader) closeTag() {
	t := r.open[len(r.open)-1]
	r.open = r.open[:len(r.open)-1]
	r.scope = r.scope[:t.mark]
	r.depth--
}

// endTag reads </name> (white space allowed before >) for the innermost open element.
func (r *Reader) endTag() bool {
	if !r.at("</") || len(r.open) == 0 {
		return false
	}
	r.i += 2
	t := r.open[len(r.open)-1]
	prefix, local, ok := r.name()
	if !ok || !bytes.Equal(prefix, t.prefix) || !bytes.Equal(local, t.local) {
		return false
	}
	r.space()
	if !r.at(">") {
		return false
	}
	r.i++
	r.closeTag()
	return true
}

// text reads character data up to the next '<', refusing what the full decoder would transform
// (entity and character references, CR) or reject (]]>).
func (r *Reader) text() ([]byte, bool) {
	end := bytes.IndexByte(r.b[r.i:], '<')
	if end < 0 {
		return nil, false
	}
	t := r.b[r.i : r.i+end]
	if bytes.IndexByte(t, '&') >= 0 || bytes.IndexByte(t, '\r') >= 0 || bytes.Contains(t, []byte("]]>")) {
		return nil, false
	}
	r.i += end
	if r.at("<!") || r.at("<?") {
		return nil, false
	}
	return t, true
}

func (r *Reader) lookup(prefix []byte) ([]byte, bool) {
	for i := len(r.scope) - 1; i >= 0; i-- {
		if bytes.Equal(r.scope[i].prefix, prefix) {
			return r.scope[i].uri, true
		}
	}
	return nil, prefix == nil // no default namespace: the empty one
}

// resolve returns the namespace of t's name; ok is false for an undeclared prefix, or the xml prefix,
// which the fast path leaves to the full decoder.
func (r *Reader) resolve(t openTag) ([]byte, bool) {
	return r.lookup(t.prefix)
}

// onlyXMLChars reports whether b is valid UTF-8 holding only characters XML 1.0 allows
// (xmlchars.Valid).
func onlyXMLChars(b []byte) bool { return xmlchars.Valid(b) }

// WrongNamespace reports an element that was sent outside the service namespace.
func (r *Reader) WrongNamespace(local string) error {
	return fault.Errorf(fault.InvalidArgument, "The element %s must be in the namespace %q.", local, r.ns)
}

// Discard consumes the rest of the element whose start was just returned, without remembering it as
// misplaced: for envelope and header elements, which are never in the service namespace.
func (r *Reader) Discard() error { return r.skipQuiet(Start{}) }

// IsElement reports whether s, the element start just returned, is {space}local. In fast mode it must
// be called before the next read.
func (r *Reader) IsElement(s Start, space, local string) bool {
	if s.local == nil {
		return s.name.Space == space && s.name.Local == local
	}
	if string(s.local) != local || len(r.open) == 0 {
		return false
	}
	ns, ok := r.resolve(r.open[len(r.open)-1])
	return ok && string(ns) == space
}
