// Package wsdl reads a WSDL 1.1 document into a tree of elements that keep their byte spans,
// namespace scopes and lines (Read, Node, Errorf), indexes its top level (Definitions), and derives
// from it the SOAP-only view gowsdl is run on (SOAPView, Definitions.View).
//
// It imports the standard library only.
package wsdl

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Namespaces the generator decides by. Only these matter: everything else in a WSDL document is kept or
// dropped as part of the component it sits in.
const (
	NamespaceWSDL   = "http://schemas.xmlsoap.org/wsdl/"
	NamespaceSOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/"
	NamespaceSOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/"
	NamespaceXSD    = "http://www.w3.org/2001/XMLSchema"

	namespaceXML = "http://www.w3.org/XML/1998/namespace"
)

// NamespaceHTTP is the WSDL 1.1 HTTP binding namespace; NamespaceMSTypes holds .NET's guid type;
// NamespaceSOAPEncoding holds soapenc:Array, the base of the AbstractTypes schema's array types.
const (
	NamespaceHTTP         = "http://schemas.xmlsoap.org/wsdl/http/"
	NamespaceMSTypes      = "http://microsoft.com/wsdl/types/"
	NamespaceSOAPEncoding = "http://schemas.xmlsoap.org/soap/encoding/"
)

// node is one element of a parsed document. It records where the element's bytes are in the input, so
// the view can cut whole elements out without re-encoding anything it keeps, and the namespace scope
// in force at the element, so QName attribute values ("tns:Foo") can be resolved.
type Node struct {
	Name       xml.Name   // namespace URI and local name
	Raw        xml.Name   // prefix and local name as written, to match the end tag
	Attrs      []xml.Attr // as written: Name.Space is the prefix
	scope      *scope
	Start, End int // byte range [Start, End) of the whole element in the input
	Children   []*Node
}

// scope is one level of namespace declarations; prefix "" is the default namespace.
type scope struct {
	parent *scope
	ns     map[string]string
}

// rootScope holds the one prefix XML declares implicitly.
var rootScope = &scope{ns: map[string]string{"xml": namespaceXML}}

func (s *scope) lookup(prefix string) (string, bool) {
	for ; s != nil; s = s.parent {
		if uri, ok := s.ns[prefix]; ok {
			return uri, true
		}
	}
	// An undeclared default namespace is no namespace; an undeclared prefix is an error.
	return "", prefix == ""
}

// parseTree reads a whole XML document into nodes. It uses RawToken rather than Token because Token
// rewrites prefixes into namespace URIs and hides the raw byte positions the view depends on; the
// price is doing namespace scoping and end-tag matching here.
func parseTree(data []byte) (*Node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var (
		root  *Node
		stack []*Node
	)
	for {
		start := int(d.InputOffset())
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("parsing XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			parent := rootScope
			if len(stack) > 0 {
				parent = stack[len(stack)-1].scope
			}
			n := &Node{Raw: t.Name, Attrs: t.Attr, scope: declare(parent, t.Attr), Start: start}
			uri, ok := n.scope.lookup(t.Name.Space)
			if !ok {
				return nil, fmt.Errorf("parsing XML: element <%s:%s> at byte %d uses an undeclared prefix", t.Name.Space, t.Name.Local, start)
			}
			n.Name = xml.Name{Space: uri, Local: t.Name.Local}
			switch {
			case len(stack) > 0:
				p := stack[len(stack)-1]
				p.Children = append(p.Children, n)
			case root == nil:
				root = n
			default:
				return nil, fmt.Errorf("parsing XML: second root element <%s> at byte %d", qualified(t.Name), start)
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, fmt.Errorf("parsing XML: unexpected </%s> at byte %d", qualified(t.Name), start)
			}
			n := stack[len(stack)-1]
			if n.Raw != t.Name {
				return nil, fmt.Errorf("parsing XML: <%s> at byte %d is closed by </%s>", qualified(n.Raw), n.Start, qualified(t.Name))
			}
			n.End = int(d.InputOffset())
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("parsing XML: <%s> at byte %d is never closed", qualified(stack[len(stack)-1].Raw), stack[len(stack)-1].Start)
	}
	if root == nil {
		return nil, errors.New("parsing XML: no root element")
	}
	return root, nil
}

// declare returns the scope for an element with these attributes: parent itself when the element
// declares no namespaces, so most elements share their parent's scope.
func declare(parent *scope, attrs []xml.Attr) *scope {
	var ns map[string]string
	for _, a := range attrs {
		prefix, ok := "", false
		switch {
		case a.Name.Space == "xmlns":
			prefix, ok = a.Name.Local, true
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			ok = true
		}
		if !ok {
			continue
		}
		if ns == nil {
			ns = make(map[string]string)
		}
		ns[prefix] = a.Value
	}
	if ns == nil {
		return parent
	}
	return &scope{parent: parent, ns: ns}
}

func qualified(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// is reports whether the element is {space}local.
func (n *Node) Is(space, local string) bool {
	return n.Name.Space == space && n.Name.Local == local
}

// attr returns the value of an unprefixed attribute, the only kind WSDL and XSD define.
func (n *Node) Attr(local string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// qnameAttr resolves a QName-valued attribute such as type="tns:SyncServiceSoap" against the
// namespaces in scope at the element. An unprefixed value is in the default namespace, as XML Schema
// defines for QNames.
func (n *Node) QNameAttr(local string) (xml.Name, bool, error) {
	v, ok := n.Attr(local)
	if !ok {
		return xml.Name{}, false, nil
	}
	v = strings.TrimSpace(v)
	prefix, name, found := strings.Cut(v, ":")
	if !found {
		prefix, name = "", v
	}
	uri, ok := n.scope.lookup(prefix)
	if !ok || name == "" {
		return xml.Name{}, false, fmt.Errorf("<%s> at byte %d: %s=%q is not a QName with a declared prefix", qualified(n.Raw), n.Start, local, v)
	}
	return xml.Name{Space: uri, Local: name}, true, nil
}

// elements returns the child elements named {space}local, in document order.
func (n *Node) Elements(space, local string) []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Is(space, local) {
			out = append(out, c)
		}
	}
	return out
}

// walk calls fn for n and every element below it, in document order.
func (n *Node) Walk(fn func(*Node)) {
	fn(n)
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// contains reports whether m is n or an element inside it.
func (n *Node) Contains(m *Node) bool {
	return n.Start <= m.Start && m.End <= n.End
}

// Errorf returns a generation error that names the construct n and its line in data, the document
// n was parsed from: "line 12: <s:choice>: …".
func Errorf(data []byte, n *Node, format string, args ...any) error {
	line := 1 + bytes.Count(data[:n.Start], []byte("\n"))
	return fmt.Errorf("line %d: <%s>: %s", line, qualified(n.Raw), fmt.Sprintf(format, args...))
}
