// Package bare reads ASMX's document/literal bare messages (SoapParameterStyle.Bare, shapes README
// §8) and rewrites them, for the rest of the generator, into the wrapped form every other operation
// has: Wrap adds to the service schema a request wrapper named after the operation's message name
// followed by "Request" and a response wrapper named it followed by "Response" (the Go types
// <Name>Request and <Name>Response, docs/generator-model.md §3.1), whose elements are the bare
// messages' part elements in order, and points the messages at them. The contract model, gowsdl and
// the emitters then see a wrapped operation (so the Go method keeps the generator's usual shape,
// request struct in and response struct out), and the generator marks the operation Bare, which
// tells the runtime that the SOAP body holds the wrapper's elements themselves, without the wrapper.
//
// The rewrite keeps every line of the document where it was (the added elements share the line of
// the schema's end tag, and a rewritten message keeps its line count), so an error the model reports
// on the rewritten document names the line of the contract as written. The served WSDL is the
// original document, never the rewritten one.
//
// It imports the standard library and wsdl.
package bare

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// valueTypes are the XML Schema types whose .NET types are value types, which ASMX's wrapped form
// declares with minOccurs="1" (every other one, a reference type, with minOccurs="0"); a bare part's
// global element carries no occurrence, so the wrapper's element takes the one the wrapped form of
// the same parameter would have.
var valueTypes = map[string]bool{
	"int": true, "long": true, "short": true, "boolean": true, "double": true, "float": true, "dateTime": true,
	"decimal": true, "byte": true, "unsignedByte": true, "unsignedShort": true, "unsignedInt": true, "unsignedLong": true,
}

// attrEscaper escapes a value for a double-quoted attribute (the target namespace the rewritten
// parts declare).
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;")

// edit replaces data[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// Wrap returns defs with every bare message of a SOAP binding's operations rewritten into the wrapped
// form (see the package comment), and the message names (the contract model's Operation.Name) of the
// operations it rewrote. A contract without bare messages is returned as it is. What the rewrite
// cannot carry (a part element of another namespace or of an anonymous type beside other parts, a
// wrapper name already taken) is refused as not supported yet.
func Wrap(defs *wsdl.Definitions) (*wsdl.Definitions, map[string]bool, error) {
	w := &wrapper{defs: defs, taken: map[string]bool{}, elements: map[string]*wsdl.Node{}}
	for _, s := range defs.Schemas {
		if target, _ := s.Attr("targetNamespace"); target != defs.TNS {
			continue
		}
		if w.schema == nil {
			w.schema = s
		}
		for _, c := range s.Children {
			name, _ := c.Attr("name")
			w.taken[name] = true
			if c.Is(wsdl.NamespaceXSD, "element") {
				w.elements[name] = c
			}
		}
	}
	bareOps := map[string]bool{}
	done := map[*wsdl.Node]bool{}
	for _, pt := range soapPortTypes(defs) {
		for _, op := range pt.Elements(wsdl.NamespaceWSDL, "operation") {
			name := messageName(op)
			var in, out *wsdl.Node
			for _, io := range op.Elements(wsdl.NamespaceWSDL, "input") {
				m, err := defs.Messages.Resolve(io, "message", defs.TNS)
				if err != nil {
					return nil, nil, err
				}
				in = m
			}
			for _, io := range op.Elements(wsdl.NamespaceWSDL, "output") {
				m, err := defs.Messages.Resolve(io, "message", defs.TNS)
				if err != nil {
					return nil, nil, err
				}
				out = m
			}
			if in == nil || done[in] {
				continue
			}
			inBare, outBare := w.isBare(in), out == nil || w.isBare(out)
			if !inBare && (out == nil || !outBare) {
				continue // wrapped
			}
			if inBare != outBare {
				return nil, nil, wsdl.Errorf(defs.Data, op, "operation %s has a bare message and a wrapped one (ASMX writes both bare or both wrapped): not supported yet", name)
			}
			if err := w.wrap(in, name+"Request"); err != nil {
				return nil, nil, err
			}
			done[in] = true
			if out != nil && !done[out] {
				if err := w.wrap(out, name+"Response"); err != nil {
					return nil, nil, err
				}
				done[out] = true
			}
			bareOps[name] = true
		}
	}
	if len(bareOps) == 0 {
		return defs, nil, nil
	}
	w.dropPartElements(done)
	end := bytes.LastIndex(defs.Data[w.schema.Start:w.schema.End], []byte("</")) + w.schema.Start
	w.edits = append(w.edits, edit{start: end, end: end, text: w.added.String()})
	sort.Slice(w.edits, func(i, j int) bool { return w.edits[i].start < w.edits[j].start })
	var data []byte
	at := 0
	for _, e := range w.edits {
		data = append(data, defs.Data[at:e.start]...)
		data = append(data, e.text...)
		at = e.end
	}
	data = append(data, defs.Data[at:]...)
	wrapped, err := wsdl.Read(data)
	if err != nil {
		return nil, nil, fmt.Errorf("rewriting the bare messages into wrappers: %w", err)
	}
	return wrapped, bareOps, nil
}

