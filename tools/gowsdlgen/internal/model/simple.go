package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// flags reads the xs:list of a named simple type as a [Flags] enumeration into t.
func (m *modeler) flags(t *Type, list *wsdl.Node) (*Type, error) {
	t.Kind = KindFlags
	var restrictions []*wsdl.Node
	if item := list.Children; len(item) == 1 && item[0].Is(wsdl.NamespaceXSD, "simpleType") && len(item[0].Children) == 1 {
		restrictions = item[0].Elements(wsdl.NamespaceXSD, "restriction")
	}
	if _, has := list.Attr("itemType"); has || len(restrictions) != 1 {
		return nil, modelError(m.data, list, "a list type must hold an anonymous enumeration, as ASMX writes a [Flags] enumeration")
	}
	var err error
	if t.Enum, err = m.members(restrictions[0]); err != nil {
		return nil, err
	}
	bits := len(t.Enum)
	if bits > 0 && t.Enum[0] == "None" {
		bits--
	}
	if bits == 0 || bits > 64 {
		return nil, modelError(m.data, list, "a [Flags] enumeration needs 1 to 64 members besides None (one bit each); this one has %d", bits)
	}
	m.done[t.Name] = t
	m.c.Types = append(m.c.Types, t)
	return t, nil
}

// members reads an enumeration's member names: a restriction of xsd:string with xs:enumeration facets.
func (m *modeler) members(r *wsdl.Node) ([]string, error) {
	base, _, err := r.QNameAttr("base")
	if err != nil || base.Space != wsdl.NamespaceXSD || base.Local != "string" {
		return nil, modelError(m.data, r, "an enumeration must restrict xsd:string")
	}
	var names []string
	for _, e := range r.Children {
		if !e.Is(wsdl.NamespaceXSD, "enumeration") {
			return nil, modelError(m.data, e, "only xs:enumeration facets are supported")
		}
		v, _ := e.Attr("value")
		names = append(names, v)
	}
	return names, nil
}
