package wsdl

import (
	"encoding/xml"
	"errors"
	"fmt"
	"slices"
)

// Component names one piece of a WSDL document that the SOAP-only view leaves out.
type Component struct {
	// Kind is the WSDL or XSD element kind: "binding", "portType", "message", "service", "port",
	// "element" (a top-level schema element) or "documentation" (a portType operation's description;
	// its Name is "portType/operation").
	Kind string
	// Name is the component's name attribute; for a port it is "service/port".
	Name string
}

// String returns the component as "kind name", the form error messages and logs use.
func (c Component) String() string { return c.Kind + " " + c.Name }

// View is the SOAP-only view of a WSDL document: the document with every part that only the non-SOAP
// bindings need cut out. Everything kept is byte-for-byte as written, so prefixes, comments and layout
// survive and a reader can diff the view against the contract.
type View struct {
	// WSDL is the view itself.
	WSDL []byte
	// Dropped lists what was cut, in document order.
	Dropped []Component
}

// SOAPView derives the SOAP-only view of a WSDL 1.1 document.
//
// gowsdl generates a client interface per portType and a Go type per global schema element, so on an
// ASMX-shaped contract the HTTP GET/POST bindings produce interfaces with broken signatures (their
// messages use type= parts or no parts at all) and their bare global elements become types such as
// `type int int32`, which shadows Go's int. The view keeps only what the SOAP bindings reach:
//
//   - bindings whose binding extension is soap:binding or soap12:binding;
//   - the portTypes those bindings implement, and the messages those portTypes use;
//   - service ports whose binding is kept (a service none of whose ports survive goes entirely);
//   - every schema component, except top-level elements that only dropped messages refer to — an
//     element a kept message or any schema ref/substitutionGroup refers to stays;
//   - overloads (operations whose wsdl:input has a name other than theirs) renamed to that input name,
//     their message name, so gowsdl's client methods are not duplicates (overloadNames);
//   - every schema, except one of another namespace than the contract's that nothing kept refers to:
//     ASMX's AbstractTypes schema, which only the HTTP messages' array parts name, and whose import
//     of the SOAP encoding namespace gowsdl could not resolve (the Microsoft guid schema is handled
//     by plainGUIDs).
//
// It also drops the descriptions (wsdl:documentation) of the kept portTypes' operations: gowsdl
// copies one into a "/* */" comment, which a "*/" in it ends; the post-processing step writes them
// as "//" lines from the contract model instead.
//
// Every decision resolves QName attributes against the namespaces in scope, never name patterns, so a
// renamed binding or a different prefix cannot change the result.
func SOAPView(data []byte) (*View, error) {
	defs, err := Read(data)
	if err != nil {
		return nil, err
	}
	view, _, err := defs.View()
	return view, err
}

