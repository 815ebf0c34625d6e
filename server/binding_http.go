package server

import (
	"mime"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/wire"
)

// httpBinding serves the HTTP GET (post false) and HTTP POST (post true) bindings: the operation is the
// last path segment, the parameters come from the query string or a form body, bound by name and XSD
// type by the generated table, and the result is a bare XML document whose root is the global element
// named after the result's type (Contact, string, int; spec §4.1, §4.2).
type httpBinding struct {
	post      bool
	namespace string
	// start holds, per operation, the precomputed root start tag; nilRoot the root of a null result.
	start, nilRoot map[*wire.Operation][]byte
	ops            []*wire.Operation // the generated operation table
}

const httpContentType = "text/xml; charset=utf-8"

func newHTTPBinding(post bool, namespace string, ops []*wire.Operation) *httpBinding {
	b := &httpBinding{post: post, namespace: namespace, ops: ops, start: map[*wire.Operation][]byte{}, nilRoot: map[*wire.Operation][]byte{}}
	ns := string(appendEscaped(nil, namespace))
	for _, op := range ops {
		root := op.HTTPRoot
		b.start[op] = []byte(xmlDeclaration + `<` + root + ` xmlns:xsi="` + nsXSI + `" xmlns:xsd="` + nsXSD + `" xmlns="` + ns + `">`)
		b.nilRoot[op] = []byte(xmlDeclaration + `<` + root + ` xsi:nil="true" xmlns:xsi="` + nsXSI + `" xmlns="` + ns + `" />`)
	}
	return b
}

func (b *httpBinding) name() string {
	if b.post {
		return "post"
	}
	return "get"
}

// carriesTokens: the HTTP bindings have no way to carry credentials but the Authorization header.
func (b *httpBinding) carriesTokens() bool { return false }

func (b *httpBinding) offers(op *wire.Operation) bool {
	if b.post {
		return op.Bindings.Has(wire.HTTPPost)
	}
	return op.Bindings.Has(wire.HTTPGet)
}

func (b *httpBinding) decode(r *http.Request, body []byte) (request, *Error) {
	opName := strings.TrimPrefix(r.URL.Path, endpointPath+"/")
	op := wire.Lookup(b.ops, opName)
	if op == nil || op.DecodeForm == nil || !b.offers(op) {
		return request{}, errorf(CodeUnknownOperation, "The operation %q does not exist; operations are: %s.",
			opName, strings.Join(b.operationNames(), ", "))
	}
	raw := r.URL.RawQuery
	if b.post {
		mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mediaType != "application/x-www-form-urlencoded" {
			return request{}, errorf(CodeUnsupportedMediaType, "The HTTP POST binding requires the content type application/x-www-form-urlencoded.")
		}
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
			return request{}, errorf(CodeUnsupportedMediaType, "The form's charset %q is not supported; use utf-8.", cs)
		}
		raw = string(body)
	}
	form, err := wire.ParseForm(raw)
	if err != nil {
		return request{}, errorf(CodeMalformedRequest, "The parameters are not valid URL encoding.")
	}
	msg, err := op.DecodeForm(form)
	wire.PutForm(form)
	if err != nil {
		return request{}, asError(err)
	}
	return request{op: op, msg: msg}, nil
}

// operationNames lists the operations this binding offers, for the unknown-operation message.
func (b *httpBinding) operationNames() []string {
	var names []string
	for _, op := range b.ops {
		if b.offers(op) && op.DecodeForm != nil {
			names = append(names, op.Name)
		}
	}
	return names
}

func (b *httpBinding) writeResult(w http.ResponseWriter, op *wire.Operation, resp wire.Message) {
	if op.Result == nil {
		// An operation without a result has no document to send: ASMX answers 200 with an empty body
		// and no Content-Type (the type zoo's get-Nothing and post-Nothing).
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
		return
	}
	buf := getBuffer()
	defer putBuffer(buf)
	*buf = b.appendResult(*buf, op, resp)
	writeBody(w, http.StatusOK, httpContentType, *buf)
}

// appendResult appends the result document: the root element holding the result, or an xsi:nil root
// for a null result.
func (b *httpBinding) appendResult(buf []byte, op *wire.Operation, resp wire.Message) []byte {
	mark := len(buf)
	buf = append(buf, b.start[op]...)
	buf, ok := wire.AppendResult(op, buf, resp)
	if !ok {
		return append(buf[:mark], b.nilRoot[op]...)
	}
	return wire.AppendEnd(buf, op.HTTPRoot)
}

// statusFor is an error code's HTTP status on the GET and POST bindings (fault's table, RFC 9110 §15).
func statusFor(code Code) int { return code.Mapping().HTTPStatus }

func (b *httpBinding) writeError(w http.ResponseWriter, e *Error) {
	writePlainError(w, e)
}

// writePlainError writes err as a text/plain message with the status statusFor gives. It serves the
// HTTP bindings and every request that reaches no binding at all (wrong method, unknown media type).
func writePlainError(w http.ResponseWriter, e *Error) {
	if e.Code == CodeUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	if e.Code == CodeUnauthenticated {
		w.Header().Set("WWW-Authenticate", basicChallenge)
	}
	writeBody(w, statusFor(e.Code), "text/plain; charset=utf-8", []byte(e.Message+"\n"))
}
