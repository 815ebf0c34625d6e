package xmlany

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// RawXML is a list of XML nodes (elements, text, processing instructions) in canonical form: exclusive
// XML canonicalization (https://www.w3.org/TR/xml-exc-c14n/, without comments), plus the declaration
// of every in-scope prefix an attribute value uses as a QName prefix (xsi:type="x:int", a schema's
// type="xs:int"), and xmlns="" on an unprefixed element in no namespace at the top: so it needs no
// declaration of the envelope it is moved into and means the same there. The zero value is no nodes.
// It is comparable: two RawXML are equal when their canonical forms are.
type RawXML struct{ s string }

// String returns the canonical form.
func (x RawXML) String() string { return x.s }

// IsZero reports whether x holds no nodes.
func (x RawXML) IsZero() bool { return x.s == "" }

// AppendTo appends the canonical form to b, as it is: it is well-formed content in any element.
func (x RawXML) AppendTo(b []byte) []byte { return append(b, x.s...) }

// Decoder returns a decoder of the nodes (a fragment: several top-level nodes may follow each other).
func (x RawXML) Decoder() *xml.Decoder { return xml.NewDecoder(strings.NewReader(x.s)) }

// DataSet is a .NET DataSet's content, carried untouched: its xs:schema and diffgr:diffgram, or
// whatever nodes the client sent (README §4: soap11-EchoDataSet-full, -changes). The service does not
// interpret DataSets; it holds the nodes in RawXML's canonical form.
type DataSet struct{ Content RawXML }

// Shape says which of an element's child nodes a capture keeps, as XmlSerializer binds them.
type Shape uint8

const (
	// Element keeps the first child element (XmlElement): further children and text are dropped
	// (soap11-EchoElement-two-children); text alone is an error (soap11-EchoElement-text).
	Element Shape = iota
	// Node keeps the first child node that is not white space (XmlNode): an element or a text
	// (soap11-EchoNode, -text; of a<b>c</b>d only a: -mixed).
	Node
	// Nodes keeps every child node (XmlNode[], a DataSet's content), white space included.
	Nodes
	// Elements keeps every child element (XmlElement[]), dropping the text between them.
	Elements
)

// Capture reads the content of the element whose start s was just returned and keeps the nodes shape
// selects, canonicalised. what names the element in errors ("parameter element"). The Reader's limits
// apply to the content as to the rest of the document. Fast mode steps aside (xmlwire.ErrFallback).
// An empty result (<element />, or nothing the shape keeps) is the zero RawXML: an absent XmlElement.
func Capture(r *xmlwire.Reader, s xmlwire.Start, shape Shape, what string) (RawXML, error) {
	if r.Fast() {
		return RawXML{}, xmlwire.ErrFallback
	}
	scope := r.InScope(nil)
	content, err := r.RawContent()
	if err != nil {
		return RawXML{}, err
	}
	return canonical(content, scope, shape, what)
}

// CaptureDataSet reads a DataSet element's content (Capture with Nodes).
func CaptureDataSet(r *xmlwire.Reader, s xmlwire.Start, what string) (DataSet, error) {
	x, err := Capture(r, s, Nodes, what)
	return DataSet{Content: x}, err
}

// ParseRawXML reads XML content (a fragment: any nodes, as between a start and an end tag) that
// declares every prefix it uses, within limits, into its canonical form.
func ParseRawXML(s string, limits xmlwire.Limits) (RawXML, error) {
	const open, end = "<raw>", "</raw>"
	r := xmlwire.NewReader([]byte(open+s+end), "", limits, false)
	root, err := r.Root()
	if err != nil {
		return RawXML{}, err
	}
	x, err := Capture(r, root, Nodes, "XML")
	if err != nil {
		return RawXML{}, err
	}
	if err := r.End(); err != nil { // s closed <raw> early: "</raw><raw>" is not content
		return RawXML{}, err
	}
	return x, nil
}

// AppendElement appends <name>x</name>, or <name /> for no nodes.
func AppendElement(b []byte, name string, x RawXML) []byte {
	if x.IsZero() {
		return append(append(append(b, '<'), name...), " />"...)
	}
	b = xmlwire.AppendStart(b, name)
	b = append(b, x.s...)
	return xmlwire.AppendEnd(b, name)
}

// errNamespace is a namespace error of raw content, a caller's fault.
func errNamespace(what, format string, args ...any) error {
	return fault.Errorf(fault.InvalidArgument, "The "+what+" is not namespace-well-formed XML: "+format+".", args...)
}

// unknownDefault stands for the default namespace of the envelope raw XML is moved into, which no
// URI equals: an unprefixed top-level element always declares its own.
const unknownDefault = "\x00"

