package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// The small and unsigned integer kinds and ASMX's char (issue 33, shapes §7). Their Go types are
// gowsdl's own (int8, byte, uint16, uint32, uint64), except char, which the SOAP-only view gives
// gowsdl as xsd:unsignedShort (plainMSTypes) and PostProcess retypes to the runtime's xsd.Char.
const (
	KindByte          Kind = "KindByte"
	KindUnsignedByte  Kind = "KindUnsignedByte"
	KindUnsignedShort Kind = "KindUnsignedShort"
	KindUnsignedInt   Kind = "KindUnsignedInt"
	KindUnsignedLong  Kind = "KindUnsignedLong"
	KindChar          Kind = "KindChar"
)

// KindFlags is ASMX's [Flags] enumeration: an xsd:list of an anonymous enumeration of member names
// (shapes §11, Perm). Its Go type is a uint64 of bits, member i being 1<<i, except a first member named
// None, the zero value (xsd.FlagBit).
const KindFlags Kind = "KindFlags"

// maxFlags is the number of members a flags value can hold: 64 bits, 65 members with a first None.
const maxFlags = 64

// flags reads the xs:list of a named simple type as a [Flags] enumeration into t.
func (m *modeler) flags(t *Type, list *wsdl.Node) (*Type, error) {
	t.Kind = KindFlags
	if _, has := list.Attr("itemType"); has || len(list.Children) != 1 || !list.Children[0].Is(wsdl.NamespaceXSD, "simpleType") {
		return nil, modelError(m.data, list, "a list type must hold an anonymous enumeration, as ASMX writes a [Flags] enumeration")
	}
	item := list.Children[0]
	restrictions := item.Elements(wsdl.NamespaceXSD, "restriction")
	if len(restrictions) != 1 || len(item.Children) != 1 {
		return nil, modelError(m.data, item, "a [Flags] list's item type must be an enumeration (a restriction of xsd:string)")
	}
	var err error
	if t.Enum, err = m.members(restrictions[0]); err != nil {
		return nil, err
	}
	bits := len(t.Enum)
	if bits > 0 && t.Enum[0] == "None" {
		bits--
	}
	if bits == 0 || bits > maxFlags {
		return nil, modelError(m.data, list, "a [Flags] enumeration needs 1 to %d members besides None (one bit each); this one has %d", maxFlags, bits)
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
