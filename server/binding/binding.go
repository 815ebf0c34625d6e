package binding

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
)

// Binding is the adapter every wire protocol implements (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST, the
// JSON endpoint). Each says which requests it serves (Route); the handler builds its dispatch from the
// routes of the bindings it has, and answers 404, 405 (with Allow) and 415 from them, so it names no
// binding. It then drives the binding it chose the same way for every operation: admit the body, decode
// it into an operation and its generated request value, call the operation through the generated
// table, encode the result or the error. Nothing here knows an operation: the table (gen.Operations)
// does.
type Binding interface {
	// Name identifies the binding in logs and metrics, and is its protocol's name in --protocols
	// (ProtocolNames): soap11, soap12, get, post or json.
	Name() string
	// Route says which requests the binding serves. The handler reads it once, when it is built.
	Route() Route
	// Offers reports whether the binding serves op (the contract's binding of its protocol lists it).
	Offers(op *wire.Operation) bool
	// CarriesTokens reports whether requests of this binding may carry credentials in the body (a
	// WS-Security UsernameToken), so a request without an Authorization header is not refused
	// before its body is read.
	CarriesTokens() bool
	// CheckPrefix may refuse a body from its first bytes, as they arrive, when they already break a
	// limit the whole body would break (admission.PrefixChecker); nil lets the body be read on.
	CheckPrefix(prefix []byte) *fault.Error
	// Decode reads the request. opName is the operation name the path gives (the last segment of
	// <endpoint>/<Operation>) for a binding whose Route has OperationInPath, "" for the others. body
	// holds the request body, already read within the size limit. The returned request carries the
	// credentials the body held even when decoding failed after them.
	Decode(r *http.Request, opName string, body []byte) (Request, *fault.Error)
	// WriteResult writes a successful response.
	WriteResult(w http.ResponseWriter, op *wire.Operation, resp wire.Message)
	// WriteSample writes the response the help pages show: what WriteResult writes, around the sample's
	// placeholder content instead of a result's, so a sample is always what the binding really writes.
	WriteSample(w http.ResponseWriter, op *wire.Operation, sample Sample)
	// WriteError writes err in the binding's error form (a fault, a JSON error object, or a status with
	// a text message), with the status fault's table gives the binding.
	WriteError(w http.ResponseWriter, err *fault.Error)
}

// Route is which requests a binding serves, and what the handler answers for it where it does not
// serve them: at which path, with which methods and media types, and the answer when --protocols
// leaves it off.
type Route struct {
	// Title names the binding to people: the heading of its samples on the help pages, and the
	// handler's message listing which media type each binding takes (SOAP 1.1, HTTP GET, JSON).
	Title string
	// OperationInPath: the binding is served at <endpoint>/<Operation>, and Decode is given the
	// operation name from the path; otherwise it is served at the endpoint itself.
	OperationInPath bool
	// Methods are the HTTP methods the binding takes.
	Methods []string
	// MediaType, when set, is the media type (lower case) of the requests the binding takes, and the
	// binding is chosen only for a request of it; a binding without one takes every request of its
	// methods at its path and judges the content type itself. The handler tries the bindings with a
	// media type first.
	MediaType string
	// Strict asks for a Content-Type that parses whole: a header of MediaType whose parameters do
	// not parse is not the binding's. Without it the media type alone decides.
	Strict bool
	// Claims makes a request of MediaType at the binding's path the binding's whatever its method: a
	// method the binding does not take is answered 405, with Allow, in the binding's own error form
	// (NotAllowed), not passed to another binding.
	Claims bool
	// NotAllowed is the error for a method a claiming binding does not take.
	NotAllowed func(method string) *fault.Error
	// Off is the answer, written as plain text, to a request the binding would take when --protocols
	// leaves it off; nil when a binding that is off takes nothing and leaves the request to the others.
	Off *fault.Error
}

// Sample is the placeholder message the help pages show as a response: it writes its placeholder
// content in the form of each binding.
type Sample interface {
	// Message is the content of a SOAP response wrapper.
	wire.Message
	// AppendResult appends the content of an HTTP result document; ok is false for a null result.
	AppendResult(b []byte) (out []byte, ok bool)
	// AppendResultJSON appends the result as a JSON value.
	AppendResultJSON(b []byte) []byte
}