// canon is the state of one canonicalisation.
type canon struct {
	what     string
	out      []byte
	scope    []xmlwire.NS // declarations in scope, innermost last
	rendered []xmlwire.NS // declarations written by the open output elements, innermost last
	marks    [][2]int     // len(scope), len(rendered) before each open element
	names    []string     // qualified names of the open elements
}

func (c *canon) lookup(list []xmlwire.NS, prefix string) (string, bool) {
	if prefix == "xml" {
		return xmlwire.NSXML, true
	}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Prefix == prefix {
			return list[i].URI, true
		}
	}
	return "", prefix == ""
}

// canonical canonicalises content, read in the namespace scope given, keeping the top-level nodes shape
// selects. content is well-formed (the Reader read it); its namespaces are checked here.
func canonical(content []byte, scope []xmlwire.NS, shape Shape, what string) (RawXML, error) {
	c := canon{what: what, scope: scope, rendered: []xmlwire.NS{{Prefix: "", URI: unknownDefault}}}
	d := xml.NewDecoder(bytes.NewReader(content))
	d.Strict = true
	var (
		depth       int
		keep        bool // the current top-level node is kept
		kept, stray bool // a node has been kept; non-white-space text was dropped
		inText      bool // the last top-level token was text (a text node continues)
	)
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return RawXML{}, fault.Errorf(fault.InvalidArgument, "The %s is not well-formed XML: %v.", what, err)
		}
		if depth == 0 {
			text, isText := tok.(xml.CharData)
			_, isComment := tok.(xml.Comment)
			switch {
			case isComment:
				continue
			case isText && inText:
				// the same text node goes on (text, then CDATA)
			case isText:
				blank := len(bytes.Trim(text, " \t\r\n")) == 0
				keep = shape == Nodes || shape == Node && !kept && !blank
				stray = stray || !blank
			default:
				keep = shape == Nodes || shape == Elements || !kept
				if _, ok := tok.(xml.ProcInst); ok && shape != Nodes {
					keep = false
				}
			}
			inText = isText
			kept = kept || keep
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if err := c.start(t, keep); err != nil {
				return RawXML{}, err
			}
		case xml.EndElement:
			depth--
			c.end(keep)
		case xml.CharData:
			if keep {
				c.out = appendText(c.out, t)
			}
		case xml.ProcInst:
			if keep && t.Target != "xml" {
				c.out = append(append(append(c.out, "<?"...), t.Target...), ' ')
				c.out = append(append(c.out, t.Inst...), "?>"...)
			}
		case xml.Directive:
			return RawXML{}, fault.Errorf(fault.MalformedRequest, "DOCTYPE and other XML declarations are not allowed.")
		}
	}
	if shape == Element && !kept && stray {
		return RawXML{}, fault.Errorf(fault.InvalidArgument, "The %s must hold an XML element, not text.", what)
	}
	return RawXML{string(c.out)}, nil
}

// qname splits a QName-shaped attribute value into its prefix and local part; ok is false for any
// other value.
func qname(v string) (prefix, local string, ok bool) {
	prefix, local, ok = strings.Cut(strings.TrimSpace(v), ":")
	return prefix, local, ok && isNCName(prefix) && isNCName(local)
}

// isNCName reports whether s is a name without a colon (XML Namespaces §3), to the extent a QName-valued
// attribute needs: a letter or _ first (any non-ASCII rune counts as a letter), then no space or
// punctuation but - . _.
func isNCName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80:
		case i > 0 && (r == '-' || r == '.' || r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return s != ""
}

type attr struct {
	space, qname, value string
	local               string
}

