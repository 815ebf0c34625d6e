package server

import (
	"net/http"
)

// binding is the adapter every wire protocol implements (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST). The
// handler picks one by method, path and content type, then drives it the same way for every
// operation: decode a request into an operation and its id, call the operation, encode the result or
// the error. Keeping the four behind one interface is what lets one dispatch table serve them all.
type binding interface {
	// name identifies the binding in logs and metrics: soap11, soap12, get or post.
	name() string
	// decode reads the request and returns the operation it names and its id argument (empty for the
	// parameterless operations). body holds the request body, already read within the size limit.
	decode(r *http.Request, body []byte) (*operation, string, *Error)
	// writeResult writes a successful response.
	writeResult(w http.ResponseWriter, op *operation, r result)
	// writeError writes err in the binding's error form (a fault, or a status with a text message).
	writeError(w http.ResponseWriter, err *Error)
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
