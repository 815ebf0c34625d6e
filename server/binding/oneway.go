package binding

import "net/http"

// Acknowledger is a binding that answers a one-way operation (wire.Operation.OneWay) before the
// operation runs, with an acknowledgement of receipt rather than a result: the SOAP bindings, as .NET's
// ASMX does (ServerProtocol.WriteOneWayResponse). The handler admits, authenticates and decodes the
// request as any other, acknowledges it, then runs the operation detached from the request. A binding
// that is not one (GET, POST, JSON) runs a one-way operation as a void one: it answers once the
// operation returned, with its result or its error.
type Acknowledger interface {
	// Acknowledge writes the acknowledgement of a one-way request.
	Acknowledge(w http.ResponseWriter)
}

// WriteAccepted writes the acknowledgement of a one-way request: 202 Accepted with an empty body and
// no Content-Type, as .NET's WriteOneWayResponse does. It acknowledges receipt, not that the operation
// ran or succeeded.
func WriteAccepted(w http.ResponseWriter) {
	h := w.Header()
	delete(h, "Content-Type")
	h.Set("Content-Length", "0")
	w.WriteHeader(http.StatusAccepted)
}
