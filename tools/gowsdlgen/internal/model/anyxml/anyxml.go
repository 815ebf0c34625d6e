// Package anyxml reads the anonymous types ASMX writes for the XML a contract leaves open (shapes
// README §4) into the contract model's built-in open types (contract.KindRawXML, KindDataSet):
// XmlElement, XmlNode, XmlNode[] and both WSDL forms of a DataSet. Package model calls it for an
// element with an anonymous type below the operation wrappers; what it does not recognise is refused
// as not supported yet, with the construct and its line.
//
// It imports the standard library, wsdl and contract.
package anyxml

import (
	"encoding/xml"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/contract"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// NamespaceDiffgram is the namespace of a DataSet's diffgr:diffgram, which zoo3's second s:any names.
const NamespaceDiffgram = "urn:schemas-microsoft-com:xml-diffgram-v1"

// Anonymous reads the anonymous complex type of element el (a parameter, a result or a field):
//
//   - <s:sequence><s:any /></s:sequence> is an XmlElement; with mixed="true" on the complex type an
//     XmlNode, and with maxOccurs="unbounded" on the s:any an XmlNode[] (ASMX's forms, README §4);
//   - <s:sequence><s:element ref="s:schema" /><s:any /></s:sequence> is a DataSet, as real contracts
//     (.NET Framework's ASMX for a typed or untyped DataSet) have it;
//   - <s:sequence maxOccurs="unbounded"> holding an s:any of the XML Schema namespace and one of the
//     diffgram namespace is a DataSet too, as zoo3's ASMX wrote it.
//
// The type returned is built in (Node nil), named after the runtime's descriptor.
func Anonymous(data []byte, el *wsdl.Node) (*contract.Type, error) {
	if v, _ := el.Attr("maxOccurs"); v != "" && v != "1" {
		return nil, notYet(data, el, "a repeated element of an anonymous type (an array of XmlElement, XmlNode or DataSet values)")
	}
	var ct *wsdl.Node
	for _, c := range el.Children {
		switch {
		case c.Is(wsdl.NamespaceXSD, "annotation"):
		case c.Is(wsdl.NamespaceXSD, "complexType") && ct == nil:
			ct = c
		default:
			return nil, notYet(data, c, "an anonymous %s below the operation wrappers (only ASMX's shapes of XmlElement, XmlNode and DataSet values are carried)", c.Name.Local)
		}
	}
	if ct == nil {
		return nil, notYet(data, el, "an element with no anonymous complex type below the operation wrappers")
	}
	mixed := false
	for _, a := range ct.Attrs {
		switch {
		case declaration(a):
		case a.Name.Local == "mixed" && a.Value == "true":
			mixed = true
		case a.Name.Local == "mixed" && a.Value == "false":
		default:
			return nil, notYet(data, ct, "attribute %s on an anonymous complex type", a.Name.Local)
		}
	}
	var seq *wsdl.Node
	for _, c := range ct.Children {
		switch {
		case c.Is(wsdl.NamespaceXSD, "annotation"):
		case c.Is(wsdl.NamespaceXSD, "sequence") && seq == nil:
			seq = c
		default:
			return nil, notYet(data, c, "%s in an anonymous type below the operation wrappers (ASMX writes one sequence for XmlElement, XmlNode and DataSet values)", c.Name.Local)
		}
	}
	if seq == nil {
		return nil, notYet(data, ct, "an anonymous complex type without a sequence below the operation wrappers")
	}
	var items []*wsdl.Node
	for _, c := range seq.Children {
		if !c.Is(wsdl.NamespaceXSD, "annotation") {
			items = append(items, c)
		}
	}
	repeated, _ := seq.Attr("maxOccurs")
	switch {
	case repeated == "" && len(items) == 1 && items[0].Is(wsdl.NamespaceXSD, "any"):
		return rawXML(data, items[0], mixed)
	case repeated == "" && len(items) == 2 && schemaRef(items[0]) && plainAny(items[1], ""):
		return &contract.Type{Name: contract.DataSetName, Kind: contract.KindDataSet}, nil
	case repeated == "unbounded" && len(items) == 2 && plainAny(items[0], wsdl.NamespaceXSD) && plainAny(items[1], NamespaceDiffgram):
		return &contract.Type{Name: contract.DataSetName, Kind: contract.KindDataSet}, nil
	}
	return nil, notYet(data, seq, "an anonymous type below the operation wrappers other than ASMX's XmlElement, XmlNode and DataSet shapes (an [XmlAnyElement] member or a nested class)")
}

// Is reports whether the anonymous type of el is one Anonymous reads: the top-level element of an
// HTTP GET/POST result of an open kind (<s:element name="DataSet" nillable="true">), which is no
// wrapper and gets no struct.
func Is(data []byte, el *wsdl.Node) bool {
	_, err := Anonymous(data, el)
	return err == nil
}

// rawXML reads the s:any of an XmlElement (mixed false), XmlNode (mixed) or XmlNode[] (mixed, the
// s:any unbounded).
func rawXML(data []byte, any *wsdl.Node, mixed bool) (*contract.Type, error) {
	unbounded := false
	for _, a := range any.Attrs {
		switch {
		case declaration(a):
		case a.Name.Local == "minOccurs" && (a.Value == "0" || a.Value == "1"):
		case a.Name.Local == "maxOccurs" && a.Value == "1":
		case a.Name.Local == "maxOccurs" && a.Value == "unbounded":
			unbounded = true
		default:
			return nil, notYet(data, any, "attribute %s=%q on the s:any of an XmlElement or XmlNode", a.Name.Local, a.Value)
		}
	}
	switch {
	case unbounded && !mixed:
		return nil, notYet(data, any, "an unbounded s:any without mixed content (XmlElement[], an [XmlAnyElement] array)")
	case unbounded:
		return &contract.Type{Name: contract.XmlNodesName, Kind: contract.KindRawXML}, nil
	case mixed:
		return &contract.Type{Name: contract.XmlNodeName, Kind: contract.KindRawXML}, nil
	}
	return &contract.Type{Name: contract.XmlElementName, Kind: contract.KindRawXML}, nil
}

// schemaRef reports whether n is <s:element ref="s:schema" />, a DataSet's inline schema.
func schemaRef(n *wsdl.Node) bool {
	if !n.Is(wsdl.NamespaceXSD, "element") || len(n.Children) > 0 {
		return false
	}
	for _, a := range n.Attrs {
		if a.Name.Local != "ref" && !declaration(a) {
			return false
		}
	}
	q, ok, err := n.QNameAttr("ref")
	return ok && err == nil && q.Space == wsdl.NamespaceXSD && q.Local == "schema"
}

// plainAny reports whether n is an s:any a DataSet's content is described with: of namespace ns when
// ns is not "", optional and lax when it names one (zoo3's form).
func plainAny(n *wsdl.Node, ns string) bool {
	if !n.Is(wsdl.NamespaceXSD, "any") || len(n.Children) > 0 {
		return false
	}
	for _, a := range n.Attrs {
		switch a.Name.Local {
		case "xmlns":
		case "namespace":
			if a.Value != ns {
				return false
			}
		case "minOccurs", "processContents":
			if ns == "" || a.Value != map[string]string{"minOccurs": "0", "processContents": "lax"}[a.Name.Local] {
				return false
			}
		default:
			return false
		}
	}
	if v, _ := n.Attr("namespace"); v != ns {
		return false
	}
	return true
}

// declaration reports whether a is a namespace declaration (Node.Attrs keeps them).
func declaration(a xml.Attr) bool {
	return a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns"
}

// notYet is model's refusal of what ASMX writes and the generator does not carry yet.
func notYet(data []byte, n *wsdl.Node, format string, args ...any) error {
	return wsdl.Errorf(data, n, format+" is not supported yet", args...)
}
