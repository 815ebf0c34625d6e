// Package contract holds the contract model's types: a contract's types, fields, operations,
// headers and HTTP parameters (Contract), which package model reads from a WSDL document, and what
// is derived from them alone: the Go field of each element (GoFieldOf) and the fields gowsdl's output
// must be corrected in (Contract.FieldsToFix). Package model re-exports every name under its own, so
// the generator's other packages import model only.
//
// It imports the standard library and wsdl.
package contract

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// Kind is a type's wire kind; the names match the runtime's wire.Kind constants.
type Kind string

const (
	KindString   Kind = "KindString"
	KindInt      Kind = "KindInt"
	KindLong     Kind = "KindLong"
	KindShort    Kind = "KindShort"
	KindBoolean  Kind = "KindBoolean"
	KindDouble   Kind = "KindDouble"
	KindFloat    Kind = "KindFloat"
	KindDecimal  Kind = "KindDecimal"
	KindDateTime Kind = "KindDateTime"
	KindBase64   Kind = "KindBase64"
	KindGUID     Kind = "KindGUID"
	KindEnum     Kind = "KindEnum"
	KindComplex  Kind = "KindComplex"
	KindArray    Kind = "KindArray"
)

// Type is a type of the contract.
type Type struct {
	Name   string // XSD local name
	GoName string // the Go type's name (names.Go; unique in the package)
	Kind   Kind
	Fields []*Field // complex types and arrays (one unbounded field)
	Enum   []string
	Node   *wsdl.Node
	// AnyAttribute is the complex type's <s:anyAttribute />, as ASMX writes it on every SOAP header
	// type; nil without. Package headers carries it on header types and refuses it elsewhere.
	AnyAttribute *wsdl.Node
	// Base is the type a complexContent extension derives from (Dog's Animal); nil otherwise. Fields
	// holds the type's own elements only: AllFields adds the base chain's before them.
	Base *Type
	// Abstract: abstract="true" (an abstract class): a value on the wire is of a derived type.
	Abstract bool
	// Derived are the types deriving from this one, directly or not, in document order.
	Derived []*Type
	// Attrs are the complex type's attributes in declaration order (attrs.go); nil without.
	Attrs []*Attr
	// Text is the simple type of a simpleContent extension's text ([XmlText]: Money's decimal); nil
	// for a type with elements. Such a type has no Fields.
	Text *Type
}

// Simple reports whether t is a simple type: neither complex nor an array, nor one of the open
// kinds (object, raw XML, DataSet: anyxml.go), whose values are XML rather than text.
func (t *Type) Simple() bool { return t.Kind != KindComplex && t.Kind != KindArray && !Open(t.Kind) }

// Field is an element of a sequence.
type Field struct {
	Name      string // the XML name, which the wire codec always uses
	GoName    string // the Go field's name (names.Go; unique in its struct)
	Type      *Type
	MinOccurs int
	MaxOccurs int // -1 for unbounded
	Nillable  bool
}

