package wsdl

import (
	"encoding/xml"
	"slices"
)

// WithoutOperations returns the document without the operations drop names: their portType and
// binding operations (in every portType and binding), the messages only they use, and the top-level
// schema components (elements, complex and simple types, in any schema) that no kept message reaches,
// directly or through the components it reaches (type, base, itemType, ref, substitutionGroup). What
// is kept stays byte for byte as written. It serves a test-only generator flag (-skip-ops), which
// generates the part of a contract the generator carries so far.
func (defs *Definitions) WithoutOperations(drop func(name string) bool) ([]byte, error) {
	var cutOut []dropped
	keptMessages := map[*Node]bool{}
	usedBy := map[*Node]bool{} // messages a dropped operation uses
	for _, pt := range defs.PortTypes.Order {
		for _, op := range pt.Elements(NamespaceWSDL, "operation") {
			name, _ := op.Attr("name")
			for _, io := range op.Children {
				if !io.Is(NamespaceWSDL, "input") && !io.Is(NamespaceWSDL, "output") && !io.Is(NamespaceWSDL, "fault") {
					continue
				}
				m, err := defs.Messages.Resolve(io, "message", defs.TNS)
				if err != nil {
					return nil, err
				}
				if drop(name) {
					usedBy[m] = true
				} else {
					keptMessages[m] = true
				}
			}
			if drop(name) {
				cutOut = append(cutOut, dropped{Component{"operation", name}, op})
			}
		}
	}
	for _, b := range defs.Bindings.Order {
		for _, op := range b.Elements(NamespaceWSDL, "operation") {
			name, _ := op.Attr("name")
			if drop(name) {
				cutOut = append(cutOut, dropped{Component{"operation", name}, op})
			}
			// The messages of its SOAP headers (soap:header in the binding, not the portType).
			for _, io := range op.Children {
				for _, ns := range []string{NamespaceSOAP11, NamespaceSOAP12} {
					for _, h := range io.Elements(ns, "header") {
						m, err := defs.Messages.Resolve(h, "message", defs.TNS)
						if err != nil {
							return nil, err
						}
						if drop(name) {
							usedBy[m] = true
						} else {
							keptMessages[m] = true
						}
					}
				}
			}
		}
	}
	for _, m := range defs.Messages.Order {
		if usedBy[m] && !keptMessages[m] {
			name, _ := m.Attr("name")
			cutOut = append(cutOut, dropped{Component{"message", name}, m})
		}
	}

	// The schema components, by kind and QName.
	components := map[key]*Node{}
	var order []*Node
	for _, s := range defs.Schemas {
		tns, _ := s.Attr("targetNamespace")
		for _, c := range s.Children {
			name, ok := c.Attr("name")
			if !ok {
				continue
			}
			switch {
			case c.Is(NamespaceXSD, "element"):
				components[key{true, xml.Name{Space: tns, Local: name}}] = c
			case c.Is(NamespaceXSD, "complexType"), c.Is(NamespaceXSD, "simpleType"):
				components[key{false, xml.Name{Space: tns, Local: name}}] = c
			default:
				continue
			}
			order = append(order, c)
		}
	}
	reached := map[*Node]bool{}
	var queue []*Node
	reach := func(k key) {
		if c := components[k]; c != nil && !reached[c] {
			reached[c] = true
			queue = append(queue, c)
		}
	}
	for _, m := range defs.Messages.Order {
		if !keptMessages[m] {
			continue
		}
		for _, part := range m.Elements(NamespaceWSDL, "part") {
			for attr, element := range map[string]bool{"element": true, "type": false} {
				q, ok, err := part.QNameAttr(attr)
				if err != nil {
					return nil, err
				}
				if ok {
					reach(key{element, q})
				}
			}
		}
	}
	// A type derived from a reached one is reached too: a value of the base may be one of it
	// (xsi:type), so an operation using the base uses it.
	derived := map[*Node][]key{} // complex type -> the bases it derives from
	for _, c := range order {
		c.Walk(func(n *Node) {
			if n.Is(NamespaceXSD, "extension") || n.Is(NamespaceXSD, "restriction") {
				if q, ok, err := n.QNameAttr("base"); err == nil && ok && c.Is(NamespaceXSD, "complexType") {
					derived[c] = append(derived[c], key{false, q})
				}
			}
		})
	}
	for len(queue) > 0 {
		for len(queue) > 0 {
			if err := walkReached(queue[0], reach); err != nil {
				return nil, err
			}
			queue = queue[1:]
		}
		for _, c := range order {
			for _, base := range derived[c] {
				if b := components[base]; b != nil && reached[b] && !reached[c] {
					reached[c] = true
					queue = append(queue, c)
				}
			}
		}
	}
	for _, c := range order {
		if !reached[c] {
			name, _ := c.Attr("name")
			cutOut = append(cutOut, dropped{Component{c.Name.Local, name}, c})
		}
	}
	slices.SortFunc(cutOut, func(a, b dropped) int { return a.node.Start - b.node.Start })
	return cut(defs.Data, cutOut, nil), nil
}

// walkReached calls reach for every component c refers to.
func walkReached(c *Node, reach func(key)) error {
	var err error
	c.Walk(func(n *Node) {
		if err != nil || n.Name.Space != NamespaceXSD {
			return
		}
		for _, attr := range []string{"type", "base", "itemType", "ref", "substitutionGroup"} {
			q, ok, qerr := n.QNameAttr(attr)
			if qerr != nil {
				err = qerr
				return
			}
			if ok {
				reach(key{attr == "ref" || attr == "substitutionGroup", q})
			}
		}
	})
	return err
}

// key names a top-level schema component: an element, or a (complex or simple) type.
type key struct {
	element bool
	name    xml.Name
}
