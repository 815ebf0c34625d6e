// Package client calls a Contact Synchronization Service over any of its four bindings through the
// generated operation interface (gen.SyncServiceSoap), so code written against the interface runs the
// same against the in-process Service or a remote server.
//
// gowsdl also generates a client (gen.NewSyncServiceSoap), but it speaks only SOAP 1.1 and compiles the
// namespace of the contract file into its requests. This client takes the namespace from the base URL
// of the deployment it talks to, as the server does, and speaks SOAP 1.2 and the HTTP bindings too.
package client

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/gen"
)

// Binding selects the wire protocol.
type Binding string

// The four bindings, named as on the command line.
const (
	SOAP11   Binding = "soap11"
	SOAP12   Binding = "soap12"
	HTTPGet  Binding = "get"
	HTTPPost Binding = "post"
)

// Bindings lists every binding, for flag help and test matrices.
var Bindings = []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost}

const (
	nsSOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
	nsSOAP12 = "http://www.w3.org/2003/05/soap-envelope"
)

// Client is a gen.SyncServiceSoap backed by HTTP requests to Endpoint.
type Client struct {
	// Endpoint is the service URL, e.g. http://localhost:8080/contactsync/v1/sync.asmx.
	Endpoint string
	// Namespace is the service namespace of the deployment (its base URL + "/contactsync/v1/").
	Namespace string
	// Binding selects the wire protocol; empty means SOAP 1.1.
	Binding Binding
	// HTTP is the client used for requests; nil means http.DefaultClient.
	HTTP *http.Client
}

var _ gen.SyncServiceSoap = (*Client)(nil)

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

// StatusError is a non-success answer of the HTTP GET or POST binding.
type StatusError struct {
	StatusCode int
	Message    string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.StatusCode, e.Message)
}

// call performs one operation and returns the result element: for SOAP the <Op>Result element inside
// <Op>Response (nil when absent), for the HTTP bindings the root element.
func (c *Client) call(ctx context.Context, op string, id *string) (*resultElement, error) {
	req, err := c.newRequest(ctx, op, id)
	if err != nil {
		return nil, err
	}
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the response: %w", err)
	}
	switch c.binding() {
	case HTTPGet, HTTPPost:
		if resp.StatusCode != http.StatusOK {
			return nil, &StatusError{StatusCode: resp.StatusCode, Message: strings.TrimSpace(string(body))}
		}
		return parseRoot(body)
	default:
		return c.parseEnvelope(op, resp, body)
	}
}

func (c *Client) binding() Binding {
	if c.Binding == "" {
		return SOAP11
	}
	return c.Binding
}

func (c *Client) newRequest(ctx context.Context, op string, id *string) (*http.Request, error) {
	form := url.Values{}
	if id != nil {
		form.Set("id", *id)
	}
	switch b := c.binding(); b {
	case HTTPGet:
		u := c.Endpoint + "/" + op
		if id != nil {
			u += "?" + form.Encode()
		}
		return http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	case HTTPPost:
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint+"/"+op, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return req, nil
	case SOAP11, SOAP12:
		var body bytes.Buffer
		envNS, prefix := nsSOAP11, "soap"
		if b == SOAP12 {
			envNS, prefix = nsSOAP12, "soap12"
		}
		body.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n")
		body.WriteString(`<` + prefix + `:Envelope xmlns:` + prefix + `="` + envNS + `"><` + prefix + `:Body><` + op + ` xmlns="`)
		xml.EscapeText(&body, []byte(c.Namespace))
		body.WriteString(`">`)
		if id != nil {
			body.WriteString("<id>")
			xml.EscapeText(&body, []byte(*id))
			body.WriteString("</id>")
		}
		body.WriteString(`</` + op + `></` + prefix + `:Body></` + prefix + `:Envelope>`)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint, &body)
		if err != nil {
			return nil, err
		}
		action := c.Namespace + op
		if b == SOAP12 {
			req.Header.Set("Content-Type", mime.FormatMediaType("application/soap+xml", map[string]string{"charset": "utf-8", "action": action}))
		} else {
			req.Header.Set("Content-Type", "text/xml; charset=utf-8")
			req.Header.Set("SOAPAction", strconv.Quote(action))
		}
		return req, nil
	default:
		return nil, fmt.Errorf("unknown binding %q (want one of soap11, soap12, get, post)", b)
	}
}

