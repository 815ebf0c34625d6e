package contract

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// Direction is the way a SOAP header travels (ASMX's SoapHeaderDirection); the names match the
// runtime's wire.HeaderDirection constants.
type Direction string

// The directions: in the request, in the response, or both (the same element in both).
const (
	HeaderIn    Direction = "HeaderIn"
	HeaderOut   Direction = "HeaderOut"
	HeaderInOut Direction = "HeaderInOut"
)

// In reports whether the header is read from the request.
func (d Direction) In() bool { return d == HeaderIn || d == HeaderInOut }

// Out reports whether the header is written in the response.
func (d Direction) Out() bool { return d == HeaderOut || d == HeaderInOut }

// HeaderPart is a soap:header of an operation: the global element its message part names, the
// element's complex type, and its direction. ASMX writes one per [SoapHeader] member of a method,
// `<soap:header message="tns:WhoAmIAuthHeader" part="AuthHeader" use="literal" />`, in wsdl:input
// for In, wsdl:output for Out and both for InOut (shapes §1).
type HeaderPart struct {
	Element   string // local name of the element, in the target namespace
	Type      *Type
	Direction Direction
	// GoName is the field of the request (In, InOut) and of the response (Out, InOut) that holds the
	// header: the element's Go name, followed by "Header" when a body field has that name. The
	// response also has GoName+"MustUnderstand".
	GoName string
	Node   *wsdl.Node // the first soap:header naming it
}
