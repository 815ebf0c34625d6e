// Package client calls a service of a generated contract over any of its bindings. Client is a
// wire.Invoker: it sends any operation of a generated table (the operation entry is given with each
// call) and decodes its response with the generated codec, so it knows no operation and no contract
// itself. A contract's generated client stub wraps it (&gen.SyncServiceSoapClient{Invoker: c} for
// this service's), and implements the contract's operation interface, so code written against the
// interface runs the same against the in-process service or a remote server.
//
// gowsdl also generates a client (gen.NewSyncServiceSoap), but it speaks only SOAP 1.1 and compiles the
// namespace of the contract file into its requests. This client takes the namespace it is given (the
// deployment's, for a contract whose namespace is rebased onto the base URL), as the server does, and
// speaks SOAP 1.2 and the HTTP bindings too. It may import the standard library, server/auth and
// server/wire, and no contract's package.
package client

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/jsonwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// Binding selects the wire protocol.
type Binding string

// The four bindings, named as on the command line.
const (
	SOAP11   Binding = "soap11"
	SOAP12   Binding = "soap12"
	HTTPGet  Binding = "get"
	HTTPPost Binding = "post"
	// JSON is the ASP.NET AJAX JSON endpoint, which the service serves only when its --protocols list
	// json.
	JSON Binding = "json"
)

// Bindings lists the four bindings of the WSDL, for flag help and test matrices.
var Bindings = []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost}

// offeredAs is the table's flag for each binding of the WSDL.
var offeredAs = map[Binding]wire.Bindings{SOAP11: wire.SOAP11, SOAP12: wire.SOAP12, HTTPGet: wire.HTTPGet, HTTPPost: wire.HTTPPost}

// Offers reports whether the operation is offered on binding b. The JSON endpoint offers every
// operation that has a JSON codec.
func Offers(op *wire.Operation, b Binding) bool {
	if b == JSON {
		return op.DecodeJSON != nil
	}
	return op.Bindings.Has(offeredAs[b])
}

const (
	nsSOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
	nsSOAP12 = "http://www.w3.org/2003/05/soap-envelope"
)

// Client sends operations to the service at Endpoint. It implements wire.Invoker.
type Client struct {
	// Endpoint is the service URL, e.g. http://localhost:8080/contactsync/v1/sync.asmx.
	Endpoint string
	// Namespace is the service namespace the deployment serves the contract in: the contract's own,
	// or its rebased one (server.ServedNamespace; base URL + "/contactsync/v1/" for this service).
	Namespace string
	// Binding selects the wire protocol; empty means SOAP 1.1.
	Binding Binding
	// HTTP is the client used for requests; nil means http.DefaultClient.
	HTTP *http.Client
	// User and Password, when User is set, authenticate every request: with HTTP Basic, or, with
	// WSSecurity, with a WS-Security UsernameToken in the SOAP header (SOAP bindings only) carrying a
	// PasswordDigest (the user needs a digest secret on the service: contactsync user add --digest),
	// or with PasswordText too, the password itself (any user; over TLS only, as it travels readable).
	User, Password string
	WSSecurity     bool
	PasswordText   bool
	// Headers, when set, writes SOAP header blocks of the contract into every SOAP request (call's
	// --header, HeaderValues); the other bindings carry no headers.
	Headers wire.HeaderAppender
}

var _ wire.Invoker = (*Client)(nil)

// Fault is a SOAP fault returned by the service.
type Fault struct {
	// Code is the fault code's local name: Client, Server, Sender, Receiver, VersionMismatch or
	// MustUnderstand.
	Code string
	// ErrorCode is the service's machine-readable code from the fault detail (e.g. NotFound), if any.
	ErrorCode string
	// Message is the fault string (SOAP 1.1) or reason text (SOAP 1.2).
	Message string
}

func (f *Fault) Error() string {
	if f.ErrorCode != "" {
		return fmt.Sprintf("SOAP fault %s (%s): %s", f.Code, f.ErrorCode, f.Message)
	}
	return fmt.Sprintf("SOAP fault %s: %s", f.Code, f.Message)
}

// JSONError is a failure answered by the JSON endpoint: ASP.NET AJAX's error object.
type JSONError struct {
	StatusCode int
	// ExceptionType is the service's fault code (e.g. NotFound).
	ExceptionType string
	Message       string
}

