package soap

import (
	"net/http"

	"github.com/contactsync/contactsync/server/binding"
)

var _ binding.Acknowledger = (*Binding)(nil)

// Acknowledge answers a one-way request with 202 Accepted, an empty body and no Content-Type, before
// the operation runs: what .NET's ASMX writes (ServerProtocol.WriteOneWayResponse). Mono answers 200
// text/html and never runs the method (shapes README §10); docs/bindings.md lists the deviation.
func (b *Binding) Acknowledge(w http.ResponseWriter) { binding.WriteAccepted(w) }