// resultElement is a result's XML element, kept raw until the caller knows its type.
type resultElement struct {
	start xml.StartElement
	inner []byte
}

func (r *resultElement) decodeContact() (*gen.Contact, error) {
	if r == nil {
		return nil, nil
	}
	var contact gen.Contact
	doc := append([]byte("<Contact>"), append(r.inner, "</Contact>"...)...)
	if err := xml.Unmarshal(doc, &contact); err != nil {
		return nil, fmt.Errorf("decoding the contact: %w", err)
	}
	return &contact, nil
}

func (r *resultElement) text() (string, error) {
	if r == nil {
		return "", errors.New("the response holds no result")
	}
	var s string
	doc := append([]byte("<v>"), append(r.inner, "</v>"...)...)
	if err := xml.Unmarshal(doc, &s); err != nil {
		return "", fmt.Errorf("decoding the result: %w", err)
	}
	return s, nil
}

func (r *resultElement) int32() (int32, error) {
	s, err := r.text()
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("the result %q is not an int: %w", s, err)
	}
	return int32(n), nil
}

// element is a generic XML element that keeps its inner XML.
type element struct {
	XMLName xml.Name
	Inner   []byte    `xml:",innerxml"`
	Kids    []element `xml:",any"`
}

func parseRoot(body []byte) (*resultElement, error) {
	var root element
	if err := xml.Unmarshal(body, &root); err != nil {
		return nil, fmt.Errorf("the response is not XML: %w", err)
	}
	return &resultElement{start: xml.StartElement{Name: root.XMLName}, inner: root.Inner}, nil
}

func (c *Client) parseEnvelope(op string, resp *http.Response, body []byte) (*resultElement, error) {
	var env element
	if err := xml.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("HTTP %d: the response is not a SOAP envelope: %w", resp.StatusCode, err)
	}
	var bodyElem *element
	for i := range env.Kids {
		if env.Kids[i].XMLName.Local == "Body" {
			bodyElem = &env.Kids[i]
		}
	}
	if env.XMLName.Local != "Envelope" || bodyElem == nil || len(bodyElem.Kids) == 0 {
		return nil, fmt.Errorf("HTTP %d: the response is not a SOAP envelope with a body", resp.StatusCode)
	}
	first := bodyElem.Kids[0]
	if first.XMLName.Local == "Fault" {
		return nil, parseFault(first.Inner)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d without a SOAP fault", resp.StatusCode)
	}
	if first.XMLName.Local != op+"Response" || first.XMLName.Space != c.Namespace {
		return nil, fmt.Errorf("expected %sResponse in namespace %q, got %s in namespace %q", op, c.Namespace, first.XMLName.Local, first.XMLName.Space)
	}
	for _, kid := range first.Kids {
		if kid.XMLName.Local == op+"Result" {
			return &resultElement{start: xml.StartElement{Name: kid.XMLName}, inner: kid.Inner}, nil
		}
	}
	return nil, nil
}

// parseFault reads a SOAP 1.1 or SOAP 1.2 fault's content.
func parseFault(inner []byte) error {
	var f struct {
		FaultCode   string `xml:"faultcode"`
		FaultString string `xml:"faultstring"`
		Code        string `xml:"Code>Value"`
		Reason      string `xml:"Reason>Text"`
		Detail11    string `xml:"detail>ErrorCode"`
		Detail12    string `xml:"Detail>ErrorCode"`
	}
	if err := xml.Unmarshal(append([]byte("<Fault>"), append(inner, "</Fault>"...)...), &f); err != nil {
		return fmt.Errorf("the SOAP fault could not be read: %w", err)
	}
	fault := &Fault{Code: f.FaultCode, Message: f.FaultString, ErrorCode: f.Detail11}
	if f.Code != "" {
		fault.Code, fault.Message, fault.ErrorCode = f.Code, f.Reason, f.Detail12
	}
	_, fault.Code, _ = strings.Cut(fault.Code, ":")
	if fault.Code == "" {
		fault.Code = strings.TrimSpace(f.FaultCode + f.Code)
	}
	return fault
}

func (c *Client) contact(ctx context.Context, op, id string) (*gen.Contact, error) {
	r, err := c.call(ctx, op, &id)
	if err != nil {
		return nil, err
	}
	return r.decodeContact()
}

