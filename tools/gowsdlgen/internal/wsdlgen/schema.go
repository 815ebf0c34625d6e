package wsdlgen

import (
	"encoding/xml"
	"fmt"
	"strconv"
)

// Field is a child element the schema requires: its effective minOccurs is at least 1, so a Go field
// generated for it must be marshalled even when it holds the zero value.
type Field struct {
	// Owner names the schema component gowsdl turns into a Go struct: a top-level element with an
	// anonymous complex type, or a top-level named complex type.
	Owner string
	// Path holds the XML names from the owner down to the element: one name for a direct child, more
	// for an element inside the anonymous complex type of a child element.
	Path []string
}

// RequiredFields lists the elements of a WSDL document's schemas whose effective minOccurs is at least
// 1, in document order.
//
// gowsdl v0.5.0 tags every field omitempty, which is wrong for such elements: VersionMajorResult
// (xsd:int, minOccurs="1") would vanish from the response whenever the version is 0. An absent
// minOccurs counts as 1, as XML Schema defines. "Effective" multiplies in the minOccurs of enclosing
// sequence, choice and all groups, and an element that is one of several alternatives of a choice is
// never required, because another alternative may stand in its place.
func RequiredFields(data []byte) ([]Field, error) {
	defs, err := readDefinitions(data)
	if err != nil {
		return nil, err
	}
	return defs.requiredFields(nil)
}

// requiredFields is RequiredFields of the document without the components in cut.
func (defs *definitions) requiredFields(cut map[*node]bool) ([]Field, error) {
	var fields []Field
	err := defs.structOwners(cut, func(owner string, ct *node) error {
		var err error
		fields, err = requiredIn(fields, ct, owner, nil)
		return err
	})
	return fields, err
}

// structOwners calls fn, in document order, with each schema component gowsdl turns into a Go struct
// of its own — a named complex type, or a top-level element with an anonymous complex type — by name,
// with that complex type. Components in cut (what the SOAP-only view leaves out, so gowsdl never sees
// them) and the schemas in cut are passed over.
func (defs *definitions) structOwners(cut map[*node]bool, fn func(owner string, ct *node) error) error {
	for _, s := range defs.schemas {
		if cut[s] {
			continue
		}
		for _, c := range s.children {
			name, _ := c.attr("name")
			var ct *node
			switch {
			case c.is(NamespaceXSD, "complexType"):
				ct = c
			case c.is(NamespaceXSD, "element"):
				if inline := c.elements(NamespaceXSD, "complexType"); len(inline) == 1 {
					ct = inline[0]
				}
			}
			if ct == nil || name == "" || cut[c] {
				continue
			}
			if err := fn(name, ct); err != nil {
				return err
			}
		}
	}
	return nil
}

