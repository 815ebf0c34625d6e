package soap

import (
	"cmp"
	"slices"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// Document/literal bare operations (ASMX's SoapParameterStyle.Bare, shapes README §8): the body holds
// the parameters' elements themselves, with no wrapper, and the response body holds the result element
// alone. ASMX finds such an operation by the SOAPAction (SOAP 1.1 header, SOAP 1.2 action parameter);
// without one, by the body's first element when that is the one parameter of a one-parameter
// operation (soap11-BareOne-no-action, soap11-PlaceOrder-no-action), and not at all for an operation
// of several parameters (soap11-BareTwo-no-action, soap12-BareTwo), which it answers with a Client
// (SOAP 1.2 Sender) fault asking for the action.

// bareRoute is what the Body pass returns when a request without a SOAPAction holds the parameter
// element of exactly one one-parameter bare operation: the element was read as the start of an
// operation wrapper, so the envelope is read again as that operation's (parse).
type bareRoute struct{ op *wire.Operation }

func (r bareRoute) Error() string {
	return "bare operation " + r.op.Name + " found by its parameter element"
}

// addBare records the bare operation op of this binding in bareParams: its first parameter's element
// routes to it when it has exactly one parameter and no other bare operation has a parameter of that
// name; any other parameter element is recorded as one that needs the action (nil).
func (b *Binding) addBare(op *wire.Operation) {
	if b.bareParams == nil {
		b.bareParams = map[string]*wire.Operation{}
	}
	for i, p := range op.Params {
		_, seen := b.bareParams[p.Name]
		if i == 0 && len(op.Params) == 1 && !seen {
			b.bareParams[p.Name] = op
		} else {
			b.bareParams[p.Name] = nil
		}
	}
}

// bareBodyMatches reports whether the body of a request the SOAPAction routed to bare operation op
// holds, first, one of op's parameters (or nothing): a body that does not match its action is refused,
// as for a wrapped operation, rather than answered with parameters the caller did not send (ASMX reads
// a wrapped <BareOne><phrase> as a null phrase, soap11-BareOne-wrapped: a listed deviation). It reads
// the envelope again, up to the Body's first element, only for such a request; first is that
// element's name. A document the reader cannot read is left to the decoding, which has read it once.
func (b *Binding) bareBodyMatches(body []byte, op *wire.Operation) (first string, ok bool) {
	rd := xmlwire.NewReader(body, b.namespace, b.limits, false)
	if _, err := rd.Root(); err != nil {
		return "", true
	}
	for {
		el, found, err := rd.Child()
		if err != nil || !found {
			return "", true
		}
		if !rd.IsElement(el, b.envNS, "Body") {
			if err := rd.Discard(); err != nil {
				return "", true
			}
			continue
		}
		el, found, err = rd.Child()
		if err != nil || !found {
			return "", true
		}
		for _, p := range op.Params {
			if rd.IsElement(el, cmp.Or(op.RequestNamespace, b.namespace), p.Name) {
				return "", true
			}
		}
		return el.Local(), false
	}
}

// readBareBody reads the Body of bare operation op: its children are the request wrapper's elements,
// read in any order by the generated decoder up to and including the Body's end tag. Elements after
// the first that are no parameter are skipped, as ASMX's serializer does (the first must be one:
// bareBodyMatches), and the parameters the body does not give stay at their zero value.
func (b *Binding) readBareBody(rd *xmlwire.Reader, req *request, op *wire.Operation) error {
	req.op, req.msg = op, op.NewRequest()
	return req.msg.DecodeXML(rd)
}

// appendBareResponse appends the response envelope of bare operation op: the result element alone in
// the Body, in the service namespace, or an empty Body (<soap:Body />) for a void operation or a null
// result, as ASMX writes them (soap11-BareOne, soap11-BareNothing, soap11-BareOne-wrapped). The
// response wrapper's writer gives the result element unqualified; its namespace is declared on it.
func (b *Binding) appendBareResponse(buf []byte, op *wire.Operation, resp wire.Message) []byte {
	if op.Headers != nil {
		buf = b.appendHeaders(buf, resp)
	} else {
		buf = append(buf, b.envelopeStart()...)
	}
	content := len(buf)
	buf = resp.AppendXML(buf)
	if len(buf) == content {
		buf = append(buf[:content-len(">")], " /></"+b.envPrefix+":Envelope>"...)
		return buf
	}
	name := content + 1
	for name < len(buf) && buf[name] != ' ' && buf[name] != '>' && buf[name] != '/' {
		name++
	}
	buf = slices.Insert(buf, name, b.bareNamespace[op]...)
	return append(buf, b.envelopeEnd()...)
}