// TestCreateContactContext calls TestCreateContact.
func (c *Client) TestCreateContactContext(ctx context.Context, req *gen.TestCreateContact) (*gen.TestCreateContactResponse, error) {
	contact, err := c.contact(ctx, "TestCreateContact", req.Id)
	if err != nil {
		return nil, err
	}
	return &gen.TestCreateContactResponse{TestCreateContactResult: contact}, nil
}

// TestUpdateContactContext calls TestUpdateContact.
func (c *Client) TestUpdateContactContext(ctx context.Context, req *gen.TestUpdateContact) (*gen.TestUpdateContactResponse, error) {
	contact, err := c.contact(ctx, "TestUpdateContact", req.Id)
	if err != nil {
		return nil, err
	}
	return &gen.TestUpdateContactResponse{TestUpdateContactResult: contact}, nil
}

// DeleteContactContext calls DeleteContact.
func (c *Client) DeleteContactContext(ctx context.Context, req *gen.DeleteContact) (*gen.DeleteContactResponse, error) {
	contact, err := c.contact(ctx, "DeleteContact", req.Id)
	if err != nil {
		return nil, err
	}
	return &gen.DeleteContactResponse{DeleteContactResult: contact}, nil
}

// ReadContactContext calls ReadContact.
func (c *Client) ReadContactContext(ctx context.Context, req *gen.ReadContact) (*gen.ReadContactResponse, error) {
	contact, err := c.contact(ctx, "ReadContact", req.Id)
	if err != nil {
		return nil, err
	}
	return &gen.ReadContactResponse{ReadContactResult: contact}, nil
}

// VersionContext calls Version.
func (c *Client) VersionContext(ctx context.Context, _ *gen.Version) (*gen.VersionResponse, error) {
	r, err := c.call(ctx, "Version", nil)
	if err != nil {
		return nil, err
	}
	s, err := r.text()
	if err != nil {
		return nil, err
	}
	return &gen.VersionResponse{VersionResult: s}, nil
}

// VersionMajorContext calls VersionMajor.
func (c *Client) VersionMajorContext(ctx context.Context, _ *gen.VersionMajor) (*gen.VersionMajorResponse, error) {
	r, err := c.call(ctx, "VersionMajor", nil)
	if err != nil {
		return nil, err
	}
	n, err := r.int32()
	if err != nil {
		return nil, err
	}
	return &gen.VersionMajorResponse{VersionMajorResult: n}, nil
}

// VersionMinorContext calls VersionMinor.
func (c *Client) VersionMinorContext(ctx context.Context, _ *gen.VersionMinor) (*gen.VersionMinorResponse, error) {
	r, err := c.call(ctx, "VersionMinor", nil)
	if err != nil {
		return nil, err
	}
	n, err := r.int32()
	if err != nil {
		return nil, err
	}
	return &gen.VersionMinorResponse{VersionMinorResult: n}, nil
}

// TestCreateContact is TestCreateContactContext without a context.
func (c *Client) TestCreateContact(req *gen.TestCreateContact) (*gen.TestCreateContactResponse, error) {
	return c.TestCreateContactContext(context.Background(), req)
}

// TestUpdateContact is TestUpdateContactContext without a context.
func (c *Client) TestUpdateContact(req *gen.TestUpdateContact) (*gen.TestUpdateContactResponse, error) {
	return c.TestUpdateContactContext(context.Background(), req)
}

// DeleteContact is DeleteContactContext without a context.
func (c *Client) DeleteContact(req *gen.DeleteContact) (*gen.DeleteContactResponse, error) {
	return c.DeleteContactContext(context.Background(), req)
}

// ReadContact is ReadContactContext without a context.
func (c *Client) ReadContact(req *gen.ReadContact) (*gen.ReadContactResponse, error) {
	return c.ReadContactContext(context.Background(), req)
}

// Version is VersionContext without a context.
func (c *Client) Version(req *gen.Version) (*gen.VersionResponse, error) {
	return c.VersionContext(context.Background(), req)
}

// VersionMajor is VersionMajorContext without a context.
func (c *Client) VersionMajor(req *gen.VersionMajor) (*gen.VersionMajorResponse, error) {
	return c.VersionMajorContext(context.Background(), req)
}

// VersionMinor is VersionMinorContext without a context.
func (c *Client) VersionMinor(req *gen.VersionMinor) (*gen.VersionMinorResponse, error) {
	return c.VersionMinorContext(context.Background(), req)
}
