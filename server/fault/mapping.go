package fault

import "net/http"

// Mapping is what one code means on every binding and in the metrics: the one table the bindings
// and the metrics read, so a code's wire forms are decided in one place (TestMappingComplete fails
// when a code misses a column).
type Mapping struct {
	// HTTPStatus is the status of the HTTP GET and POST bindings' text/plain error, and of requests
	// that reach no binding (RFC 9110 §15).
	HTTPStatus int
	// SOAPStatus is the status of a SOAP fault: 500, as SOAP 1.1 §6.2 requires and as .NET's SOAP 1.2
	// proxies need to read a fault (OutcomeUnknown included); 503 with Retry-After for Unavailable, which
	// load balancers and retry policies act on; 401 with the Basic challenge for Unauthenticated, which makes .NET proxies retry
	// with credentials — except a refused WS-Security UsernameToken, a SOAP fault with its wsse code
	// and 500 (the SOAP binding decides by the error's cause).
	SOAPStatus int
	// SOAP11 is the SOAP 1.1 faultcode's local name (SOAP 1.1 §4.4.1).
	SOAP11 string
	// SOAP12 is the SOAP 1.2 Code Value's local name (SOAP 1.2 Part 1 §5.4.6); the service's code
	// follows as a Subcode, except for the header faults VersionMismatch and MustUnderstand.
	SOAP12 string
	// JSONStatus is the JSON endpoint's status: ASP.NET AJAX answers a failed call with 500, which its
	// clients expect; malformed JSON is 400, and the statuses proxies and clients act on keep their
	// meaning.
	JSONStatus int
	// Outcome is the label value of the request metrics and the access log.
	Outcome string
}

// table is the table, one row per code, in the order of docs/bindings.md's error table. A slice rather than a map: the
// bindings look a code up on every error response, and a scan of a dozen short strings costs less than
// hashing one.
var table = []struct {
	code Code
	Mapping
}{
	{InvalidArgument, Mapping{HTTPStatus: http.StatusBadRequest, SOAPStatus: 500, SOAP11: "Client", SOAP12: "Sender", JSONStatus: 500, Outcome: "InvalidArgument"}},
	{MalformedRequest, Mapping{HTTPStatus: http.StatusBadRequest, SOAPStatus: 500, SOAP11: "Client", SOAP12: "Sender", JSONStatus: 400, Outcome: "MalformedRequest"}},
	{NotFound, Mapping{HTTPStatus: http.StatusNotFound, SOAPStatus: 500, SOAP11: "Client", SOAP12: "Sender", JSONStatus: 500, Outcome: "NotFound"}},
	{UnknownOperation, Mapping{HTTPStatus: http.StatusNotFound, SOAPStatus: 500, SOAP11: "Client", SOAP12: "Sender", JSONStatus: 404, Outcome: "UnknownOperation"}},
	{MethodNotAllowed, Mapping{HTTPStatus: http.StatusMethodNotAllowed, SOAPStatus: 405, SOAP11: "Client", SOAP12: "Sender", JSONStatus: 405, Outcome: "MethodNotAllowed"}},
	{UnsupportedMediaType, Mapping{HTTPStatus: http.StatusUnsupportedMediaType, SOAPStatus: 415, SOAP11: "Client", SOAP12: "Sender", JSONStatus: 415, Outcome: "UnsupportedMediaType"}},
	{TooLarge, Mapping{HTTPStatus: http.StatusRequestEntityTooLarge, SOAPStatus: 500, SOAP11: "Client", SOAP12: "Sender", JSONStatus: 413, Outcome: "TooLarge"}},
	{VersionMismatch, Mapping{HTTPStatus: http.StatusBadRequest, SOAPStatus: 500, SOAP11: "VersionMismatch", SOAP12: "VersionMismatch", JSONStatus: 400, Outcome: "VersionMismatch"}},
	{MustUnderstand, Mapping{HTTPStatus: http.StatusBadRequest, SOAPStatus: 500, SOAP11: "MustUnderstand", SOAP12: "MustUnderstand", JSONStatus: 400, Outcome: "MustUnderstand"}},
	{Unauthenticated, Mapping{HTTPStatus: http.StatusUnauthorized, SOAPStatus: 401, SOAP11: "Client", SOAP12: "Sender", JSONStatus: 401, Outcome: "Unauthenticated"}},
	{Unavailable, Mapping{HTTPStatus: http.StatusServiceUnavailable, SOAPStatus: 503, SOAP11: "Server", SOAP12: "Receiver", JSONStatus: 503, Outcome: "Unavailable"}},
	// OutcomeUnknown is a Server fault with 500 and no Retry-After: unlike Unavailable, a retry is not
	// safe until the client has read what happened.
	{OutcomeUnknown, Mapping{HTTPStatus: http.StatusInternalServerError, SOAPStatus: 500, SOAP11: "Server", SOAP12: "Receiver", JSONStatus: 500, Outcome: "OutcomeUnknown"}},
	// NotImplemented is a Server fault with 500 on SOAP (SOAP 1.1 §6.2 requires 500 for every fault) and
	// 501 Not Implemented (RFC 9110 §15.6.2) where the status is the answer: HTTP GET/POST and JSON.
	{NotImplemented, Mapping{HTTPStatus: http.StatusNotImplemented, SOAPStatus: 500, SOAP11: "Server", SOAP12: "Receiver", JSONStatus: http.StatusNotImplemented, Outcome: "NotImplemented"}},
	{Internal, Mapping{HTTPStatus: http.StatusInternalServerError, SOAPStatus: 500, SOAP11: "Server", SOAP12: "Receiver", JSONStatus: 500, Outcome: "Internal"}},
}

// Codes lists the closed set of codes, in the order of docs/bindings.md's error table.
var Codes = func() []Code {
	codes := make([]Code, len(table))
	for i, row := range table {
		codes[i] = row.code
	}
	return codes
}()

// Mapping returns the code's row of the table. A code outside the closed set (which only a bug can
// make) maps as Internal.
func (c Code) Mapping() Mapping {
	for i := range table {
		if table[i].code == c {
			return table[i].Mapping
		}
	}
	return Internal.Mapping()
}
