// Package extension reads the complexContent extensions of a contract's schemas (ASMX's derived
// classes, shapes §2): the shape of one (Of: its base and the node holding its own elements) and which
// types derive from which (Derived). The model (package model) builds Type.Base, Type.Derived and
// Type.Abstract from them.
//
// It imports the standard library and wsdl.
package extension

import (
	"encoding/xml"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// Of reads the complexContent of the complex type ct, if it has one that is not a soapenc:Array
// restriction (the AbstractTypes schema's, read elsewhere): ok reports whether it does, base is the
// extension's base and ext the extension node, whose children are the type's own content (a sequence).
// ASMX writes exactly <complexContent mixed="false"><extension base="tns:B"><sequence>…; anything
// else is refused with the construct and its line.
func Of(data []byte, ct *wsdl.Node) (ext *wsdl.Node, base xml.Name, ok bool, err error) {
	ccs := ct.Elements(wsdl.NamespaceXSD, "complexContent")
	if len(ccs) != 1 || SOAPEncArray(ccs[0]) {
		return nil, xml.Name{}, false, nil
	}
	cc := ccs[0]
	for _, c := range ct.Children {
		if c != cc && !c.Is(wsdl.NamespaceXSD, "annotation") {
			return nil, base, true, wsdl.Errorf(data, c, "%s beside complexContent is outside XML Schema", c.Name.Local)
		}
	}
	if v, _ := cc.Attr("mixed"); v == "true" {
		return nil, base, true, wsdl.Errorf(data, cc, "mixed complexContent (text between the elements) is not supported yet")
	}
	for _, c := range cc.Children {
		switch {
		case c.Is(wsdl.NamespaceXSD, "annotation"):
		case c.Is(wsdl.NamespaceXSD, "extension") && ext == nil:
			ext = c
		case c.Is(wsdl.NamespaceXSD, "restriction"):
			return nil, base, true, wsdl.Errorf(data, c, "complexContent restriction (outside the AbstractTypes schema) is not supported yet")
		default:
			return nil, base, true, wsdl.Errorf(data, c, "%s in complexContent is outside the XSD subset an ASMX contract uses (one extension)", c.Name.Local)
		}
	}
	if ext == nil {
		return nil, base, true, wsdl.Errorf(data, cc, "complexContent without an extension is outside the XSD subset an ASMX contract uses")
	}
	base, has, err := ext.QNameAttr("base")
	if err != nil {
		return nil, base, true, err
	}
	if !has {
		return nil, base, true, wsdl.Errorf(data, ext, "an extension needs a base")
	}
	return ext, base, true, nil
}

// Derived maps the name of each complex type of the target namespace tns that others extend to the
// names of those extending it directly, in document order.
func Derived(schemas []*wsdl.Node, tns string) map[string][]string {
	derived := map[string][]string{}
	for _, s := range schemas {
		if target, _ := s.Attr("targetNamespace"); target != tns {
			continue
		}
		for _, ct := range s.Elements(wsdl.NamespaceXSD, "complexType") {
			name, _ := ct.Attr("name")
			for _, cc := range ct.Elements(wsdl.NamespaceXSD, "complexContent") {
				for _, ext := range cc.Elements(wsdl.NamespaceXSD, "extension") {
					if q, ok, err := ext.QNameAttr("base"); err == nil && ok && q.Space == tns {
						derived[q.Local] = append(derived[q.Local], name)
					}
				}
			}
		}
	}
	return derived
}

// Abstract reports whether the complex type ct is abstract (abstract="true": an abstract class).
func Abstract(ct *wsdl.Node) bool {
	v, _ := ct.Attr("abstract")
	return v == "true" || v == "1"
}

// SOAPEncArray reports whether a complexContent derives from soapenc:Array.
func SOAPEncArray(cc *wsdl.Node) bool {
	for _, d := range cc.Children {
		if base, ok, err := d.QNameAttr("base"); err == nil && ok && base == (xml.Name{Space: wsdl.NamespaceSOAPEncoding, Local: "Array"}) {
			return true
		}
	}
	return false
}

// StringArray checks one array type of the AbstractTypes schema, where ASMX describes the HTTP GET and
// POST array parameters (model.AbstractTypesNamespace): it must be of the one shape ASMX writes there,
//
//	<s:complexType name="StringArray"><s:complexContent mixed="false">
//	  <s:restriction base="soapenc:Array"><s:sequence>
//	    <s:element minOccurs="0" maxOccurs="unbounded" name="String" type="s:string" />
func StringArray(data []byte, ct *wsdl.Node) error {
	shape := func(n *wsdl.Node) error {
		return wsdl.Errorf(data, n, "an AbstractTypes array type is a complexContent restriction of soapenc:Array holding one "+
			"element with maxOccurs=\"unbounded\" and type xsd:string, as ASMX writes StringArray")
	}
	if len(ct.Children) != 1 || !ct.Children[0].Is(wsdl.NamespaceXSD, "complexContent") {
		return shape(ct)
	}
	cc := ct.Children[0]
	if len(cc.Children) != 1 || !cc.Children[0].Is(wsdl.NamespaceXSD, "restriction") {
		return shape(cc)
	}
	r := cc.Children[0]
	base, _, err := r.QNameAttr("base")
	if err != nil {
		return err
	}
	if base != (xml.Name{Space: wsdl.NamespaceSOAPEncoding, Local: "Array"}) || len(r.Children) != 1 || !r.Children[0].Is(wsdl.NamespaceXSD, "sequence") {
		return shape(r)
	}
	seq := r.Children[0]
	if len(seq.Children) != 1 || !seq.Children[0].Is(wsdl.NamespaceXSD, "element") {
		return shape(seq)
	}
	el := seq.Children[0]
	typ, _, err := el.QNameAttr("type")
	if err != nil {
		return err
	}
	if maxOccurs, _ := el.Attr("maxOccurs"); maxOccurs != "unbounded" || typ != (xml.Name{Space: wsdl.NamespaceXSD, Local: "string"}) {
		return shape(el)
	}
	return nil
}
