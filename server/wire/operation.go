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
)

// Simple reports whether values of the kind are text (every kind but complex types and arrays).
func (k Kind) Simple() bool { return k != KindComplex && k != KindArray }

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
	// Name is the operation name: the SOAP wrapper element, the HTTP path segment and the suffix of
	// the SOAPAction (the service namespace followed by Name).
	Name string
	// Doc is the operation's wsdl:documentation.
	Doc string
	// Bindings are the bindings that offer the operation (those whose wsdl:binding lists it).
	Bindings Bindings
	// OneWay: the operation has no response (its SOAP portType operation has no wsdl:output; ASMX's
	// [SoapDocumentMethod(OneWay = true)]). SOAP acknowledges it with 202 and an empty body before the
	// method runs; GET, POST and JSON run it as a void method. ResponseElement is "", NewResponse nil,
	// and the Bound's Call returns a nil response for it.
	OneWay bool
	// RequestElement and ResponseElement are the SOAP body wrappers (Name and Name+"Response").
	RequestElement, ResponseElement string
	// Params are the request wrapper's elements.
	Params []Field
	// Result is the response wrapper's element (Name+"Result"); nil for an operation without a
	// result.
	Result *Field
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
