package contract

// The kinds of the XML an ASMX contract leaves open (shapes README §3 and §4): an element without a
// type (xsd:anyType, C#'s object), raw XML (an anonymous type holding <s:any />: XmlElement, XmlNode,
// XmlNode[]) and a DataSet (an anonymous type holding a schema and a diffgram). Their types are built
// in, like xsd:int: Node is nil, and Name is the runtime descriptor's (wire.TypeAnyType, …).
const (
	KindObject  Kind = "KindObject"
	KindRawXML  Kind = "KindRawXML"
	KindDataSet Kind = "KindDataSet"
)

// The names of the open types' built-in descriptors; a raw-XML type's name also says which of an
// element's child nodes it keeps (xmlany.Element, Node or Nodes).
const (
	AnyTypeName    = "anyType"
	XmlElementName = "XmlElement"
	XmlNodeName    = "XmlNode"
	XmlNodesName   = "ArrayOfXmlNode"
	DataSetName    = "DataSet"
)

// Open reports whether kind is one of the open kinds, which have neither a text form nor a struct.
func Open(kind Kind) bool { return kind == KindObject || kind == KindRawXML || kind == KindDataSet }

// openGoTypes are the runtime types of the open kinds' values. Their zero value is no value (an
// absent element), so none is a pointer but the DataSet, whose empty content (<ds />, an empty
// DataSet to ASMX) differs from an absent one.
var openGoTypes = map[Kind]string{KindObject: "anytype.Object", KindRawXML: "xmlany.RawXML", KindDataSet: "*xmlany.DataSet"}

// OpenGoType is the Go type of a value of an open kind, "" for any other.
func OpenGoType(kind Kind) string { return openGoTypes[kind] }