func (c *canon) start(t xml.StartElement, keep bool) error {
	c.marks = append(c.marks, [2]int{len(c.scope), len(c.rendered)})
	var attrs []attr
	for _, a := range t.Attr {
		switch {
		case a.Name.Space == "xmlns":
			if a.Name.Local == "xml" || a.Name.Local == "xmlns" || a.Value == "" {
				if a.Name.Local == "xml" && a.Value == xmlwire.NSXML {
					continue
				}
				return errNamespace(c.what, "xmlns:%s=%q is not a declaration that may be made", a.Name.Local, a.Value)
			}
			c.scope = append(c.scope, xmlwire.NS{Prefix: a.Name.Local, URI: a.Value})
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			c.scope = append(c.scope, xmlwire.NS{URI: a.Value})
		default:
			if strings.Contains(a.Name.Local, ":") || a.Name.Local == "" {
				return errNamespace(c.what, "the attribute name %q has more than one colon", a.Name.Space+":"+a.Name.Local)
			}
			attrs = append(attrs, attr{space: a.Name.Space, local: a.Name.Local, value: a.Value})
		}
	}
	if strings.Contains(t.Name.Local, ":") || t.Name.Local == "" {
		return errNamespace(c.what, "the element name %q has more than one colon", t.Name.Space+":"+t.Name.Local)
	}
	// The prefixes this element uses visibly: its own, its attributes', and QName-valued attributes'.
	used := []string{t.Name.Space}
	for i := range attrs {
		a := &attrs[i]
		a.qname = a.local
		if a.space != "" {
			prefix := a.space
			uri, ok := c.lookup(c.scope, prefix)
			if !ok {
				return errNamespace(c.what, "the prefix %s of the attribute %s:%s is not declared", prefix, prefix, a.local)
			}
			a.space, a.qname = uri, prefix+":"+a.local
			used = append(used, prefix)
		}
		if a.space == xmlwire.NSXSI && a.local == "type" {
			prefix, _, ok := strings.Cut(strings.TrimSpace(a.value), ":")
			if !ok {
				prefix = ""
			}
			used = append(used, prefix) // an unprefixed xsi:type uses the default namespace
		} else if prefix, _, ok := qname(a.value); ok {
			if _, declared := c.lookup(c.scope, prefix); declared {
				used = append(used, prefix)
			}
		}
	}
	if _, ok := c.lookup(c.scope, t.Name.Space); !ok {
		return errNamespace(c.what, "the prefix %s of the element %s:%s is not declared", t.Name.Space, t.Name.Space, t.Name.Local)
	}
	for i, a := range attrs { // an attribute given twice under two prefixes of one namespace
		for _, b := range attrs[:i] {
			if a.space == b.space && a.local == b.local {
				return errNamespace(c.what, "the attribute {%s}%s is given twice", a.space, a.local)
			}
		}
	}
	qn := t.Name.Local
	if t.Name.Space != "" {
		qn = t.Name.Space + ":" + qn
	}
	c.names = append(c.names, qn)
	if !keep {
		return nil
	}
	// Exclusive canonicalization: a used prefix is declared where its binding differs from the one the
	// output ancestors declared; declarations by prefix (the default first), attributes by namespace
	// URI, then local name (those in no namespace first).
	var decls []xmlwire.NS
	slices.Sort(used)
	used = slices.Compact(used)
	for _, prefix := range used {
		if prefix == "xml" {
			continue
		}
		uri, ok := c.lookup(c.scope, prefix)
		if !ok {
			continue // a QName-shaped xsi:type with an undeclared prefix: XSIType refuses it when read
		}
		if have, _ := c.lookup(c.rendered, prefix); have != uri {
			decls = append(decls, xmlwire.NS{Prefix: prefix, URI: uri})
			c.rendered = append(c.rendered, xmlwire.NS{Prefix: prefix, URI: uri})
		}
	}
	slices.SortFunc(attrs, func(a, b attr) int {
		if n := strings.Compare(a.space, b.space); n != 0 {
			return n
		}
		return strings.Compare(a.local, b.local)
	})
	c.out = append(append(c.out, '<'), qn...)
	for _, ns := range decls {
		if ns.Prefix == "" {
			c.out = append(c.out, " xmlns=\""...)
		} else {
			c.out = append(append(append(c.out, " xmlns:"...), ns.Prefix...), "=\""...)
		}
		c.out = append(appendAttrValue(c.out, ns.URI), '"')
	}
	for _, a := range attrs {
		c.out = append(append(append(c.out, ' '), a.qname...), "=\""...)
		c.out = append(appendAttrValue(c.out, a.value), '"')
	}
	c.out = append(c.out, '>')
	return nil
}

func (c *canon) end(keep bool) {
	qn := c.names[len(c.names)-1]
	c.names = c.names[:len(c.names)-1]
	m := c.marks[len(c.marks)-1]
	c.marks = c.marks[:len(c.marks)-1]
	c.scope, c.rendered = c.scope[:m[0]], c.rendered[:m[1]]
	if keep {
		c.out = append(append(append(c.out, "</"...), qn...), '>')
	}
}

// appendText escapes text as canonical XML does: & < > and CR.
func appendText(b []byte, s []byte) []byte {
	for _, ch := range s {
		switch ch {
		case '&':
			b = append(b, "&amp;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '\r':
			b = append(b, "&#xD;"...)
		default:
			b = append(b, ch)
		}
	}
	return b
}

// appendAttrValue escapes an attribute value as canonical XML does: & < " and TAB, LF, CR.
func appendAttrValue(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '&':
			b = append(b, "&amp;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '"':
			b = append(b, "&quot;"...)
		case '\t':
			b = append(b, "&#x9;"...)
		case '\n':
			b = append(b, "&#xA;"...)
		case '\r':
			b = append(b, "&#xD;"...)
		default:
			b = append(b, ch)
		}
	}
	return b
}
