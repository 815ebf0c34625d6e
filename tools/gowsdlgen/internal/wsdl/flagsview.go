package wsdl

import "fmt"

// plainFlags gives gowsdl each [Flags] enumeration (a named simple type holding an xs:list, shapes
// §11: Perm) as a restriction of xsd:unsignedLong, of which gowsdl v0.5.0 declares `type Perm uint64`,
// the Go type the generator gives a flags value (one bit per member); for the list itself it would
// declare `type Perm interface{}`. The list's members are read by the contract model, which refuses
// a list of any other shape.
func plainFlags(defs *Definitions) ([]replacement, error) {
	var repl []replacement
	for _, s := range defs.Schemas {
		if tns, _ := s.Attr("targetNamespace"); tns != defs.TNS {
			continue
		}
		for _, st := range s.Elements(NamespaceXSD, "simpleType") {
			lists := st.Elements(NamespaceXSD, "list")
			if len(lists) != 1 || len(st.Children) != 1 {
				continue
			}
			prefix, ok := prefixFor(lists[0].scope, NamespaceXSD)
			if !ok {
				return nil, fmt.Errorf("<%s> at byte %d: no prefix is bound to %s there, so its list cannot be written as an xsd:unsignedLong", qualified(lists[0].Raw), lists[0].Start, NamespaceXSD)
			}
			el, base := "restriction", "unsignedLong"
			if prefix != "" {
				el, base = prefix+":"+el, prefix+":"+base
			}
			repl = append(repl, replacement{Start: lists[0].Start, End: lists[0].End, text: "<" + el + ` base="` + base + `" />`})
		}
	}
	return repl, nil
}