// Request is a decoded request: the operation, its generated request value and the credentials the
// body carried, which auth judges (auth.Authenticator.Decide). HTTP Basic credentials travel in the
// Authorization header and are judged from it before the body is decoded, so that an unauthenticated
// caller's body is never parsed.
type Request struct {
	Op          *wire.Operation
	Msg         wire.Message
	Credentials auth.Credentials
	// UnknownHeaders are the SOAP header blocks the operation does not declare (wire.UnknownHeaders):
	// nil but on SOAP for a contract with headers.
	UnknownHeaders []wire.HeaderBlock
}

// WriteBody writes a complete response in one Write, never chunked. A body below autoLength gets its
// Content-Length from net/http, which adds it to a response whose handler wrote less than a few KB
// and returned (http.ResponseWriter's Write); a longer one declares it here.
func WriteBody(w http.ResponseWriter, status int, contentType string, body []byte) {
	h := w.Header()
	h["Content-Type"] = contentTypeValue(contentType)
	if len(body) >= autoLength {
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// autoLength is the size from which WriteBody declares the Content-Length itself: net/http buffers
// 2048 bytes of a response before it decides between a computed Content-Length and chunking.
const autoLength = 2048

// The content types the service answers with, as header values that are shared and never modified,
// so setting one allocates nothing (and needs no canonicalising of the key).
var (
	headerTextXML   = []string{"text/xml; charset=utf-8"}
	headerSOAP12    = []string{"application/soap+xml; charset=utf-8"}
	headerJSON      = []string{"application/json; charset=utf-8"}
	headerPlainText = []string{"text/plain; charset=utf-8"}
)

func contentTypeValue(contentType string) []string {
	switch contentType {
	case headerTextXML[0]:
		return headerTextXML
	case headerSOAP12[0]:
		return headerSOAP12
	case headerJSON[0]:
		return headerJSON
	case headerPlainText[0]:
		return headerPlainText
	}
	return []string{contentType}
}

// SetErrorHeaders sets the headers an error's code asks for on every binding: Retry-After on
// Unavailable, which load balancers and retry policies act on, and the HTTP Basic challenge on
// Unauthenticated (RFC 9110 §11.6.1), which makes .NET proxies retry with their credentials — except
// for a refused UsernameToken (its cause an auth.TokenFault), which the SOAP binding answers with a
// WS-Security fault instead.
func SetErrorHeaders(w http.ResponseWriter, e *fault.Error) {
	switch e.Code {
	case fault.Unavailable:
		w.Header().Set("Retry-After", "1")
	case fault.Unauthenticated:
		if _, token := e.Err.(auth.TokenFault); !token {
			w.Header().Set("WWW-Authenticate", auth.BasicChallenge)
		}
	}
}

// WritePlainError writes e as a text/plain message with the code's HTTP status (fault's table). It
// serves the HTTP GET and POST bindings, and every request that reaches no binding at all (unknown
// path, wrong method or media type, a disabled protocol, the documents).
func WritePlainError(w http.ResponseWriter, e *fault.Error) {
	SetErrorHeaders(w, e)
	WriteBody(w, e.Code.Mapping().HTTPStatus, "text/plain; charset=utf-8", []byte(e.Message+"\n"))
}

// bufferPool recycles response and request buffers; they are small and every request needs two.
var bufferPool = sync.Pool{New: func() any { b := make([]byte, 0, SmallBuffer); return &b }}

// SmallBuffer is the capacity of the pooled buffers: enough for every request and response of the
// contract but the largest arrays.
const SmallBuffer = 4 << 10

// GetBuffer returns an empty buffer from the pool.
func GetBuffer() *[]byte { return bufferPool.Get().(*[]byte) }

// PutBuffer returns b to the pool, unless a large request or response grew it.
func PutBuffer(b *[]byte) {
	if cap(*b) > 64<<10 {
		return // do not keep buffers grown by unusually large requests
	}
	*b = (*b)[:0]
	bufferPool.Put(b)
}