// soapView derives the SOAP-only view (see SOAPView) and also returns the elements it cuts, so what
// is derived from the contract's schemas can leave out what gowsdl never sees.
func (defs *Definitions) View() (*View, map[*Node]bool, error) {
	keptBindings := make(map[*Node]bool)
	keptPortTypes := make(map[*Node]bool)
	for _, b := range defs.Bindings.Order {
		if !isSOAPBinding(b) {
			continue
		}
		keptBindings[b] = true
		pt, err := defs.PortTypes.Resolve(b, "type", defs.TNS)
		if err != nil {
			return nil, nil, err
		}
		keptPortTypes[pt] = true
	}
	if len(keptBindings) == 0 {
		return nil, nil, errors.New("no wsdl:binding has a SOAP 1.1 or SOAP 1.2 binding extension: nothing to generate")
	}

	keptMessages := make(map[*Node]bool)
	for _, pt := range defs.PortTypes.Order {
		if !keptPortTypes[pt] {
			continue
		}
		for _, op := range pt.Elements(NamespaceWSDL, "operation") {
			for _, io := range op.Children {
				if !io.Is(NamespaceWSDL, "input") && !io.Is(NamespaceWSDL, "output") && !io.Is(NamespaceWSDL, "fault") {
					continue
				}
				m, err := defs.Messages.Resolve(io, "message", defs.TNS)
				if err != nil {
					return nil, nil, err
				}
				keptMessages[m] = true
			}
		}
	}

	var drop []dropped
	// gowsdl copies an operation's description into a "/* */" comment, which a "*/" in it ends (and
	// the generated file does not parse); so it never sees one, and the post-processing step writes
	// each as "//" lines from the contract model instead.
	for _, pt := range defs.PortTypes.Order {
		if !keptPortTypes[pt] {
			continue
		}
		ptName, _ := pt.Attr("name")
		for _, op := range pt.Elements(NamespaceWSDL, "operation") {
			opName, _ := op.Attr("name")
			for _, doc := range op.Elements(NamespaceWSDL, "documentation") {
				drop = append(drop, dropped{Component{"documentation", ptName + "/" + opName}, doc})
			}
		}
	}
	drop = appendUnkept(drop, "binding", defs.Bindings, keptBindings)
	drop = appendUnkept(drop, "portType", defs.PortTypes, keptPortTypes)
	drop = appendUnkept(drop, "message", defs.Messages, keptMessages)

	for _, svc := range defs.Services {
		svcName, _ := svc.Attr("name")
		ports := svc.Elements(NamespaceWSDL, "port")
		var gone []dropped
		for _, p := range ports {
			b, err := defs.Bindings.Resolve(p, "binding", defs.TNS)
			if err != nil {
				return nil, nil, err
			}
			if !keptBindings[b] {
				name, _ := p.Attr("name")
				gone = append(gone, dropped{Component{"port", svcName + "/" + name}, p})
			}
		}
		if len(ports) > 0 && len(gone) == len(ports) {
			drop = append(drop, dropped{Component{"service", svcName}, svc})
			continue
		}
		drop = append(drop, gone...)
	}

	elems, err := unreachableElements(defs, keptMessages)
	if err != nil {
		return nil, nil, err
	}
	drop = append(drop, elems...)

	guidDrops, repl, err := plainGUIDs(defs)
	if err != nil {
		return nil, nil, err
	}
	drop = append(drop, guidDrops...)
	flagRepl, err := plainFlags(defs)
	if err != nil {
		return nil, nil, err
	}
	repl = append(repl, flagRepl...)
	overloads, err := overloadNames(defs, keptPortTypes, keptBindings)
	if err != nil {
		return nil, nil, err
	}
	repl = append(repl, overloads...)
	slices.SortFunc(repl, func(a, b replacement) int { return a.Start - b.Start })

	schemaDrops, err := unreferencedSchemas(defs, keptMessages)
	if err != nil {
		return nil, nil, err
	}
	drop = append(drop, schemaDrops...)

	slices.SortFunc(drop, func(a, b dropped) int { return a.node.Start - b.node.Start })
	view := &View{WSDL: cut(defs.Data, drop, repl)}
	cutNodes := make(map[*Node]bool, len(drop))
	for _, d := range drop {
		view.Dropped = append(view.Dropped, d.Component)
		cutNodes[d.node] = true
	}
	return view, cutNodes, nil
}

// unreferencedSchemas returns the schemas of another target namespace than the contract's (and
// Microsoft's, see plainGUIDs) that no kept message part and no other schema refers to by a QName
// attribute, with every import of their namespace.
func unreferencedSchemas(defs *Definitions, keptMessages map[*Node]bool) ([]dropped, error) {
	var out []dropped
	for _, s := range defs.Schemas {
		tns, _ := s.Attr("targetNamespace")
		if tns == defs.TNS || tns == NamespaceMSTypes {
			continue
		}
		used := false
		for _, m := range defs.Messages.Order {
			if !keptMessages[m] {
				continue
			}
			for _, part := range m.Elements(NamespaceWSDL, "part") {
				for _, attr := range []string{"element", "type"} {
					q, ok, err := part.QNameAttr(attr)
					if err != nil {
						return nil, err
					}
					used = used || ok && q.Space == tns
				}
			}
		}
		var err error
		for _, other := range defs.Schemas {
			if other == s {
				continue
			}
			other.Walk(func(n *Node) {
				if err != nil || n.Name.Space != NamespaceXSD {
					return
				}
				for _, attr := range []string{"type", "base", "ref", "itemType", "substitutionGroup"} {
					q, ok, qerr := n.QNameAttr(attr)
					if qerr != nil {
						err = qerr
						return
					}
					used = used || ok && q.Space == tns
				}
			})
		}
		if err != nil {
			return nil, err
		}
		if used {
			continue
		}
		out = append(out, dropped{Component{"schema", tns}, s})
		for _, other := range defs.Schemas {
			for _, c := range other.Children {
				if ns, _ := c.Attr("namespace"); other != s && c.Is(NamespaceXSD, "import") && ns == tns {
					out = append(out, dropped{Component{"import", tns}, c})
				}
			}
		}
	}
	return out, nil
}

