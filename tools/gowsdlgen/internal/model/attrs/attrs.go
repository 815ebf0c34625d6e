// Package attrs reads the attributes and simple content of a named complex type (shapes README §11):
// <s:attribute> after the sequence, as ASMX writes a member marked [XmlAttribute], and
// <s:simpleContent><s:extension base="…"> with its attributes, as ASMX writes a class whose member
// is marked [XmlText]. Package model calls it for each named complex type; the rest of the type (its
// sequence, or a complexContent extension) stays model's.
//
// It imports the standard library, wsdl, contract and extension.
package attrs

import (
	"encoding/xml"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/contract"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/extension"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// TypeOf resolves the type QName in attribute attr of n (package model's typeOf).
type TypeOf func(n *wsdl.Node, attr string) (*contract.Type, error)

// Of is extension.Of of ct after Read: Read fills t.Attrs and t.Text, and Of returns ct without its
// attributes (rest), for the reading of its sequence, and ct's complexContent extension, if any,
// without the attributes a derived class's own [XmlAttribute] members put there (in t.Attrs). A
// simple-content type (t.Text set) has neither sequence nor extension: ok is false.
func Of(data []byte, ct *wsdl.Node, t *contract.Type, typeOf TypeOf) (rest, ext *wsdl.Node, base xml.Name, ok bool, err error) {
	rest, simple, err := Read(data, ct, t, typeOf)
	if err != nil || simple {
		return rest, nil, xml.Name{}, false, err
	}
	ext, base, ok, err = extension.Of(data, rest)
	if err != nil || !ok {
		return rest, ext, base, ok, err
	}
	ext, err = strip(data, ext, t, typeOf)
	return rest, ext, base, ok, err
}

// InHierarchy checks the attributes of t, a derived type whose Base is set, against its base
// chain's, then reads its own content from ext with sequence (package model's). A derived value
// carries its base chain's attributes before its own (contract.Type.AllAttrs), so one name cannot be
// declared on both; a base with simple content ([XmlText]) has no sequence for a derived type to
// extend, which ASMX would write as a simpleContent extension of a complex type instead.
func InHierarchy(data []byte, ext *wsdl.Node, t *contract.Type, sequence func(*wsdl.Node) ([]*contract.Field, error)) ([]*contract.Field, error) {
	for b := t.Base; b != nil; b = b.Base {
		if b.Text != nil {
			return nil, wsdl.Errorf(data, ext, "type %s extends %s, which has simple content ([XmlText]): text content in a hierarchy is not supported yet", t.Name, b.Name)
		}
	}
	if err := unique(data, ext, t.AllAttrs()); err != nil {
		return nil, err
	}
	return sequence(ext)
}

// Read reads the attributes of complex type ct into t.Attrs and, for simple content, its text type
// into t.Text. It returns ct without its attributes, for the reading of the sequence that follows,
// and whether the type is simple content (which has no sequence to read).
func Read(data []byte, ct *wsdl.Node, t *contract.Type, typeOf TypeOf) (rest *wsdl.Node, simple bool, err error) {
	contents := ct.Elements(wsdl.NamespaceXSD, "simpleContent")
	if len(contents) > 0 {
		return ct, true, simpleContent(data, ct, contents[0], t, typeOf)
	}
	rest, err = strip(data, ct, t, typeOf)
	return rest, false, err
}

// strip reads the attributes among n's children (a complex type's, or a complexContent extension's)
// into t.Attrs and returns n without them, for the reading of the sequence beside them.
func strip(data []byte, n *wsdl.Node, t *contract.Type, typeOf TypeOf) (*wsdl.Node, error) {
	var kept []*wsdl.Node
	before := len(t.Attrs)
	for _, c := range n.Children {
		if !c.Is(wsdl.NamespaceXSD, "attribute") {
			kept = append(kept, c)
			continue
		}
		a, err := attribute(data, c, typeOf)
		if err != nil {
			return nil, err
		}
		t.Attrs = append(t.Attrs, a)
	}
	if len(t.Attrs) == before {
		return n, nil
	}
	if err := unique(data, n, t.Attrs); err != nil {
		return nil, err
	}
	copied := *n
	copied.Children = kept
	return &copied, nil
}

// simpleContent reads <s:simpleContent><s:extension base="s:decimal"> and the extension's
// attributes: the only shape ASMX writes for [XmlText] beside [XmlAttribute] members.
func simpleContent(data []byte, ct, sc *wsdl.Node, t *contract.Type, typeOf TypeOf) error {
	for _, c := range ct.Children {
		if c != sc && !c.Is(wsdl.NamespaceXSD, "annotation") {
			return wsdl.Errorf(data, c, "%s beside simpleContent is outside XML Schema", c.Name.Local)
		}
	}
	var ext *wsdl.Node
	for _, c := range sc.Children {
		switch {
		case c.Is(wsdl.NamespaceXSD, "annotation"):
		case c.Is(wsdl.NamespaceXSD, "extension") && ext == nil:
			ext = c
		case c.Is(wsdl.NamespaceXSD, "restriction"):
			return wsdl.Errorf(data, c, "simpleContent restriction is outside the XSD subset an ASMX contract uses (ASMX writes an extension)")
		default:
			return wsdl.Errorf(data, c, "%s in simpleContent is outside the XSD subset an ASMX contract uses (one extension)", c.Name.Local)
		}
	}
	if ext == nil {
		return wsdl.Errorf(data, sc, "simpleContent needs an extension of a simple type")
	}
	text, err := typeOf(ext, "base")
	if err != nil {
		return err
	}
	if !text.Simple() || text.Kind == contract.KindComplex {
		return wsdl.Errorf(data, ext, "the base %s of a simpleContent extension is not a simple type", text.Name)
	}
	for _, c := range ext.Children {
		switch {
		case c.Is(wsdl.NamespaceXSD, "annotation"):
		case c.Is(wsdl.NamespaceXSD, "attribute"):
			a, err := attribute(data, c, typeOf)
			if err != nil {
				return err
			}
			t.Attrs = append(t.Attrs, a)
		default:
			return wsdl.Errorf(data, c, "%s in a simpleContent extension is outside the XSD subset an ASMX contract uses (attributes only)", c.Name.Local)
		}
	}
	t.Text = text
	return unique(data, ext, t.Attrs)
}

// attribute reads one <s:attribute name="rev" type="s:int" use="required" />.
func attribute(data []byte, n *wsdl.Node, typeOf TypeOf) (*contract.Attr, error) {
	name, ok := n.Attr("name")
	if !ok {
		if _, ref := n.Attr("ref"); ref {
			return nil, wsdl.Errorf(data, n, "an attribute reference (ref=, a qualified attribute: [XmlAttribute(Form = Qualified)] or a namespace) is not supported yet")
		}
		return nil, wsdl.Errorf(data, n, "an attribute needs a name")
	}
	a := &contract.Attr{Name: name}
	for _, x := range n.Attrs {
		switch x.Name.Local {
		case "name", "type":
		case "use":
			switch x.Value {
			case "required":
				a.Required = true
			case "optional":
			default:
				return nil, wsdl.Errorf(data, n, "attribute %s: use=%q is outside the XSD subset an ASMX contract uses (required or optional)", name, x.Value)
			}
		case "form", "default", "fixed":
			return nil, wsdl.Errorf(data, n, "attribute %s: %s= (a qualified or defaulted [XmlAttribute]) is not supported yet", name, x.Name.Local)
		default:
			return nil, wsdl.Errorf(data, n, "attribute %s: %s= is outside the XSD subset an ASMX contract uses", name, x.Name.Local)
		}
	}
	if len(n.Children) > 0 {
		return nil, wsdl.Errorf(data, n, "attribute %s: an anonymous simple type is outside the XSD subset an ASMX contract uses", name)
	}
	if _, typed := n.Attr("type"); !typed {
		return nil, wsdl.Errorf(data, n, "attribute %s needs a type attribute", name)
	}
	t, err := typeOf(n, "type")
	if err != nil {
		return nil, err
	}
	if !t.Simple() {
		return nil, wsdl.Errorf(data, n, "attribute %s: type %s is not a simple type", name, t.Name)
	}
	if t.Kind == contract.KindBase64 {
		// ASMX writes byte[] attributes as base64Binary too, but nothing here needs them yet.
		return nil, wsdl.Errorf(data, n, "attribute %s of type base64Binary is not supported yet", name)
	}
	a.Type = t
	return a, nil
}

// unique refuses two attributes of one name, which XML does not allow on an element.
func unique(data []byte, at *wsdl.Node, attrs []*contract.Attr) error {
	seen := map[string]bool{}
	for _, a := range attrs {
		if seen[a.Name] {
			return wsdl.Errorf(data, at, "attribute %s is declared twice", a.Name)
		}
		seen[a.Name] = true
	}
	return nil
}
