package server

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// trace is what --log-level debug logs of one request that reached a binding, as one line when it is
// answered: what an operator debugging a client needs to see, and nothing a client sent as a secret.
//
//	binding, operation   as the access line has them
//	params               the names of the parameters the request carried, never their values
//	auth                 off, or the user, the scheme and accepted / why refused
//	admission            admitted, queued (and for how long), or shed (and by which limit)
//	store                the time spent in the store
//	failed               the stage (auth, admission, decode, operation) and the error, when it failed
//
// Every method of a nil *trace does nothing, so the handler calls them unconditionally and pays
// nothing when debug lines are off.
type trace struct {
	params    []string
	authUser  string
	authMode  string // off, or the scheme
	authVerd  string // accepted, or refused: why
	admitted  string
	failStage string
	failError string
}

// auth records the authentication decision: err nil is accepted. Like every method here, it is a
// wrapper small enough to be inlined, so a nil trace costs a comparison and no call.
func (t *trace) auth(who *authOutcome, err *fault.Error) {
	if t != nil {
		t.recordAuth(who, err)
	}
}

func (t *trace) recordAuth(who *authOutcome, err *fault.Error) {
	t.authUser, t.authMode = who.user, who.scheme
	switch {
	case who.refused != "":
		t.authVerd = "refused: " + who.refused
	case err != nil:
		t.authVerd = "refused: " + err.Message
	default:
		t.authVerd = "accepted"
	}
	if err != nil {
		t.recordFailure("auth", err)
	}
}

// admission records what the gates decided: err nil is admitted, after a wait when t.Queued says so.
func (t *trace) admission(ticket *admission.Ticket, err *fault.Error) {
	if t != nil {
		t.recordAdmission(ticket, err)
	}
}

func (t *trace) recordAdmission(ticket *admission.Ticket, err *fault.Error) {
	switch {
	case err != nil && err.Err != nil:
		t.admitted = err.Err.Error() // which gate shed it, and why (admission's Err* causes)
		if ticket.Queued > 0 {
			t.admitted += " (queued " + ticket.Queued.String() + ")"
		}
	case err != nil:
		t.admitted = "refused: " + err.Message
	case ticket.Queued > 0:
		t.admitted = "queued " + ticket.Queued.String() + " for an operation slot"
	default:
		t.admitted = "admitted at once"
	}
	if err != nil {
		t.recordFailure("admission", err)
	}
}

// request records the parameters the decoded request carries, by name.
func (t *trace) request(req binding.Request) {
	if t == nil || req.Msg == nil {
		return
	}
	t.params = parameterNames(req.Op, req.Msg)
}

// failed records the stage a request failed at and its error.
func (t *trace) failed(stage string, err *fault.Error) {
	if t != nil {
		t.recordFailure(stage, err)
	}
}

func (t *trace) recordFailure(stage string, err *fault.Error) {
	t.failStage, t.failError = stage, string(err.Code)+": "+err.Message
	if err.Err != nil && stage != "admission" && stage != "auth" { // those two say why already
		t.failError += " (" + err.Err.Error() + ")"
	}
}

// logTrace writes the request's debug line.
func (h *Handler) logTrace(r *http.Request, b binding.Binding, t *trace) {
	ex := observe.ExchangeOf(r)
	op := ex.Operation()
	if op == "" {
		op = "unknown"
	}
	authMode, authVerd := "off", ""
	if h.auth != nil {
		authMode, authVerd = t.authMode, t.authVerd
		if authMode == "" {
			authMode = "none" // no credentials at all
		}
	}
	admitted := t.admitted
	if admitted == "" {
		admitted = "not reached" // refused before the gates
	}
	attrs := []slog.Attr{
		slog.String("request_id", ex.RequestID()),
		slog.String("binding", b.Name()),
		slog.String("operation", op),
		slog.String("params", strings.Join(t.params, ",")),
		slog.String("auth", authMode),
	}
	if h.auth != nil {
		attrs = append(attrs, slog.String("user", t.authUser), slog.String("auth_decision", authVerd))
	}
	attrs = append(attrs, slog.String("admission", admitted), slog.Duration("store", ex.StoreTime()))
	if t.failStage != "" {
		attrs = append(attrs, slog.String("failed_at", t.failStage), slog.String("error", t.failError))
	}
	h.log.LogAttrs(context.WithoutCancel(r.Context()), slog.LevelDebug, "request detail", attrs...)
}

// parameterNames returns the names of the parameters msg carries, in the order of op's table: the
// names of the top-level elements the request message writes (a parameter left out or nil writes
// none). It runs only for debug lines, so writing the message again costs nothing otherwise.
func parameterNames(op *wire.Operation, msg wire.Message) []string {
	doc := []byte(`<r xmlns:xsi="` + xmlwire.NSXSI + `">`) // the generated writers use xsi for a nil
	doc = msg.AppendXML(doc)
	doc = xmlwire.AppendEnd(doc, "r")
	rd := xmlwire.NewReader(doc, "", xmlwire.Limits{MaxDepth: 256, MaxElements: 1 << 20}, false)
	if _, err := rd.Root(); err != nil {
		return nil
	}
	seen := map[string]bool{}
	for {
		el, ok, err := rd.Child()
		if err != nil || !ok {
			break
		}
		seen[el.Local()] = true
		if err := rd.Discard(); err != nil {
			break
		}
	}
	var names []string
	for _, p := range op.Params {
		if seen[p.Name] {
			names = append(names, p.Name)
		}
	}
	return names
}
