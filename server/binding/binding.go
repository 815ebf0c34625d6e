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
// JSON endpoint). The handler picks one by method, path and content type, then drives it the same way
// for every operation: admit the body, decode it into an operation and its generated request value,
// call the operation through the generated table, encode the result or the error. Nothing here knows
// an operation: the table (gen.Operations) does.
type Binding interface {
	// Name identifies the binding in logs and metrics: soap11, soap12, get, post or json.
	Name() string
	// Offers reports whether the binding serves op (the contract's binding of its protocol lists it).
	Offers(op *wire.Operation) bool
	// CarriesTokens reports whether requests of this binding may carry credentials in the body (a
	// WS-Security UsernameToken), so a request without an Authorization header is not refused
	// before its body is read.
	CarriesTokens() bool
	// CheckPrefix may refuse a body from its first bytes, as they arrive, when they already break a
	// limit the whole body would break (admission.PrefixChecker); nil lets the body be read on.
	CheckPrefix(prefix []byte) *fault.Error
	// Decode reads the request. body holds the request body, already read within the size limit. The
	// returned request carries the credentials the body held even when decoding failed after them.
	Decode(r *http.Request, body []byte) (Request, *fault.Error)
	// WriteResult writes a successful response. The help pages call it with placeholder results for
	// their samples, so a sample is always what the binding really writes.
	WriteResult(w http.ResponseWriter, op *wire.Operation, resp wire.Message)
	// WriteError writes err in the binding's error form (a fault, a JSON error object, or a status with
	// a text message), with the status fault's table gives the binding.
	WriteError(w http.ResponseWriter, err *fault.Error)
}

// Request is a decoded request: the operation, its generated request value and the credentials the
// body carried. HTTP Basic credentials travel in the Authorization header and are judged from it before
// the body is decoded, so that an unauthenticated caller's body is never parsed.
type Request struct {
	Op          *wire.Operation
	Msg         wire.Message
	Credentials Credentials
}

// Credentials are what a request body carried to authenticate its caller: on SOAP, the UsernameToken
// of a WS-Security header addressed to this service.
type Credentials struct {
	// Token is the UsernameToken, nil when the body carried none.
	Token *auth.UsernameToken
	// Problem says why the security header cannot be used (two tokens, two headers, elements where text
	// belongs); "" when it can, or when there was none. It matters only when authentication is on; with
	// it off, the header is ignored.
	Problem string
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