func (e *JSONError) Error() string {
	if e.ExceptionType == "" {
		// Not the endpoint's error object (text from a binding or a proxy): no type to show.
		return fmt.Sprintf("HTTP %d: %s", e.StatusCode, e.Message)
	}
	return fmt.Sprintf("HTTP %d (%s): %s", e.StatusCode, e.ExceptionType, e.Message)
}

// ErrOtherNamespace is wrapped by the error of a response whose element is the expected one in another
// namespace: the service was started with another --base-url than the client's Namespace says.
var ErrOtherNamespace = errors.New("the response is in another namespace")

// StatusError is a non-success answer of the HTTP GET or POST binding.
type StatusError struct {
	StatusCode int
	Message    string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.StatusCode, e.Message)
}

func (c *Client) binding() Binding {
	if c.Binding == "" {
		return SOAP11
	}
	return c.Binding
}

// Invoke sends op with the request req and decodes the response into resp.
func (c *Client) Invoke(ctx context.Context, op *wire.Operation, req, resp wire.Message) error {
	httpReq, err := c.NewRequest(ctx, op, req)
	if err != nil {
		return err
	}
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	r, err := httpClient.Do(httpReq)
	if err != nil {
		return err
	}
	defer r.Body.Close()
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("reading the response: %w", err)
	}
	switch c.binding() {
	case JSON:
		return c.decodeJSON(op, r.StatusCode, body, resp)
	case HTTPGet, HTTPPost:
		if r.StatusCode != http.StatusOK {
			return &StatusError{StatusCode: r.StatusCode, Message: strings.TrimSpace(string(body))}
		}
		return c.decodeRoot(op, body, resp)
	default:
		return c.decodeEnvelope(op, r.StatusCode, body, resp)
	}
}

// FormEncoder is a request that writes its own parameters as form values rather than through its
// operation's EncodeForm: the help pages' placeholder requests, whose values are not of their
// parameters' Go types.
type FormEncoder interface {
	EncodeForm(form url.Values)
}

// NewRequest returns the HTTP request the client sends for op with the request req, without sending
// it. The server's help pages build their sample requests with it (given placeholder messages, which
// are FormEncoders), so the samples are exactly what this client puts on the wire.
func (c *Client) NewRequest(ctx context.Context, op *wire.Operation, req wire.Message) (*http.Request, error) {
	httpReq, err := c.newRequest(ctx, op, req)
	if err != nil {
		return nil, err
	}
	if c.User != "" && !c.WSSecurity {
		httpReq.SetBasicAuth(c.User, c.Password)
	}
	return httpReq, nil
}

