// Package bare is what the SOAP binding needs for document/literal bare operations
// (wire.Operation.Bare, ASMX's SoapParameterStyle.Bare, shapes README §8): the body holds the
// parameters' elements themselves, with no wrapper, and the response body holds the result element
// alone. ASMX finds such an operation by the SOAPAction (SOAP 1.1 header, SOAP 1.2 action parameter);
// without one, by the body's first element when that is the one parameter of a one-parameter
// operation (soap11-BareOne-no-action, soap11-PlaceOrder-no-action), and not at all for an operation
// of several parameters (soap11-BareTwo-no-action, soap12-BareTwo), which it answers with a Client
// (SOAP 1.2 Sender) fault asking for the action. It lives beside the binding, not in it, so the SOAP
// binding's package stays within the house rule's size.
//
// It imports the standard library, server/fault, server/wire and server/wire/xmlwire.
package bare

import (
	"cmp"
	"slices"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// AskForAction is ASMX's text for a body that names no operation without a SOAPAction.
const AskForAction = "Unable to handle request without a valid action parameter. Please supply a valid soap action."

// Routes are the bare operations one SOAP binding offers; nil when it offers none, and every method
// works on nil.
type Routes struct {
	// byParam routes a request without SOAPAction by its first body element: to the operation whose
	// one parameter it is, or nowhere (nil) when it is a parameter of an operation of several
	// parameters or of several operations.
	byParam map[string]*wire.Operation
	// decl is, per operation, the namespace declaration its result element takes.
	decl map[*wire.Operation][]byte
}

// Add records op when it is bare, its elements in namespace (or its own RequestNamespace and
// ResponseNamespace), and returns the routes (new ones when r is nil).
func (r *Routes) Add(op *wire.Operation, namespace string) *Routes {
	if !op.Bare {
		return r
	}
	if r == nil {
		r = &Routes{byParam: map[string]*wire.Operation{}, decl: map[*wire.Operation][]byte{}}
	}
	for i, p := range op.Params {
		_, seen := r.byParam[p.Name]
		if i == 0 && len(op.Params) == 1 && !seen {
			r.byParam[p.Name] = op
		} else {
			r.byParam[p.Name] = nil
		}
	}
	r.decl[op] = []byte(` xmlns="` + string(xmlwire.AppendEscaped(nil, cmp.Or(op.ResponseNamespace, namespace))) + `"`)
	return r
}

// Route is the error the binding's Body pass returns when a request without SOAPAction holds first
// the parameter element of exactly one one-parameter bare operation: the element was read as the
// start of an operation wrapper, so the envelope must be read again as that operation's (Routed).
type Route struct{ Op *wire.Operation }

func (r Route) Error() string {
	return "bare operation " + r.Op.Name + " found by its parameter element"
}

// Find is what the first body element el, in the service namespace and the wrapper of no operation,
// says of a request without SOAPAction: a Route to the bare operation it is the one parameter of,
// ASMX's fault asking for the action when it is another parameter of a bare operation, nil when it
// is none.
func (r *Routes) Find(el xmlwire.Start) error {
	if r == nil || !el.Is(el.Local()) {
		return nil
	}
	op, found := r.byParam[el.Local()]
	switch {
	case !found:
		return nil
	case op == nil:
		return fault.Errorf(fault.UnknownOperation, AskForAction)
	}
	return Route{Op: op}
}

// Routed turns a Route that reading the envelope ended with into the operation to read it again as,
// when no SOAPAction named one (byAction nil); a Route with an action naming another operation is
// that operation's body not matching its action. Any other err is returned as it is.
func Routed(err error, byAction *wire.Operation) (*wire.Operation, error) {
	route, ok := err.(Route)
	switch {
	case !ok:
		return nil, err
	case byAction == nil:
		return route.Op, nil
	}
	return nil, fault.Errorf(fault.UnknownOperation, "The SOAP action names %s but the body holds a parameter of %s.", byAction.Name, route.Op.Name)
}

// CheckBody refuses the request body of bare operation op, routed by its SOAPAction, when its Body's
// first element is none of op's parameters: a body that does not match its action is refused, as for
// a wrapped operation, rather than answered with parameters the caller did not send (ASMX reads a
// wrapped <BareOne><phrase> as a null phrase, soap11-BareOne-wrapped: a listed deviation). It reads
// the envelope (in envNS, the service's elements in namespace) again up to that element, only for
// such a request; a document the reader cannot read is left to the decoding, which has read it once.
// Nil for any other operation.
func CheckBody(body []byte, envNS, namespace string, limits xmlwire.Limits, op *wire.Operation) *fault.Error {
	if op == nil || !op.Bare {
		return nil
	}
	rd := xmlwire.NewReader(body, namespace, limits, false)
	if _, err := rd.Root(); err != nil {
		return nil
	}
	for {
		el, found, err := rd.Child()
		if err != nil || !found {
			return nil
		}
		if !rd.IsElement(el, envNS, "Body") {
			if rd.Discard() != nil {
				return nil
			}
			continue
		}
		if el, found, err = rd.Child(); err != nil || !found {
			return nil
		}
		for _, p := range op.Params {
			if rd.IsElement(el, cmp.Or(op.RequestNamespace, namespace), p.Name) {
				return nil
			}
		}
		return fault.Errorf(fault.UnknownOperation, "The SOAP action names %s but the body holds %s, which is none of its parameters.", op.Name, el.Local())
	}
}

// AppendBody appends the Body content of bare operation op's response resp and ends the envelope:
// buf ends with the Body's start tag (<soap:Body>, prefix envPrefix). The result element alone is
// written, its namespace declared on it (the response wrapper's writer leaves it unqualified), or, for
// a void operation or a null result, nothing: the Body becomes <soap:Body />, as ASMX writes them
// (soap11-BareOne, soap11-BareNothing).
func (r *Routes) AppendBody(buf []byte, op *wire.Operation, resp wire.Message, envPrefix string) []byte {
	content := len(buf)
	buf = resp.AppendXML(buf)
	if len(buf) == content {
		return append(buf[:content-len(">")], " /></"+envPrefix+":Envelope>"...)
	}
	name := content + 1
	for name < len(buf) && buf[name] != ' ' && buf[name] != '>' && buf[name] != '/' {
		name++
	}
	buf = slices.Insert(buf, name, r.decl[op]...)
	return append(buf, "</"+envPrefix+":Body></"+envPrefix+":Envelope>"...)
}