// requiredIn appends the required elements of complex type ct, whose struct is owner's and sits at path.
func requiredIn(fields []Field, ct *node, owner string, path []string) ([]Field, error) {
	for _, c := range ct.children {
		var err error
		switch {
		case isGroup(c):
			fields, err = requiredInGroup(fields, c, 1, owner, path)
		case c.is(NamespaceXSD, "complexContent"):
			// The extension or restriction holds the content model; an extension's base type is a
			// separate struct, embedded by gowsdl, and is covered where that type is defined.
			for _, der := range c.children {
				if der.is(NamespaceXSD, "extension") || der.is(NamespaceXSD, "restriction") {
					fields, err = requiredIn(fields, der, owner, path)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return fields, nil
}

func isGroup(n *node) bool {
	return n.is(NamespaceXSD, "sequence") || n.is(NamespaceXSD, "choice") || n.is(NamespaceXSD, "all")
}

// requiredInGroup appends the required elements of a sequence, choice or all group. outerMin is 1 when
// the group's parent is always present wherever the struct is, 0 when it may be absent; only that
// distinction matters, so counts are clamped to it rather than multiplied out.
func requiredInGroup(fields []Field, group *node, outerMin int, owner string, path []string) ([]Field, error) {
	groupMin, err := minOccurs(group)
	if err != nil {
		return nil, err
	}
	groupMin = min(groupMin, 1) * outerMin
	if group.is(NamespaceXSD, "choice") && countParticles(group) > 1 {
		groupMin = 0
	}
	for _, c := range group.children {
		switch {
		case isGroup(c):
			fields, err = requiredInGroup(fields, c, groupMin, owner, path)
		case c.is(NamespaceXSD, "element"):
			fields, err = requiredElement(fields, c, groupMin, owner, path)
		}
		if err != nil {
			return nil, err
		}
	}
	return fields, nil
}

func requiredElement(fields []Field, el *node, groupMin int, owner string, path []string) ([]Field, error) {
	name, ok := el.attr("name")
	if !ok {
		q, isRef, err := el.qnameAttr("ref")
		if err != nil {
			return nil, err
		}
		if !isRef {
			return nil, fmt.Errorf("xs:element at byte %d has neither name nor ref", el.start)
		}
		name = q.Local // gowsdl names a ref field and its XML tag after the referenced element
	}
	elemMin, err := minOccurs(el)
	if err != nil {
		return nil, err
	}
	here := append(path[:len(path):len(path)], name)
	if elemMin >= 1 && groupMin == 1 {
		fields = append(fields, Field{Owner: owner, Path: here})
	}
	// An anonymous complex type becomes an inline struct whose fields have their own omitempty,
	// which applies whenever the parent element is present, whether or not the parent is required.
	for _, ct := range el.elements(NamespaceXSD, "complexType") {
		if fields, err = requiredIn(fields, ct, owner, here); err != nil {
			return nil, err
		}
	}
	return fields, nil
}

func countParticles(group *node) int {
	n := 0
	for _, c := range group.children {
		if isGroup(c) || c.is(NamespaceXSD, "element") || c.is(NamespaceXSD, "any") || c.is(NamespaceXSD, "group") {
			n++
		}
	}
	return n
}

// minOccurs returns a particle's minOccurs; XML Schema's default is 1.
func minOccurs(n *node) (int, error) {
	v, ok := n.attr("minOccurs")
	if !ok {
		return 1, nil
	}
	m, err := strconv.Atoi(v)
	if err != nil || m < 0 {
		return 0, fmt.Errorf("<%s> at byte %d: minOccurs=%q is not a non-negative integer", qualified(n.raw), n.start, v)
	}
	return m, nil
}

// TypedField is an element whose Go type the runtime provides instead of gowsdl's choice.
type TypedField struct {
	Field
	// GoType is the runtime type: "wire.Decimal" or "wire.GUID"; "" when only Deref applies.
	GoType string
	// Deref marks an element of an enumeration type that is required and not nillable: gowsdl makes
	// every field of a named type a pointer, but such a value is always present, as .NET's enum
	// value types are, so the field holds the value itself (its zero value stands for the first
	// member, as .NET's default does).
	Deref bool
}

// runtimeTypes are the schema types gowsdl maps to a Go type that cannot hold their values, and the
// runtime types that can: gowsdl v0.5.0 makes xsd:decimal a float64, which loses the scale ASMX keeps
// (1.10 would come back as 1.1) and the digits beyond 17, and Microsoft's guid, which the SOAP-only
// view turns into xsd:string (see plainGUIDs), a string no one validates.
var runtimeTypes = map[xml.Name]string{
	{Space: NamespaceXSD, Local: "decimal"}:  "wire.Decimal",
	{Space: NamespaceMSTypes, Local: "guid"}: "wire.GUID",
}

// TypedFields lists the elements of a WSDL document's schemas whose type is one of runtimeTypes, in
// document order, under the same owners and paths as RequiredFields.
func TypedFields(data []byte) ([]TypedField, error) {
	defs, err := readDefinitions(data)
	if err != nil {
		return nil, err
	}
	return defs.typedFields(nil)
}

// typedFields is TypedFields of the document without the components in cut.
func (defs *definitions) typedFields(cut map[*node]bool) ([]TypedField, error) {
	enums := map[xml.Name]bool{}
	for _, s := range defs.schemas {
		tns, _ := s.attr("targetNamespace")
		for _, st := range s.elements(NamespaceXSD, "simpleType") {
			if name, ok := st.attr("name"); ok {
				enums[xml.Name{Space: tns, Local: name}] = true
			}
		}
	}
	var out []TypedField
	var walk func(n *node, owner string, path []string) error
	walk = func(n *node, owner string, path []string) error {
		for _, c := range n.children {
			if !c.is(NamespaceXSD, "element") {
				if c.name.Space == NamespaceXSD && !c.is(NamespaceXSD, "simpleType") {
					if err := walk(c, owner, path); err != nil {
						return err
					}
				}
				continue
			}
			name, ok := c.attr("name")
			if !ok {
				continue // a ref: the referenced element is a top-level one, covered on its own
			}
			here := append(path[:len(path):len(path)], name)
			q, ok, err := c.qnameAttr("type")
			if err != nil {
				return err
			}
			min, _ := c.attr("minOccurs")
			nillable, _ := c.attr("nillable")
			switch {
			case !ok:
			case runtimeTypes[q] != "":
				out = append(out, TypedField{Field: Field{Owner: owner, Path: here}, GoType: runtimeTypes[q]})
			case enums[q] && min != "0" && nillable != "true":
				out = append(out, TypedField{Field: Field{Owner: owner, Path: here}, Deref: true})
			}
			for _, ct := range c.elements(NamespaceXSD, "complexType") {
				if err := walk(ct, owner, here); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := defs.structOwners(cut, func(owner string, ct *node) error { return walk(ct, owner, nil) })
	return out, err
}