// Operation is an operation with everything the codec needs.
type Operation struct {
	// Name is the operation's identity: its message name, the portType operation's wsdl:input/@name
	// when it has one (ASMX's MessageName: AddDoubles), else its name. It names the Go method (through
	// GoName), the table entry, the HTTP path and the metrics label.
	Name string
	// PortTypeName is the portType operation's name (Add for AddDoubles), kept for the WSDL and the
	// help page; it equals Name unless the operation is one of several overloads.
	PortTypeName string
	// GoName names the Go methods (GoName and GoName+"Context") and the operation's table entry
	// (op<GoName>); derived from Name, unique among the operations.
	GoName string
	// Doc is the wsdl:documentation text, entities decoded and line breaks kept (as LF).
	Doc               string
	Request, Response *Type // the wrapper elements' anonymous complex types
	RequestElement    string
	ResponseElement   string
	// RequestNamespace and ResponseNamespace are the wrappers' namespace when it is not the target
	// namespace (ASMX's RequestNamespace: {urn:items}GetItem), whose schema qualifies their elements;
	// "" for the target namespace.
	RequestNamespace, ResponseNamespace string
	// SOAPAction is the soap:operation/@soapAction of each SOAP binding kind ("SOAP11", "SOAP12") that
	// offers the operation, as the WSDL writes it.
	SOAPAction map[string]string
	Bindings   []string // "SOAP11", "SOAP12", "HTTPGet", "HTTPPost"
	HTTPRoot   string
	// HTTPParams are the parameters as HTTP GET and POST carry them, in order; nil when neither
	// binding offers the operation.
	HTTPParams []*HTTPParam
	// Headers are the soap:header parts of the operation's SOAP bindings, in binding order, which
	// package headers reads; nil when it has none.
	Headers []*HeaderPart
	// OneWay: the SOAP portType operation has no wsdl:output (ASMX's
	// [SoapDocumentMethod(OneWay = true)], shapes README §10). The service acknowledges the request
	// before the method runs and sends nothing back; GET and POST offer it as a void method. It has
	// no response wrapper: Response is nil and ResponseElement "".
	OneWay bool
	// Bare: the SOAP messages are document/literal bare (ASMX's SoapParameterStyle.Bare, shapes
	// README §8), read as wrapped ones (package bare): the SOAP body holds the request wrapper's
	// elements themselves, and the response body holds the result element alone (nothing for a void
	// or null result). Request and Response are the wrappers package bare adds to the schema.
	Bare bool
}

// HTTPParam is a parameter of an operation offered on HTTP GET or POST: a simple type, carried as one
// value (?n=5), or an array of a simple type, carried as one value per item (?ids=a&ids=b) and
// described by an AbstractTypes part (AbstractTypesNamespace).
type HTTPParam struct {
	// Name is the parameter's name on HTTP GET and POST: its message part's name, which may differ
	// from the SOAP element's (ASMX writes the C# name there: part id for the element x-id).
	Name  string
	Field *Field // the request wrapper's element
	// Item is the item type of an array parameter; nil for a simple one.
	Item *Type
	// Bytes marks a base64Binary (byte[]) parameter whose part is an AbstractTypes array, as ASMX
	// describes every byte[] on GET/POST: one decimal number per byte, each a value of the parameter
	// (get-EchoBytes-items).
	Bytes bool
}

// Contract is the model of a whole WSDL document.
type Contract struct {
	TargetNamespace string
	PortType        string // the SOAP portType's name
	// PortTypeGoName is the Go name of gowsdl's client interface for the portType, and the stem of
	// the generated <PortTypeGoName>Server, …Client and Unimplemented…Server.
	PortTypeGoName string
	Types          []*Type
	Operations     []*Operation
	// AbstractArrays are the array types of the AbstractTypes schema (StringArray), by local name.
	AbstractArrays map[string]bool
	// Structs are the schema components gowsdl turns into a Go struct each, in document order: every
	// named complex type and every top-level element with an anonymous complex type, whether an
	// operation reaches it or not, as gowsdl emits them all. The required and retyped fields are
	// derived from them (FieldsToFix).
	Structs []*Type
	// Declared are the types gowsdl declares a Go type for that the model has read, in the order
	// gowsdl declares them (per schema: simple types, elements, complex types), each with its GoName.
	Declared []*Type
}

// AllFields are t's elements as they travel: the base chain's first, then t's own.
func (t *Type) AllFields() []*Field {
	if t.Base == nil {
		return t.Fields
	}
	return append(append([]*Field(nil), t.Base.AllFields()...), t.Fields...)
}

// Polymorphic reports whether a value declared with t may be of another type: t has derived types.
func (t *Type) Polymorphic() bool { return len(t.Derived) > 0 }

// LinkDerived fills every base's Derived, in document order of the derived types: components are the
// schema components in document order, done the types read, by name.
func LinkDerived(components []*wsdl.Node, done map[string]*Type) {
	for _, c := range components {
		name, _ := c.Attr("name")
		if t := done[name]; c.Is(wsdl.NamespaceXSD, "complexType") && t != nil {
			for b := t.Base; b != nil; b = b.Base {
				b.Derived = append(b.Derived, t)
			}
		}
	}
}