func (c *Client) newRequest(ctx context.Context, op *wire.Operation, req wire.Message) (*http.Request, error) {
	b := c.binding()
	if _, known := offeredAs[b]; !known && b != JSON {
		return nil, fmt.Errorf("unknown binding %q (want one of soap11, soap12, get, post, json)", b)
	}
	if !Offers(op, b) {
		return nil, fmt.Errorf("the operation %s is not offered on the %s binding", op.Name, b)
	}
	if c.WSSecurity && b != SOAP11 && b != SOAP12 {
		return nil, fmt.Errorf("WS-Security travels in the SOAP header: the %s binding cannot carry it (use HTTP Basic, or soap11 or soap12)", b)
	}
	// A request holding an object its contract cannot write (a complex value of a type the contract
	// does not have, at any depth) is the caller's error, returned before a byte is written: the
	// generated writer has no other way to refuse it.
	if h, ok := req.(anytype.ObjectHolder); ok {
		if err := h.CheckObjects(); err != nil {
			return nil, err
		}
	}
	switch b {
	case JSON:
		jm, ok := req.(jsonwire.Message)
		if !ok {
			return nil, fmt.Errorf("the %s request has no JSON form", op.Name)
		}
		httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint+"/"+op.Name, bytes.NewReader(jm.AppendJSON(nil)))
		if err != nil {
			return nil, err
		}
		httpReq.Header.Set("Content-Type", "application/json; charset=utf-8")
		return httpReq, nil
	case HTTPGet, HTTPPost:
		form := url.Values{}
		if fe, ok := req.(FormEncoder); ok {
			fe.EncodeForm(form)
		} else if op.EncodeForm != nil {
			op.EncodeForm(req, form)
		}
		if b == HTTPGet {
			u := c.Endpoint + "/" + op.Name
			if len(form) > 0 {
				u += "?" + form.Encode()
			}
			return http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		}
		httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint+"/"+op.Name, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		httpReq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return httpReq, nil
	}
	envNS, prefix := nsSOAP11, "soap"
	if b == SOAP12 {
		envNS, prefix = nsSOAP12, "soap12"
	}
	body := []byte(xmlwire.XMLDeclaration)
	body = append(body, `<`+prefix+`:Envelope xmlns:`+prefix+`="`+envNS+`">`...)
	body = c.appendHeader(body, prefix, req)
	if op.Bare {
		body = c.appendBareBody(body, prefix, op, req)
	} else {
		body = append(body, `<`+prefix+`:Body><`+op.RequestElement+` xmlns="`...)
		body = xmlwire.AppendEscaped(body, cmp.Or(op.RequestNamespace, c.Namespace))
		body = append(body, `">`...)
		content := len(body)
		body = req.AppendXML(body)
		switch {
		case bytes.Contains(body[content:], []byte(` xsi:type="`)):
			// A derived or object value names its type with xsi:type, an XSD built-in with the xsd
			// prefix (xsi:type="xsd:int"), as ASMX's envelope declares both: declare them too.
			body = slices.Insert(body, content-1, []byte(` xmlns:xsi="`+xmlwire.NSXSI+`" xmlns:xsd="`+xmlwire.NSXSD+`"`)...)
		case bytes.Contains(body[content:], []byte(` xsi:nil="true"`)):
			// The generated writers use the xsi prefix for a nil item or nillable value and expect the
			// document root to declare it; declare it on the operation element, only when it is used, so
			// every other request stays as it was. (Text cannot hold the attribute: " is escaped there.)
			body = slices.Insert(body, content-1, []byte(` xmlns:xsi="`+xmlwire.NSXSI+`"`)...)
		}
		body = append(body, `</`+op.RequestElement+`></`+prefix+`:Body></`+prefix+`:Envelope>`...)
	}
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	action := op.SOAPAction(c.Namespace, b == SOAP12)
	if b == SOAP12 {
		httpReq.Header.Set("Content-Type", mime.FormatMediaType("application/soap+xml", map[string]string{"charset": "utf-8", "action": action}))
	} else {
		httpReq.Header.Set("Content-Type", "text/xml; charset=utf-8")
		httpReq.Header.Set("SOAPAction", strconv.Quote(action))
	}
	return httpReq, nil
}

// appendHeader appends the request's soap:Header, when it has a block: the WS-Security header
// (WSSecurity), the contract's headers the request writes itself (a wire.HeaderAppender: the help
// pages' samples) and those of Headers (call's --header).
func (c *Client) appendHeader(b []byte, prefix string, req wire.Message) []byte {
	ha, _ := req.(wire.HeaderAppender)
	if !c.WSSecurity && ha == nil && c.Headers == nil {
		return b
	}
	mark := len(b)
	b = append(b, `<`+prefix+`:Header>`...)
	content := len(b)
	if c.WSSecurity {
		b = c.appendSecurity(b, prefix)
	}
	if ha != nil {
		b = ha.AppendHeaders(b, prefix, c.Namespace)
	}
	if c.Headers != nil {
		b = c.Headers.AppendHeaders(b, prefix, c.Namespace)
	}
	if len(b) == content {
		return b[:mark]
	}
	return append(b, `</`+prefix+`:Header>`...)
}

// appendSecurity appends a wsse:Security header block holding a WS-Security UsernameToken with a PasswordDigest
// (WSS UsernameToken Profile 1.0 §3.1): Base64(SHA-1(nonce + created + password)) over a fresh random
// nonce and the current time, so the password never travels and the token cannot be replayed. With
// PasswordText the password itself is sent instead, still with the nonce and time, which the service
// checks when present (so a captured token is refused as a replay or stale all the same).
func (c *Client) appendSecurity(b []byte, prefix string) []byte {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails (Go 1.24+)
	created := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	b = append(b, `<wsse:Security xmlns:wsse="`+auth.NSSecurityExt+`" xmlns:wsu="`+auth.NSSecurityUtil+`" `+
		prefix+`:mustUnderstand="1"><wsse:UsernameToken><wsse:Username>`...)
	b = xmlwire.AppendEscaped(b, c.User)
	if c.PasswordText {
		b = append(b, `</wsse:Username><wsse:Password Type="`+auth.PasswordText+`">`...)
		b = xmlwire.AppendEscaped(b, c.Password)
	} else {
		b = append(b, `</wsse:Username><wsse:Password Type="`+auth.PasswordDigest+`">`...)
		b = append(b, auth.Digest(nonce, created, c.Password)...)
	}
	b = append(b, `</wsse:Password><wsse:Nonce EncodingType="`+auth.EncodingBase64+`">`...)
	b = append(b, base64.StdEncoding.EncodeToString(nonce)...)
	b = append(b, `</wsse:Nonce><wsu:Created>`+created+`</wsu:Created></wsse:UsernameToken></wsse:Security>`...)
	return b
}

