package httpform

import (
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/formwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// Binding serves the HTTP GET (post false) and HTTP POST (post true) bindings: the operation is the
// last path segment, the parameters come from the query string or a form body, bound by name and XSD
// type by the generated table, and the result is a bare XML document whose root is the global element
// named after the result's type (Contact, string, int; spec §4.1, §4.2).
type Binding struct {
	post      bool
	namespace string
	// start holds, per operation, the precomputed root start tag; nilRoot the root of a null result.
	start, nilRoot map[*wire.Operation][]byte
	ops            []*wire.Operation // the generated operation table
}

const httpContentType = "text/xml; charset=utf-8"

// New returns the HTTP GET (post false) or HTTP POST binding of the operations ops, whose result
// documents are in namespace.
func New(post bool, namespace string, ops []*wire.Operation) *Binding {
	b := &Binding{post: post, namespace: namespace, ops: ops, start: map[*wire.Operation][]byte{}, nilRoot: map[*wire.Operation][]byte{}}
	ns := string(xmlwire.AppendEscaped(nil, namespace))
	for _, op := range ops {
		root := op.HTTPRoot
		b.start[op] = []byte(xmlwire.XMLDeclaration + `<` + root + ` xmlns:xsi="` + xmlwire.NSXSI + `" xmlns:xsd="` + xmlwire.NSXSD + `" xmlns="` + ns + `">`)
		switch {
		case rootless(op): // the XmlElement itself is the document (get-MakeElement-plain)
			b.start[op] = []byte(xmlwire.XMLDeclaration)
		case op.Result != nil && op.Result.Type.Kind == wire.KindDataSet: // no xsd, xsi (get-GetDataSet-2)
			b.start[op] = []byte(xmlwire.XMLDeclaration + `<` + root + ` xmlns="` + ns + `">`)
		}
		b.nilRoot[op] = []byte(xmlwire.XMLDeclaration + `<` + root + ` xsi:nil="true" xmlns:xsi="` + xmlwire.NSXSI + `" xmlns="` + ns + `" />`)
	}
	return b
}

// Name is get or post.
func (b *Binding) Name() string {
	if b.post {
		return "post"
	}
	return "get"
}

// Route: GET or POST of <endpoint>/<Operation>, whatever the content type (the POST binding refuses
// one that is not a form itself, once the request is admitted); off, such a request is answered 404
// naming the protocol.
func (b *Binding) Route() binding.Route {
	method, title := http.MethodGet, "HTTP GET"
	if b.post {
		method, title = http.MethodPost, "HTTP POST"
	}
	return binding.Route{Title: title, OperationInPath: true, Methods: []string{method},
		Off: fault.Errorf(fault.UnknownOperation, "The %s protocol is not enabled on this service.", title)}
}

// CarriesTokens: the HTTP bindings have no way to carry credentials but the Authorization header.
func (b *Binding) CarriesTokens() bool { return false }

// CheckPrefix refuses nothing early: a form body is bounded by the body size limit alone.
func (b *Binding) CheckPrefix([]byte) *fault.Error { return nil }

// Offers reports whether the binding offers op: the contract's HTTP binding lists it, and its
// parameters are all of simple types, as a query string or form can carry them.
func (b *Binding) Offers(op *wire.Operation) bool {
	if op.DecodeForm == nil {
		return false
	}
	if b.post {
		return op.Bindings.Has(wire.HTTPPost)
	}
	return op.Bindings.Has(wire.HTTPGet)
}

// Decode reads the operation named by the last path segment, opName, and its parameters from the
// query string or the form body. Once the path names an operation of the contract, every error is
// returned with it, so the request is counted and logged under that operation.
func (b *Binding) Decode(r *http.Request, opName string, body []byte) (binding.Request, *fault.Error) {
	op := wire.Lookup(b.ops, opName)
	if op == nil {
		return binding.Request{}, fault.Errorf(fault.UnknownOperation, "The operation %q does not exist; operations are: %s.",
			opName, strings.Join(b.operationNames(), ", "))
	}
	if !b.Offers(op) {
		// The request's path is <endpoint>/<opName>: the endpoint path is what precedes the name, so
		// the message names the endpoint of whichever contract is served there.
		return binding.Request{Op: op}, b.notOffered(op, strings.TrimSuffix(r.URL.Path, "/"+opName))
	}
	raw := r.URL.RawQuery
	if b.post {
		if ferr := checkFormType(r.Header.Get("Content-Type")); ferr != nil {
			return binding.Request{Op: op}, ferr
		}
		raw = string(body)
	}
	form, err := formwire.Parse(raw)
	if err != nil {
		return binding.Request{Op: op}, fault.Errorf(fault.MalformedRequest, "The parameters are not valid URL encoding.")
	}
	msg, err := op.DecodeForm(form)
	formwire.Put(form)
	if err != nil {
		return binding.Request{Op: op}, fault.As(err)
	}
	return binding.Request{Op: op, Msg: msg}, nil
}

// bindingNames are the bindings of the contract as a caller knows them.
var bindingNames = []struct {
	b    wire.Bindings
	name string
}{{wire.SOAP11, "SOAP 1.1"}, {wire.SOAP12, "SOAP 1.2"}, {wire.HTTPGet, "HTTP GET"}, {wire.HTTPPost, "HTTP POST"}}

// notOffered is the error for an operation of the contract this binding does not offer: ASMX offers
// an operation with a guid or complex parameter over SOAP only (and answers "{0} Web Service method
// name is not valid."); the message says so, and where the operation is offered: endpoint is the
// path SOAP requests go to.
func (b *Binding) notOffered(op *wire.Operation, endpoint string) *fault.Error {
	here := "HTTP GET"
	if b.post {
		here = "HTTP POST"
	}
	var on []string
	for _, n := range bindingNames {
		if op.Bindings.Has(n.b) && (n.b != wire.HTTPGet && n.b != wire.HTTPPost || op.DecodeForm != nil) {
			on = append(on, n.name)
		}
	}
	switch {
	case len(on) == 0:
		return fault.Errorf(fault.UnknownOperation, "The operation %q is not offered over %s.", op.Name, here)
	case op.Bindings&(wire.HTTPGet|wire.HTTPPost) == 0 || op.DecodeForm == nil:
		return fault.Errorf(fault.UnknownOperation, "The operation %q is offered over SOAP only (%s), not over %s; send it as a SOAP request to %s.",
			op.Name, strings.Join(on, " and "), here, endpoint)
	}
	return fault.Errorf(fault.UnknownOperation, "The operation %q is not offered over %s; it is offered over %s.", op.Name, here, strings.Join(on, ", "))
}

const formType = "application/x-www-form-urlencoded"

// checkFormType accepts a form body's content type: application/x-www-form-urlencoded, in UTF-8 if a
// charset is named.
func checkFormType(contentType string) *fault.Error {
	c := binding.ReadContentType(contentType)
	if c.Err != nil || c.MediaType != formType {
		return fault.Errorf(fault.UnsupportedMediaType, "The HTTP POST binding requires the content type application/x-www-form-urlencoded.")
	}
	if cs, ok := c.Param("charset"); ok && !strings.EqualFold(cs, "utf-8") {
		return fault.Errorf(fault.UnsupportedMediaType, "The form's charset %q is not supported; use utf-8.", cs)
	}
	return nil
}

// operationNames lists the operations this binding offers, for the unknown-operation message.
func (b *Binding) operationNames() []string {
	var names []string
	for _, op := range b.ops {
		if b.Offers(op) {
			names = append(names, op.Name)
		}
	}
	return names
}

// WriteResult writes the result document, or an empty 200 for an operation without a result.
func (b *Binding) WriteResult(w http.ResponseWriter, op *wire.Operation, resp wire.Message) {
	if op.Result == nil {
		writeNoResult(w)
		return
	}
	buf := binding.GetBuffer()
	defer binding.PutBuffer(buf)
	mark := len(*buf)
	*buf = append(*buf, b.start[op]...)
	ok := false
	if op.AppendResult != nil {
		*buf, ok = op.AppendResult(*buf, resp)
	}
	*buf = b.endResult(*buf, op, mark, ok)
	binding.WriteBody(w, http.StatusOK, httpContentType, *buf)
}

// WriteSample writes the result document around a help-page sample, as WriteResult writes a result.
func (b *Binding) WriteSample(w http.ResponseWriter, op *wire.Operation, sample binding.Sample) {
	if op.Result == nil {
		writeNoResult(w)
		return
	}
	buf := binding.GetBuffer()
	defer binding.PutBuffer(buf)
	mark := len(*buf)
	*buf = append(*buf, b.start[op]...)
	var ok bool
	*buf, ok = sample.AppendResult(*buf)
	*buf = b.endResult(*buf, op, mark, ok)
	binding.WriteBody(w, http.StatusOK, httpContentType, *buf)
}

// writeNoResult answers an operation without a result: ASMX has no document to send, and answers 200
// with an empty body and no Content-Type (the type zoo's get-Nothing and post-Nothing).
func writeNoResult(w http.ResponseWriter) {
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

// endResult ends the result document whose root start tag was appended at mark: the root's end tag
// after its content, or, for a null result (ok false), an xsi:nil root in place of the start tag.
func (b *Binding) endResult(buf []byte, op *wire.Operation, mark int, ok bool) []byte {
	if !ok {
		return append(buf[:mark], b.nilRoot[op]...)
	}
	if rootless(op) {
		return buf
	}
	return xmlwire.AppendEnd(buf, op.HTTPRoot)
}

// rootless reports whether op's result document has no root of its own: a raw-XML result (an
// XmlElement), whose element ASMX writes as the document's root (shapes README §4,
// get-MakeElement-plain). A null one is a nil root named after the type.
func rootless(op *wire.Operation) bool {
	return op.Result != nil && op.Result.Type.Kind == wire.KindRawXML
}

// WriteError writes e as a text/plain message with the code's HTTP status (fault's table; RFC 9110
// §15), as ASMX's HTTP bindings answer errors.
func (b *Binding) WriteError(w http.ResponseWriter, e *fault.Error) {
	binding.WritePlainError(w, e)
}