// dropped pairs a component with the element that holds it.
type dropped struct {
	Component
	node *Node
}

// Definitions is a WSDL document read once: its bytes, and the top level of its wsdl:definitions
// element indexed. The contract model, the SOAP-only view and the required and retyped fields are all
// derived from it, so the document is parsed once per run.
type Definitions struct {
	Data                          []byte
	TNS                           string
	Messages, PortTypes, Bindings Table
	Services                      []*Node
	Schemas                       []*Node
}

// Table holds the WSDL components of one kind by local name (they are all in the target namespace),
// and in document order so results never depend on map iteration.
type Table struct {
	kind   string
	byName map[string]*Node
	Order  []*Node
}

// Read parses a WSDL document and indexes its top level.
func Read(data []byte) (*Definitions, error) {
	root, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	if !root.Is(NamespaceWSDL, "definitions") {
		return nil, fmt.Errorf("root element is {%s}%s, not a WSDL 1.1 definitions element", root.Name.Space, root.Name.Local)
	}
	tns, _ := root.Attr("targetNamespace")
	defs := &Definitions{
		Data:      data,
		TNS:       tns,
		Messages:  Table{kind: "message", byName: map[string]*Node{}},
		PortTypes: Table{kind: "portType", byName: map[string]*Node{}},
		Bindings:  Table{kind: "binding", byName: map[string]*Node{}},
	}
	for _, c := range root.Children {
		if c.Name.Space != NamespaceWSDL {
			continue
		}
		var t *Table
		switch c.Name.Local {
		case "types":
			defs.Schemas = append(defs.Schemas, c.Elements(NamespaceXSD, "schema")...)
			continue
		case "service":
			defs.Services = append(defs.Services, c)
			continue
		case "message":
			t = &defs.Messages
		case "portType":
			t = &defs.PortTypes
		case "binding":
			t = &defs.Bindings
		default:
			continue
		}
		name, ok := c.Attr("name")
		if !ok {
			return nil, fmt.Errorf("wsdl:%s at byte %d has no name", t.kind, c.Start)
		}
		if t.byName[name] != nil {
			return nil, fmt.Errorf("wsdl:%s %q is defined twice", t.kind, name)
		}
		t.byName[name] = c
		t.Order = append(t.Order, c)
	}
	return defs, nil
}

// resolve finds the component that from's QName attribute names. A reference that does not resolve is
// an error rather than a reason to drop something: the view must not paper over a broken contract.
func (t Table) Resolve(from *Node, attr, tns string) (*Node, error) {
	q, ok, err := from.QNameAttr(attr)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("<%s> at byte %d has no %s attribute", qualified(from.Raw), from.Start, attr)
	}
	if n := t.byName[q.Local]; n != nil && q.Space == tns {
		return n, nil
	}
	return nil, fmt.Errorf("<%s> at byte %d: %s=%q names no wsdl:%s in this document", qualified(from.Raw), from.Start, attr, q.Local, t.kind)
}

func appendUnkept(drop []dropped, kind string, t Table, kept map[*Node]bool) []dropped {
	for _, n := range t.Order {
		if !kept[n] {
			name, _ := n.Attr("name")
			drop = append(drop, dropped{Component{kind, name}, n})
		}
	}
	return drop
}

