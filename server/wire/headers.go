package wire

import (
	"context"
	"encoding/xml"
	"strconv"

	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// HeaderDirection says which way a SOAP header of an operation travels (ASMX's SoapHeaderDirection).
type HeaderDirection uint8

// The directions of a header: in the request, in the response, or both (the same element).
const (
	HeaderIn HeaderDirection = iota + 1
	HeaderOut
	HeaderInOut
)

// In reports whether the header is read from the request (In or InOut).
func (d HeaderDirection) In() bool { return d == HeaderIn || d == HeaderInOut }

// Out reports whether the header is written in the response (Out or InOut).
func (d HeaderDirection) Out() bool { return d == HeaderOut || d == HeaderInOut }

// Header is a soap:header of an operation's binding: a global element of the contract, its type
// and its direction. Element's namespace is the contract's as generated; the SOAP binding matches
// blocks in the namespace it serves (which a rebased contract moves).
type Header struct {
	Element   xml.Name
	Type      *Type
	Direction HeaderDirection
}

// HeaderDecoder is implemented by the request type of an operation with In or InOut headers.
type HeaderDecoder interface {
	// DecodeHeader reads the header block whose start s was just read into its field, when the
	// request declares it In or InOut and holds none yet (the first of two wins); taken is false,
	// and nothing is read, otherwise. mustUnderstand is the block's SOAP mustUnderstand.
	DecodeHeader(r *xmlwire.Reader, s xmlwire.Start, mustUnderstand bool) (taken bool, err error)
}

// HeaderAppender is implemented by the response type of an operation with Out or InOut headers.
type HeaderAppender interface {
	// AppendHeaders appends the non-nil Out and InOut headers as header blocks in namespace, each with
	// envPrefix:mustUnderstand="1" first when asked; it appends nothing when all are nil.
	AppendHeaders(b []byte, envPrefix, namespace string) []byte
}

// The SOAP envelope namespaces, whose attributes on a header block (mustUnderstand, actor, role,
// relay, encodingStyle) belong to SOAP, not to the header's type.
const (
	envelopeNS11 = "http://schemas.xmlsoap.org/soap/envelope/"
	envelopeNS12 = "http://www.w3.org/2003/05/soap-envelope"
)

// xmlNamespace is the namespace the xml prefix is bound to (xml:lang), which no other prefix may name.
const xmlNamespace = "http://www.w3.org/XML/1998/namespace"

// ForeignAttrs returns the attributes of a header block that its type's <s:anyAttribute /> carries:
// all but namespace declarations and the SOAP envelope's own; nil when there are none.
func ForeignAttrs(s xmlwire.Start) []xml.Attr {
	var out []xml.Attr
	for _, a := range s.Attrs() {
		switch {
		case a.Name.Space == "xmlns", a.Name.Space == "" && a.Name.Local == "xmlns":
		case a.Name.Space == envelopeNS11, a.Name.Space == envelopeNS12:
		default:
			out = append(out, a)
		}
	}
	return out
}

// AppendForeignAttrs appends attrs (a type's AnyAttrs) to an element's start tag: an unqualified
// attribute as it is, one in the XML namespace with the xml prefix, any other qualified one with a
// prefix declared beside it (a1, a2, … in order). Namespace declarations are left out (the writer
// declares what it uses); names are written as they are, so they must be XML names.
func AppendForeignAttrs(b []byte, attrs []xml.Attr) []byte {
	for i, a := range attrs {
		if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
			continue
		}
		b = append(b, ' ')
		switch a.Name.Space {
		case "":
		case xmlNamespace:
			b = append(b, "xml:"...)
		default:
			prefix := "a" + strconv.Itoa(i+1)
			b = append(b, "xmlns:"+prefix+`="`...)
			b = xmlwire.AppendEscaped(b, a.Name.Space)
			b = append(b, `" `+prefix+":"...)
		}
		b = append(b, a.Name.Local...)
		b = append(b, `="`...)
		b = xmlwire.AppendEscaped(b, a.Value)
		b = append(b, '"')
	}
	return b
}

// HeaderBlock is a SOAP header block aimed at the service that its operation does not declare In:
// what ASMX hands a SoapUnknownHeader[] member, and no WSDL can describe (UnknownHeaders).
type HeaderBlock struct {
	Name xml.Name
	// MustUnderstand is true only for a WS-Addressing block, which the service understands: any other
	// undeclared block with mustUnderstand is a MustUnderstand fault before the method runs.
	MustUnderstand bool
	Actor          string
	// XML is the block as sent, from its start tag to its end tag; namespace prefixes it uses that the
	// Envelope or Header declares are not declared again in it.
	XML []byte
}

type unknownHeadersKey struct{}

// WithUnknownHeaders returns ctx carrying a request's undeclared header blocks, for UnknownHeaders.
func WithUnknownHeaders(ctx context.Context, blocks []HeaderBlock) context.Context {
	return context.WithValue(ctx, unknownHeadersKey{}, blocks)
}

// UnknownHeaders returns the header blocks of the request being served that its operation does not
// declare In or InOut (a second block of a declared one included), WS-Security excluded, in document
// order: empty, not nil, for a SOAP request of a contract with headers that sent none; nil on HTTP
// GET, POST and the JSON endpoint, and for a contract without headers.
func UnknownHeaders(ctx context.Context) []HeaderBlock {
	blocks, _ := ctx.Value(unknownHeadersKey{}).([]HeaderBlock)
	return blocks
}
