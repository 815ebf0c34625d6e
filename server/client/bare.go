package client

import (
	"cmp"
	"fmt"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// A document/literal bare operation (wire.Operation.Bare, ASMX's SoapParameterStyle.Bare) has no
// wrapper in its SOAP messages: the request body holds the parameters' elements themselves, and the
// response body holds the result element alone, or nothing for a void operation or a null result.

// appendBareBody appends the Body of a bare request: the request's elements, which the generated
// writer leaves unqualified, take the service namespace (or the operation's own) from a default
// namespace declaration on the Body, since there is no wrapper to carry it; the Body declares xsi and
// xsd too, for a nil value or an xsi:type (xsi:type="xsd:int") the writer may write.
func (c *Client) appendBareBody(body []byte, prefix string, op *wire.Operation, req wire.Message) []byte {
	body = append(body, `<`+prefix+`:Body xmlns="`...)
	body = xmlwire.AppendEscaped(body, cmp.Or(op.RequestNamespace, c.Namespace))
	body = append(body, `" xmlns:xsi="`+xmlwire.NSXSI+`" xmlns:xsd="`+xmlwire.NSXSD+`">`...)
	body = req.AppendXML(body)
	return append(body, `</`+prefix+`:Body></`+prefix+`:Envelope>`...)
}

// readBareResult reads the result element first of a bare response into resp.
func (c *Client) readBareResult(rd *xmlwire.Reader, first xmlwire.Start, op *wire.Operation, resp wire.Message) error {
	ns := cmp.Or(op.ResponseNamespace, c.Namespace)
	if op.Result == nil || op.DecodeResult == nil || !rd.IsElement(first, ns, op.Result.Name) {
		return fmt.Errorf("expected the result element of the bare operation %s in namespace %q, got %s in namespace %q",
			op.Name, ns, first.Local(), first.Name(rd).Space)
	}
	if err := op.DecodeResult(rd, first, resp); err != nil {
		return fmt.Errorf("decoding the %s response: %w", op.Name, err)
	}
	return nil
}