// isSOAPBinding reports whether a wsdl:binding's binding extension is SOAP 1.1 or SOAP 1.2.
func isSOAPBinding(b *Node) bool {
	for _, c := range b.Children {
		if c.Is(NamespaceSOAP11, "binding") || c.Is(NamespaceSOAP12, "binding") {
			return true
		}
	}
	return false
}

// unreachableElements returns the top-level schema elements that dropped messages refer to and nothing
// kept does: no kept message part, and no element ref or substitutionGroup outside the element itself.
// Other schema components stay even when only those elements used them (the complexType Contact, say),
// because gowsdl emits them harmlessly and the SOAP messages usually need them anyway.
func unreachableElements(defs *Definitions, keptMessages map[*Node]bool) ([]dropped, error) {
	global := make(map[xml.Name]*Node)
	for _, s := range defs.Schemas {
		tns, _ := s.Attr("targetNamespace")
		for _, e := range s.Elements(NamespaceXSD, "element") {
			if name, ok := e.Attr("name"); ok {
				global[xml.Name{Space: tns, Local: name}] = e
			}
		}
	}

	needed := make(map[xml.Name]bool)
	var candidates []xml.Name
	for _, m := range defs.Messages.Order {
		for _, part := range m.Elements(NamespaceWSDL, "part") {
			q, ok, err := part.QNameAttr("element")
			if err != nil {
				return nil, err
			}
			switch {
			case !ok:
			case keptMessages[m]:
				needed[q] = true
			case !slices.Contains(candidates, q):
				candidates = append(candidates, q)
			}
		}
	}

	type ref struct {
		to   xml.Name
		from *Node
	}
	var refs []ref
	for _, s := range defs.Schemas {
		var err error
		s.Walk(func(n *Node) {
			if err != nil || !n.Is(NamespaceXSD, "element") {
				return
			}
			for _, attr := range []string{"ref", "substitutionGroup"} {
				q, ok, qerr := n.QNameAttr(attr)
				if qerr != nil {
					err = qerr
					return
				}
				if ok {
					refs = append(refs, ref{q, n})
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}

	var out []dropped
	for _, q := range candidates {
		e := global[q]
		if e == nil || needed[q] {
			continue
		}
		if slices.ContainsFunc(refs, func(r ref) bool { return r.to == q && !e.Contains(r.from) }) {
			continue
		}
		out = append(out, dropped{Component{"element", q.Local}, e})
	}
	return out, nil
}

// cut returns data without the dropped elements and with the replacements made. An element alone on
// its lines goes with its indentation and line break, so the view has no blank lines where components
// used to be; an element sharing a line with other markup loses exactly its own bytes. drop and repl
// must be sorted by start; a replacement inside a dropped element is not made.
func cut(data []byte, drop []dropped, repl []replacement) []byte {
	type span struct {
		Start, End int
		text       string
	}
	var spans []span
	for _, d := range drop {
		start, end := lineSpan(data, d.node.Start, d.node.End)
		spans = append(spans, span{start, end, ""})
	}
	for _, r := range repl {
		spans = append(spans, span(r))
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.Start - b.Start })
	out := make([]byte, 0, len(data))
	pos := 0
	for _, s := range spans {
		if s.Start < pos { // inside a range already cut
			if s.text != "" {
				continue
			}
			s.Start = pos
		}
		if s.End <= s.Start {
			continue
		}
		out = append(out, data[pos:s.Start]...)
		out = append(out, s.text...)
		pos = s.End
	}
	return append(out, data[pos:]...)
}

// lineSpan widens [start, end) to whole lines when only blanks share those lines with it.
func lineSpan(data []byte, start, end int) (int, int) {
	s := start
	for s > 0 && (data[s-1] == ' ' || data[s-1] == '\t') {
		s--
	}
	if s > 0 && data[s-1] != '\n' {
		return start, end
	}
	e := end
	for e < len(data) && (data[e] == ' ' || data[e] == '\t') {
		e++
	}
	switch {
	case e == len(data):
	case data[e] == '\n':
		e++
	case data[e] == '\r' && e+1 < len(data) && data[e+1] == '\n':
		e += 2
	default:
		return start, end
	}
	return s, e
}