// responseLimits bound the responses the client reads; they are the service's own, with room to spare.
var responseLimits = xmlwire.Limits{MaxDepth: 64, MaxElements: 1 << 20}

// decodeJSON reads the JSON endpoint's answer: {"d": result}, or the error object.
func (c *Client) decodeJSON(op *wire.Operation, status int, body []byte, resp wire.Message) error {
	if status != http.StatusOK {
		var e struct{ Message, ExceptionType string }
		if err := json.Unmarshal(body, &e); err != nil {
			return &JSONError{StatusCode: status, Message: strings.TrimSpace(string(body))}
		}
		return &JSONError{StatusCode: status, ExceptionType: e.ExceptionType, Message: e.Message}
	}
	rd := jsonwire.NewReader(body, responseLimits.MaxDepth)
	if _, err := rd.Object(); err != nil {
		return fmt.Errorf("the response is not a JSON object: %w", err)
	}
	for {
		key, ok, err := rd.Key()
		if err != nil || !ok {
			return err
		}
		tok, err := rd.Token()
		if err != nil {
			return err
		}
		if key != "d" {
			if err := rd.Skip(tok); err != nil {
				return err
			}
			continue
		}
		if err := op.DecodeResultJSON(rd, tok, resp); err != nil {
			return fmt.Errorf("decoding the %s result: %w", op.Name, err)
		}
	}
}

// decodeRoot reads an HTTP GET/POST result document: its root element holds the result.
func (c *Client) decodeRoot(op *wire.Operation, body []byte, resp wire.Message) error {
	if op.Result == nil && len(bytes.TrimSpace(body)) == 0 {
		return nil // an operation without a result answers with an empty body, as ASMX does
	}
	rd := xmlwire.NewReader(body, c.Namespace, responseLimits, false)
	root, err := rd.Root()
	if err != nil {
		return fmt.Errorf("the response is not XML: %w", err)
	}
	if op.DecodeResult == nil {
		return rd.Discard()
	}
	if !root.Is(op.HTTPRoot) && op.Result != nil && op.Result.Type.Kind == wire.KindRawXML {
		// An XmlElement result is the document's root itself (get-MakeElement-plain): read the
		// document as the content of the root a result of any other type has.
		doc := bytes.TrimSpace(body)
		if bytes.HasPrefix(doc, []byte("<?xml")) {
			if end := bytes.Index(doc, []byte("?>")); end >= 0 {
				doc = doc[end+2:]
			}
		}
		wrapped := append([]byte(`<`+op.HTTPRoot+` xmlns="`), xmlwire.AppendEscaped(nil, c.Namespace)...)
		wrapped = append(append(append(wrapped, `">`...), doc...), `</`+op.HTTPRoot+`>`...)
		return c.decodeRoot(op, wrapped, resp)
	}
	if !root.Is(op.HTTPRoot) {
		if root.Local() == op.HTTPRoot {
			return fmt.Errorf("%w: expected the root element %s in namespace %q, got it in namespace %q", ErrOtherNamespace, op.HTTPRoot, c.Namespace, root.Name(rd).Space)
		}
		return fmt.Errorf("expected the root element %s in namespace %q, got %s", op.HTTPRoot, c.Namespace, root.Local())
	}
	if err := op.DecodeResult(rd, root, resp); err != nil {
		return fmt.Errorf("decoding the %s result: %w", op.Name, err)
	}
	return rd.End()
}