type wrapper struct {
	defs   *wsdl.Definitions
	schema *wsdl.Node // the first schema of the service namespace, which receives the wrappers
	// taken are the names of the service schema's top-level components, which a wrapper must not reuse;
	// elements are its top-level elements.
	taken    map[string]bool
	elements map[string]*wsdl.Node
	added    strings.Builder // the wrapper elements, on one line
	edits    []edit
}

// dropPartElements blanks out, for gowsdl, the global elements that only the rewritten messages
// named (phrase, BareOneResult, Order): the wrappers now carry them as their own elements, and gowsdl
// would declare a Go type for each (type Phrase string) that nothing uses. An element that another
// message part, an element reference or a substitution group names is kept. The element's bytes
// become spaces, its line breaks kept.
func (w *wrapper) dropPartElements(rewritten map[*wsdl.Node]bool) {
	named := map[string]bool{}
	for _, msg := range w.defs.Messages.Order {
		for _, part := range msg.Elements(wsdl.NamespaceWSDL, "part") {
			if q, ok, err := part.QNameAttr("element"); err == nil && ok && q.Space == w.defs.TNS {
				named[q.Local] = named[q.Local] || !rewritten[msg]
			}
		}
	}
	for _, s := range w.defs.Schemas {
		s.Walk(func(n *wsdl.Node) {
			for _, attr := range []string{"ref", "substitutionGroup"} {
				if q, ok, err := n.QNameAttr(attr); err == nil && ok && q.Space == w.defs.TNS {
					named[q.Local] = true
				}
			}
		})
	}
	for name, kept := range named {
		el := w.elements[name]
		if kept || el == nil {
			continue
		}
		blank := bytes.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return r
			}
			return ' '
		}, w.defs.Data[el.Start:el.End])
		w.edits = append(w.edits, edit{start: el.Start, end: el.End, text: string(blank)})
	}
}

// isBare reports whether message msg is bare: it has no part, several parts, or one part naming a
// global element of a named type (a wrapped message's part names an element of an anonymous complex
// type). A part with a type (rpc style) or an element of another namespace is left to the model.
func (w *wrapper) isBare(msg *wsdl.Node) bool {
	parts := msg.Elements(wsdl.NamespaceWSDL, "part")
	if len(parts) != 1 {
		return true
	}
	q, ok, err := parts[0].QNameAttr("element")
	if err != nil || !ok || q.Space != w.defs.TNS {
		return false
	}
	el := w.elements[q.Local]
	return el != nil && len(el.Elements(wsdl.NamespaceXSD, "complexType")) == 0
}

