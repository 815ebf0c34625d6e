package server

import (
	"net/http"

	"github.com/contactsync/contactsync/server/wire"
)

// binding is the adapter every wire protocol implements (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST). The
// handler picks one by method, path and content type, then drives it the same way for every
// operation: decode a request into an operation and its generated request value, call the operation
// through the generated table, encode the result or the error. Nothing here knows an operation: the
// table (gen.Operations) does.
type binding interface {
	// name identifies the binding in logs and metrics: soap11, soap12, get or post.
	name() string
	// carriesTokens reports whether requests of this binding may carry credentials in the body (a
	// WS-Security UsernameToken), so a request without an Authorization header is not refused
	// before its body is read.
	carriesTokens() bool
	// decode reads the request. body holds the request body, already read within the size limit. The
	// returned request carries what the binding found of the caller's credentials even when decoding
	// failed after them.
	decode(r *http.Request, body []byte) (request, *Error)
	// writeResult writes a successful response.
	writeResult(w http.ResponseWriter, op *wire.Operation, resp wire.Message)
	// writeError writes err in the binding's error form (a fault, or a status with a text message).
	writeError(w http.ResponseWriter, err *Error)
}

// request is a decoded request: the operation, its generated request value and the credentials the
// body carried.
type request struct {
	op  *wire.Operation
	msg wire.Message
	// security is the WS-Security header addressed to this service, nil when there is none.
	security *wsseSecurity
}

// writeBody writes a complete response with an explicit length, so clients never see chunked encoding
// for these small documents.
func writeBody(w http.ResponseWriter, status int, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