// decodeEnvelope reads a SOAP response: the response wrapper through the generated decoder, or a fault.
func (c *Client) decodeEnvelope(op *wire.Operation, status int, body []byte, resp wire.Message) error {
	if op.OneWay && (status == http.StatusAccepted || status == http.StatusOK) && len(bytes.TrimSpace(body)) == 0 {
		return nil // a one-way call's acknowledgement (202, or 200 from Mono): no envelope, nothing to decode
	}
	rd := xmlwire.NewReader(body, c.Namespace, responseLimits, false)
	root, err := rd.Root()
	if err != nil || root.Local() != "Envelope" {
		return fmt.Errorf("HTTP %d: the response is not a SOAP envelope: %v", status, err)
	}
	for {
		el, ok, err := rd.Child()
		if err != nil {
			return fmt.Errorf("HTTP %d: reading the SOAP envelope: %w", status, err)
		}
		if !ok {
			return fmt.Errorf("HTTP %d: the response is not a SOAP envelope with a body", status)
		}
		if el.Local() != "Body" {
			if err := c.readHeader(rd, el, resp); err != nil {
				return err
			}
			continue
		}
		first, ok, err := rd.Child()
		if err != nil {
			return err
		}
		if !ok && op.Bare && status == http.StatusOK {
			return nil // a void bare operation, or a null result (bare.go)
		}
		if !ok {
			return fmt.Errorf("HTTP %d: the SOAP Body is empty", status)
		}
		if first.Local() == "Fault" {
			return readFault(rd)
		}
		if status != http.StatusOK {
			return fmt.Errorf("HTTP %d without a SOAP fault", status)
		}
		if op.Bare {
			return c.readBareResult(rd, first, op, resp)
		}
		if ns := cmp.Or(op.ResponseNamespace, c.Namespace); !rd.IsElement(first, ns, op.ResponseElement) {
			if first.Local() == op.ResponseElement {
				return fmt.Errorf("%w: expected %s in namespace %q, got it in namespace %q", ErrOtherNamespace, op.ResponseElement, ns, first.Name(rd).Space)
			}
			return fmt.Errorf("expected %s in namespace %q, got %s in namespace %q", op.ResponseElement, ns, first.Local(), first.Name(rd).Space)
		}
		if err := resp.DecodeXML(rd); err != nil {
			return fmt.Errorf("decoding the %s response: %w", op.Name, err)
		}
		return nil
	}
}

// readHeader reads the response's soap:Header (el, just read) into resp's header fields when its
// type has any (a wire.HeaderDecoder), the first block of each; anything else is skipped.
func (c *Client) readHeader(rd *xmlwire.Reader, el xmlwire.Start, resp wire.Message) error {
	hd, ok := resp.(wire.HeaderDecoder)
	if !ok || el.Local() != "Header" {
		return rd.Discard()
	}
	envNS := nsSOAP11
	if c.binding() == SOAP12 {
		envNS = nsSOAP12
	}
	for {
		block, ok, err := rd.Child()
		if err != nil || !ok {
			return err
		}
		mu, _ := block.Attr(envNS, "mustUnderstand")
		taken, err := hd.DecodeHeader(rd, block, mu == "1" || mu == "true")
		if err != nil {
			return fmt.Errorf("decoding the response's header %s: %w", block.Local(), err)
		}
		if !taken {
			if err := rd.Discard(); err != nil {
				return err
			}
		}
	}
}

// readFault reads a SOAP 1.1 or SOAP 1.2 fault's content, whose start was just read.
func readFault(rd *xmlwire.Reader) error {
	fault := &Fault{}
	var code11, code12 string
	for {
		el, ok, err := rd.Child()
		if err != nil {
			return fmt.Errorf("the SOAP fault could not be read: %w", err)
		}
		if !ok {
			break
		}
		switch el.Local() {
		case "faultcode":
			code11, _, err = rd.TextOnly()
		case "faultstring":
			fault.Message, _, err = rd.TextOnly()
		case "Code":
			code12, err = firstValue(rd)
		case "Reason":
			fault.Message, err = firstValue(rd)
		case "detail", "Detail":
			err = readDetail(rd, fault)
		default:
			err = rd.Discard()
		}
		if err != nil {
			return fmt.Errorf("the SOAP fault could not be read: %w", err)
		}
	}
	fault.Code = strings.TrimSpace(code11 + code12)
	if _, local, found := strings.Cut(fault.Code, ":"); found {
		fault.Code = local
	}
	return fault
}

// firstValue returns the text of the first child element (SOAP 1.2's Code/Value, Reason/Text).
func firstValue(rd *xmlwire.Reader) (string, error) {
	text := ""
	found := false
	for {
		_, ok, err := rd.Child()
		if err != nil || !ok {
			return text, err
		}
		if found {
			if err := rd.Discard(); err != nil {
				return "", err
			}
			continue
		}
		found = true
		if text, _, err = rd.TextOnly(); err != nil {
			return "", err
		}
	}
}

func readDetail(rd *xmlwire.Reader, fault *Fault) error {
	for {
		el, ok, err := rd.Child()
		if err != nil || !ok {
			return err
		}
		if el.Local() == "ErrorCode" {
			if fault.ErrorCode, _, err = rd.TextOnly(); err != nil {
				return err
			}
			continue
		}
		if err := rd.Discard(); err != nil {
			return err
		}
	}
}