// wrap adds the wrapper element name holding msg's part elements in order, and rewrites msg into one
// part naming it.
func (w *wrapper) wrap(msg *wsdl.Node, name string) error {
	if w.taken[name] {
		return wsdl.Errorf(w.defs.Data, msg, "the bare message %s would be read as the wrapper %s, a name the schema already uses: not supported yet",
			attr(msg, "name"), name)
	}
	w.taken[name] = true
	xs := w.schema.Raw.Space
	if xs != "" {
		xs += ":"
	}
	fmt.Fprintf(&w.added, `<%selement name="%s"><%scomplexType><%ssequence>`, xs, name, xs, xs)
	for _, part := range msg.Elements(wsdl.NamespaceWSDL, "part") {
		q, ok, err := part.QNameAttr("element")
		if err != nil {
			return err
		}
		if !ok || q.Space != w.defs.TNS {
			return wsdl.Errorf(w.defs.Data, part, "a bare message part that names no element of the service namespace: not supported yet")
		}
		el := w.elements[q.Local]
		if el == nil {
			return wsdl.Errorf(w.defs.Data, part, "element %s is not defined", q.Local)
		}
		typ, ok := el.Attr("type")
		if !ok {
			return wsdl.Errorf(w.defs.Data, el, "a bare message part whose element has an anonymous type: not supported yet")
		}
		t, _, err := el.QNameAttr("type")
		if err != nil {
			return err
		}
		if declares(el, typ) {
			return wsdl.Errorf(w.defs.Data, el, "a bare message part whose element declares the namespace of its own type: not supported yet")
		}
		minOccurs := "0"
		if (t.Space == wsdl.NamespaceXSD && valueTypes[t.Local]) || t.Space == wsdl.NamespaceMSTypes || (t.Space == w.defs.TNS && w.simpleType(t.Local)) {
			minOccurs = "1"
		}
		nillable := ""
		if v, ok := el.Attr("nillable"); ok {
			nillable = ` nillable="` + v + `"`
		}
		fmt.Fprintf(&w.added, `<%selement minOccurs="%s" maxOccurs="1" name="%s"%s type="%s" />`, xs, minOccurs, q.Local, nillable, typ)
	}
	fmt.Fprintf(&w.added, `</%ssequence></%scomplexType></%selement>`, xs, xs, xs)
	// The message becomes one part naming the wrapper, keeping its line count.
	p := msg.Raw.Space
	if p != "" {
		p += ":"
	}
	lines := bytes.Count(w.defs.Data[msg.Start:msg.End], []byte("\n"))
	w.edits = append(w.edits, edit{start: msg.Start, end: msg.End, text: fmt.Sprintf(`<%smessage name="%s"><%spart name="parameters" element="bare:%s" xmlns:bare="%s" />%s</%smessage>`,
		p, attr(msg, "name"), p, name, attrEscaper.Replace(w.defs.TNS), strings.Repeat("\n", lines), p)})
	return nil
}

// simpleType reports whether the service schema defines the simple type name (an enumeration).
func (w *wrapper) simpleType(name string) bool {
	for _, s := range w.defs.Schemas {
		for _, c := range s.Elements(wsdl.NamespaceXSD, "simpleType") {
			if n, _ := c.Attr("name"); n == name {
				return true
			}
		}
	}
	return false
}

// declares reports whether element el declares the prefix of QName qname itself (xmlns:p, or xmlns
// for an unprefixed name): the wrapper element that copies the type sits at the schema's end, where
// only the schema's and the document's declarations are in scope.
func declares(el *wsdl.Node, qname string) bool {
	prefix, _, prefixed := strings.Cut(qname, ":")
	for _, a := range el.Attrs {
		if (prefixed && a.Name.Space == "xmlns" && a.Name.Local == prefix) || (!prefixed && a.Name.Space == "" && a.Name.Local == "xmlns") {
			return true
		}
	}
	return false
}

// soapPortTypes are the portTypes a SOAP binding of defs implements, in document order.
func soapPortTypes(defs *wsdl.Definitions) []*wsdl.Node {
	var pts []*wsdl.Node
	seen := map[*wsdl.Node]bool{}
	for _, b := range defs.Bindings.Order {
		soap := false
		for _, c := range b.Children {
			soap = soap || c.Is(wsdl.NamespaceSOAP11, "binding") || c.Is(wsdl.NamespaceSOAP12, "binding")
		}
		if !soap {
			continue
		}
		pt, err := defs.PortTypes.Resolve(b, "type", defs.TNS)
		if err != nil || seen[pt] {
			continue // the model reports a binding of no portType
		}
		seen[pt] = true
		pts = append(pts, pt)
	}
	return pts
}

// messageName is the operation's identity as the model reads it: its input's name when it has one
// (ASMX's MessageName), else its own.
func messageName(op *wsdl.Node) string {
	for _, in := range op.Elements(wsdl.NamespaceWSDL, "input") {
		if n, ok := in.Attr("name"); ok && n != "" {
			return n
		}
	}
	return attr(op, "name")
}

func attr(n *wsdl.Node, name string) string {
	v, _ := n.Attr(name)
	return v
}
