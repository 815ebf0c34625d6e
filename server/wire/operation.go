package wire

import (
	"context"
	"fmt"
	"net/url"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/formwire"
	"github.com/contactsync/contactsync/server/wire/jsonwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// Bindings is a set of the bindings an operation is offered on.
type Bindings uint8

// The bindings of an ASMX service.
const (
	SOAP11 Bindings = 1 << iota
	SOAP12
	HTTPGet
	HTTPPost
)

// Has reports whether every binding of o is in b.
func (b Bindings) Has(o Bindings) bool { return b&o == o }

// Kind is the shape of an XSD type on the wire.
type Kind uint8

// The kinds of the XSD subset an ASMX contract uses.
const (
	KindString Kind = iota
	KindInt
	KindLong
	KindShort
	KindBoolean
	KindDouble
	KindFloat
	KindDecimal
	KindDateTime
	KindBase64
	KindGUID
	KindEnum
	KindComplex
	KindArray
	// Issue 33's simple kinds, after the ones above so those keep their numbers (generator-model §2):
	// xsd:byte, the unsigned types, ASMX's char and a [Flags] enumeration (a list of member names).
	KindByte
	KindUnsignedByte
	KindUnsignedShort
	KindUnsignedInt
	KindUnsignedLong
	KindChar
	KindFlags
	// The open kinds (shapes README §3, §4): an xsd:anyType element (C#'s object, an anytype.Object),
	// raw XML (XmlElement, XmlNode, XmlNode[]: an xmlany.RawXML) and a DataSet (an xmlany.DataSet).
	// Their values are XML, neither text nor a contract type's elements.
	KindObject
	KindRawXML
	KindDataSet
)

// Simple reports whether values of the kind are text (every kind but complex types, arrays and the
// open kinds).
func (k Kind) Simple() bool { return k < KindObject && k != KindComplex && k != KindArray }

// Type describes an XSD type of the contract, for documentation, samples and generic tooling; the
// generated codec does not consult it.
type Type struct {
	// Name is the XSD local name: "string", "int", "Contact", "ArrayOfString".
	Name string
	Kind Kind
	// Fields are a complex type's elements in schema order.
	Fields []Field
	// Item is an array's item element.
	Item *Field
	// Enum lists an enumeration's values.
	Enum []string
	// AnyAttribute: the type ends with <s:anyAttribute /> (ASMX's SOAP header types); its Go type
	// keeps the foreign attributes in AnyAttrs.
	AnyAttribute bool
	// Derived are the complex types deriving from this one, directly or not, in document order: a
	// value declared with this type may be of any of them (xsi:type on the wire, "$type" in the
	// record form). A derived type's Fields hold its base chain's elements first.
	Derived []*Type
	// Abstract: the type is an abstract base, so a value declared with it is always of a derived type.
	Abstract bool
	// Attrs are a complex type's attributes ([XmlAttribute]) in declaration order, each of a simple
	// type; MinOccurs 1 marks use="required". Nil for a type without.
	Attrs []Field
	// Text is the type of a simple-content type's text ([XmlText]: Money's decimal); nil otherwise.
	Text *Type
}

// Field is an element of a complex type, an operation's parameter or its result.
type Field struct {
	Name string
	Type *Type
	// MinOccurs and MaxOccurs are the schema's occurrence; MaxOccurs is -1 for unbounded.
	MinOccurs, MaxOccurs int
	Nillable             bool
}

// Message is a generated type that reads and writes its element's content: the request and response
// wrappers of the operations and the schema's complex types.
type Message interface {
	// AppendXML appends the element's children in schema order. Elements are unqualified: they take
	// the service namespace from the default namespace declaration the binding writes on the wrapper.
	AppendXML(b []byte) []byte
	// DecodeXML reads the element's children, up to and including its end tag.
	DecodeXML(r *xmlwire.Reader) error
}

// Operation is one entry of the generated operation table.
type Operation struct {
	// Name is the operation's identity, its message name (an overload's MessageName, else the
	// operation's name): the HTTP path segment, the help page entry, the metrics label and the suffix of
	// the default SOAPAction (the service namespace followed by Name; see SOAPAction).
	Name string
	// PortTypeName is the portType operation's name when it differs from Name: an overload of a C#
	// method, named after the method in the WSDL (Add) and told apart by its message name (Name:
	// AddDoubles), which everything on the wire uses. Empty otherwise; read it with PortTypeOperation.
	PortTypeName string
	// Doc is the operation's wsdl:documentation.
	Doc string
	// Bindings are the bindings that offer the operation (those whose wsdl:binding lists it).
	Bindings Bindings
	// OneWay: the operation has no response (its SOAP portType operation has no wsdl:output; ASMX's
	// [SoapDocumentMethod(OneWay = true)]). SOAP acknowledges it with 202 and an empty body before the
	// method runs; GET, POST and JSON run it as a void method. ResponseElement is "", NewResponse nil,
	// and the Bound's Call returns a nil response for it.
	OneWay bool
	// SOAPAction11 and SOAPAction12 are the operation's SOAPAction on SOAP 1.1 and 1.2 when the WSDL's
	// soap:operation gives it one other than the service namespace followed by Name (ASMX's
	// [SoapDocumentMethod("urn:items/fetch")]); a request's action is matched exactly against it, and
	// the default one is then not recognized. Empty: the namespace followed by Name, as served (a
	// rebased namespace included). A custom action is used as written, never rebased.
	SOAPAction11, SOAPAction12 string
	// Bare: the operation's SOAP messages are document/literal bare (ASMX's SoapParameterStyle.Bare):
	// the request body holds the Params' elements themselves, in any order, with no wrapper, and the
	// response body holds the Result element alone, or nothing for a void or null result. The
	// wrappers RequestElement and ResponseElement name exist only in the generated Go types (the
	// generator reads a bare message as a wrapped one); HTTP GET, POST and JSON carry the operation
	// as any other. A request without a SOAPAction is routed by its first body element when that is
	// the one parameter of exactly one bare operation; otherwise it needs the action, as in ASMX.
	Bare bool
	// RequestElement and ResponseElement are the SOAP body wrappers, as the schema names them: usually
	// Name and Name+"Response", but ASMX's RequestElementName and ResponseElementName rename them.
	RequestElement, ResponseElement string
	// RequestNamespace and ResponseNamespace are the wrappers' namespace when it is not the service
	// namespace (ASMX's RequestNamespace and ResponseNamespace: {urn:items}GetItem), their elements
	// being qualified in it; empty for the service namespace. HTTP GET and POST roots stay in the
	// service namespace.
	RequestNamespace, ResponseNamespace string
	// Headers are the operation's SOAP headers (soap:header in its binding), nil for an operation
	// without any: its request then implements HeaderDecoder when one is In or InOut, its response
	// HeaderAppender when one is Out or InOut.
	Headers []Header
	// Params are the request wrapper's elements.
	Params []Field
	// Results are the response wrapper's elements when it holds several: a method with out or ref
	// parameters answers its result (when not void), then those parameters in declaration order
	// (SplitResult, head, count). Such an operation has no Result and is not offered on HTTP GET/POST;
	// the JSON endpoint answers the elements as one object keyed by their XML names. Nil otherwise.
	Results []Field
	// Result is the response wrapper's element when it holds exactly one (usually Name+"Result"; ASMX's
	// [return: XmlElement] renames it); nil for an operation without a result and one with Results.
	Result *Field
	// HTTPParams are the parameters' names on HTTP GET and POST, positional with Params, when one
	// differs from its SOAP element's name (ASMX names the message parts after the C# parameters and
	// the elements after their XmlElement names: id for x-id); nil when they are Params' names. Read
	// them with HTTPParamName.
	HTTPParams []string
	// HTTPRoot is the root element of an HTTP GET/POST result: the global element named after the
	// result's XSD type (Contact, string, int).
	HTTPRoot string

	// NewRequest and NewResponse return empty wrappers.
	NewRequest, NewResponse func() Message
	// DecodeForm reads an HTTP GET query or POST form into a request; nil when the operation is not
	// offered on HTTP GET/POST.
	DecodeForm func(form *formwire.Form) (Message, error)
	// EncodeForm writes a request's parameters as form values (for clients).
	EncodeForm func(req Message, form url.Values)
	// AppendResult appends the content of the result element of resp; ok is false when the result is
	// nil (written as an absent element in SOAP and an xsi:nil root over HTTP). It is called right
	// after the root's start tag, whose '>' it may reopen to add xsi:type (xmlany.AppendRootXSIType).
	AppendResult func(b []byte, resp Message) (out []byte, ok bool)
	// CheckResult reports why resp cannot be written on any binding (an object anywhere in it, at
	// any depth, holding a value of a type the contract does not have: the response's generated
	// CheckObjects, anytype.Writable), before a byte of it is written; nil for an operation every
	// response of which can be written (no object is reachable from it). The handler answers its
	// error as the call's (ASMX's Server fault, or text/plain 500 over HTTP GET/POST, after the
	// method ran).
	CheckResult func(resp Message) error
	// DecodeResult reads the content of a result element (an HTTP root) into resp.
	DecodeResult func(r *xmlwire.Reader, s xmlwire.Start, resp Message) error

	// DecodeJSON reads a JSON endpoint request: the parameters by name from an object whose opening
	// '{' was read (all of them required, unknown names refused, as ASP.NET AJAX does).
	DecodeJSON func(r *jsonwire.Reader) (Message, error)
	// AppendResultJSON appends the result of resp as a JSON value (null for a null result or none).
	AppendResultJSON func(b []byte, resp Message) []byte
	// DecodeResultJSON reads a JSON result value whose first token is tok into resp (for clients).
	DecodeResultJSON func(r *jsonwire.Reader, tok jsonwire.Token, resp Message) error
}

// SOAPAction returns the action of op on SOAP 1.1 (soap12 false) or SOAP 1.2 in a service whose
// namespace is namespace.
func (op *Operation) SOAPAction(namespace string, soap12 bool) string {
	custom := op.SOAPAction11
	if soap12 {
		custom = op.SOAPAction12
	}
	if custom != "" {
		return custom
	}
	return namespace + op.Name
}

// PortTypeOperation returns the name of op's operation in the WSDL's portType: PortTypeName for an
// overload, else Name.
func (op *Operation) PortTypeOperation() string {
	if op.PortTypeName != "" {
		return op.PortTypeName
	}
	return op.Name
}

// HTTPParamName returns the name of the i-th parameter on HTTP GET and POST.
func (op *Operation) HTTPParamName(i int) string {
	if op.HTTPParams != nil {
		return op.HTTPParams[i]
	}
	return op.Params[i].Name
}

// Bound is a contract's operation table bound to an implementation of the server interface generated
// with it: what a handler serves. The contract's generated Bind makes one from a value of that
// interface, so an implementation that does not fit the contract is a compile error, not a failed
// request; the table itself (Ops) knows no implementation.
type Bound struct {
	// Contract describes the contract: its document, endpoint path and namespace.
	Contract *Contract
	// Ops is the contract's operation table.
	Ops []*Operation
	// Call calls the method of the operation whose request wrapper req is (one made by the NewRequest
	// of an entry of Ops) on the implementation, and returns its response wrapper; a nil response
	// from the method is returned as an empty one. For a OneWay operation it returns a nil response.
	Call func(ctx context.Context, req Message) (Message, error)
}

// ForeignRequest is the error of a Bound's Call given a request wrapper of another contract.
func ForeignRequest(req Message) error {
	return fault.InternalError(fmt.Errorf("the request %T is not one of the bound contract's", req))
}

// Unimplemented is the error of an operation the service has not written yet: the generated
// Unimplemented<PortType>Server answers every method with it, naming the operation (its message name,
// as the operation table and the help page name it). Every binding answers it as fault.NotImplemented.
func Unimplemented(operation string) error {
	return fault.Errorf(fault.NotImplemented, "The operation %s is not implemented by this service.", operation)
}

// Invoker sends one operation to a service and decodes its response; the generated client stub calls
// it, and server/client implements it over the four bindings.
type Invoker interface {
	Invoke(ctx context.Context, op *Operation, req, resp Message) error
}

// Lookup finds an operation by its exact, case-sensitive name (as ASMX matches them).
func Lookup(ops []*Operation, name string) *Operation {
	for _, op := range ops {
		if op.Name == name {
			return op
		}
	}
	return nil
}

// The descriptors of the XML Schema built-in types of the subset, named as gowsdlgen refers to them
// (Type + the XSD name with its first letter upper-cased).
var (
	TypeString       = &Type{Name: "string", Kind: KindString}
	TypeInt          = &Type{Name: "int", Kind: KindInt}
	TypeLong         = &Type{Name: "long", Kind: KindLong}
	TypeShort        = &Type{Name: "short", Kind: KindShort}
	TypeBoolean      = &Type{Name: "boolean", Kind: KindBoolean}
	TypeDouble       = &Type{Name: "double", Kind: KindDouble}
	TypeFloat        = &Type{Name: "float", Kind: KindFloat}
	TypeDateTime     = &Type{Name: "dateTime", Kind: KindDateTime}
	TypeBase64Binary = &Type{Name: "base64Binary", Kind: KindBase64}
	TypeDecimal      = &Type{Name: "decimal", Kind: KindDecimal}
	// TypeGuid is {http://microsoft.com/wsdl/types/}guid, the one type of the subset that is not
	// XML Schema's.
	TypeGuid = &Type{Name: "guid", Kind: KindGUID}
	// The small and unsigned integer types and ASMX's char ({http://microsoft.com/wsdl/types/}char).
	TypeByte          = &Type{Name: "byte", Kind: KindByte}
	TypeUnsignedByte  = &Type{Name: "unsignedByte", Kind: KindUnsignedByte}
	TypeUnsignedShort = &Type{Name: "unsignedShort", Kind: KindUnsignedShort}
	TypeUnsignedInt   = &Type{Name: "unsignedInt", Kind: KindUnsignedInt}
	TypeUnsignedLong  = &Type{Name: "unsignedLong", Kind: KindUnsignedLong}
	TypeChar          = &Type{Name: "char", Kind: KindChar}
	// The open types, whose names are not XML Schema's: an element without a type (xsd:anyType), and
	// the anonymous types of XmlElement, XmlNode, XmlNode[] and DataSet values, named after .NET's.
	TypeAnyType        = &Type{Name: "anyType", Kind: KindObject}
	TypeXmlElement     = &Type{Name: "XmlElement", Kind: KindRawXML}
	TypeXmlNode        = &Type{Name: "XmlNode", Kind: KindRawXML}
	TypeArrayOfXmlNode = &Type{Name: "ArrayOfXmlNode", Kind: KindRawXML}
	TypeDataSet        = &Type{Name: "DataSet", Kind: KindDataSet}
)

// LookupField finds a field (a parameter) by name.
func LookupField(fields []Field, name string) *Field {
	for i := range fields {
		if fields[i].Name == name {
			return &fields[i]
		}
	}
	return nil
}