// Message renders a generated message as an XML element named name in the namespace ns, indented, for
// printing (contactsync call). When the message holds a nil item (xsi:nil, which the generated encoders
// write with the prefix the service declares on every document), the root declares xsi. The encoder's
// output is re-indented token by token, each name written as it is, prefix included: encoding/xml's
// Encoder would take the prefix xsi for a namespace name and declare xmlns:xsi="xsi".
func Message(name, ns string, m wire.Message) ([]byte, error) {
	body := m.AppendXML(nil)
	b := []byte(`<` + name + ` xmlns="`)
	b = xmlwire.AppendEscaped(b, ns)
	if bytes.Contains(body, []byte(" xsi:")) {
		b = append(b, `" xmlns:xsi="`+xmlwire.NSXSI...)
	}
	b = append(b, `">`...)
	b = append(b, body...)
	b = xmlwire.AppendEnd(b, name)
	var out []byte
	d := xml.NewDecoder(bytes.NewReader(b))
	depth, open, text := 0, false, false // open: a start tag is written without its '>'
	qname := func(n xml.Name) string {
		if n.Space != "" {
			return n.Space + ":" + n.Local
		}
		return n.Local
	}
	indent := func() {
		out = append(out, '\n')
		out = append(out, strings.Repeat("  ", depth)...)
	}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if open {
				out = append(out, '>')
			}
			if depth > 0 {
				indent()
			}
			out = append(out, '<')
			out = append(out, qname(tok.Name)...)
			for _, a := range tok.Attr {
				out = append(out, ' ')
				out = append(out, qname(a.Name)...)
				out = append(out, `="`...)
				// A tab or line feed in the value goes as a character reference, as the generated
				// encoders write it: printed raw, a reader of the output would take it for a space.
				out = xmlwire.AppendAttrValue(out, a.Value)
				out = append(out, '"')
			}
			depth++
			open, text = true, false
		case xml.EndElement:
			depth--
			switch {
			case open && !text:
				out = append(out, " />"...)
			default:
				if !text {
					indent()
				}
				out = append(out, "</"...)
				out = append(out, qname(tok.Name)...)
				out = append(out, '>')
			}
			open, text = false, false
		case xml.CharData:
			if len(bytes.TrimSpace(tok)) == 0 {
				continue
			}
			if open {
				out = append(out, '>')
				open = false
			}
			out = xmlwire.AppendEscaped(out, string(tok))
			text = true
		}
	}
	return out, nil
}

// Invoke calls the operation named opName on svc, an implementation of a generated server interface
// bound to its table by the contract's Bind (the in-process service, or the generated client stub over
// a Client: gen.Bind(&gen.SyncServiceSoapClient{Invoker: c})), with parameters given by name in their
// XSD lexical form. It lets a caller that has an operation as data (a test matrix, a script) call any
// of them.
func Invoke(ctx context.Context, svc wire.Bound, opName string, params map[string]string) (wire.Message, error) {
	op := wire.Lookup(svc.Ops, opName)
	if op == nil {
		return nil, fmt.Errorf("unknown operation %q", opName)
	}
	doc := xmlwire.AppendStart(nil, op.RequestElement)
	if op.RequestNamespace != "" { // its elements are qualified in it: declare it as the default
		doc = append(append(append(doc[:len(doc)-1], ` xmlns="`...), xmlwire.AppendEscaped(nil, op.RequestNamespace)...), `">`...)
	}
	for _, p := range op.Params {
		if v, ok := params[p.Name]; ok {
			doc = xmlwire.AppendString(doc, p.Name, v)
		}
	}
	doc = xmlwire.AppendEnd(doc, op.RequestElement)
	rd := xmlwire.NewReader(doc, "", xmlwire.Limits{MaxDepth: 64, MaxElements: 1 << 20}, false)
	if _, err := rd.Root(); err != nil {
		return nil, err
	}
	req := op.NewRequest()
	if err := req.DecodeXML(rd); err != nil {
		return nil, err
	}
	return svc.Call(ctx, req)
}

// MessageJSON renders a response as the JSON endpoint's {"d": result}, indented, for printing.
func MessageJSON(op *wire.Operation, resp wire.Message) ([]byte, error) {
	b := []byte(`{"d":`)
	b = op.AppendResultJSON(b, resp)
	b = append(b, '}')
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
