package observe

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// debugTrace is the Observer behind --log-level debug: one line for each request that reached a
// binding, when it is answered, with what an operator debugging a client needs to see and nothing a
// client sent as a secret:
//
//	binding, operation   as the access line has them
//	params               the names of the parameters the request carried, never their values
//	auth                 off, or the user, the scheme and accepted / why refused
//	admission            admitted, queued (and for how long), or shed (and by which limit)
//	store                the time spent in the store
//	failed               the stage (auth, admission, decode, operation) and the error, when it failed
//
// Middleware registers it always and marks a request Detailed when its logger takes debug lines at the
// request's start (asked per request, one atomic load of the level, so a reload that changes
// --log-level turns the lines on and off), so the params and the store time are gathered; otherwise
// nothing is computed for it.
type debugTrace struct {
	log *slog.Logger
}

// Finished writes the request's debug line.
func (t debugTrace) Finished(r *http.Request, ev *Events) {
	if !ev.Detailed || ev.Binding == "" {
		return // documents, help pages, refused before a binding: the access line says all there is
	}
	attrs := []slog.Attr{
		slog.String("request_id", ev.RequestID),
		slog.String("binding", ev.Binding),
		slog.String("operation", ev.OperationLabel()),
		slog.String("params", strings.Join(ev.Params, ",")),
	}
	if !ev.AuthOn {
		attrs = append(attrs, slog.String("auth", "off"))
	} else {
		scheme := ev.Auth.Scheme
		if scheme == "" {
			scheme = "none" // no credentials at all
		}
		attrs = append(attrs, slog.String("auth", scheme), slog.String("user", ev.Auth.User), slog.String("auth_decision", authDecision(ev)))
	}
	attrs = append(attrs, slog.String("admission", admissionDecision(ev)), slog.Duration("store", ev.StoreTime))
	if ev.FailedAt != StageNone {
		attrs = append(attrs, slog.String("failed_at", ev.FailedAt.String()), slog.String("error", failure(ev.FailedAt, ev.Err)))
	}
	t.log.LogAttrs(context.WithoutCancel(r.Context()), slog.LevelDebug, "request detail", attrs...)
}

// authDecision says what authentication decided: accepted, or refused and why; "" when no decision was
// reached.
func authDecision(ev *Events) string {
	switch {
	case !ev.Auth.Decided:
		return ""
	case ev.Auth.Refused != "":
		return "refused: " + ev.Auth.Refused
	case ev.FailedAt == StageAuth:
		return "refused: " + ev.Err.Message
	}
	return "accepted"
}

// admissionDecision says what the gates decided: admitted (after how long a wait), or which gate shed
// the request and why.
func admissionDecision(ev *Events) string {
	queued := ev.Admission.Queued
	switch {
	case ev.FailedAt == StageAdmission && ev.Err.Err != nil:
		why := ev.Err.Err.Error() // which gate shed it, and why (admission's Err* causes)
		if queued > 0 {
			why += " (queued " + queued.String() + ")"
		}
		return why
	case ev.FailedAt == StageAdmission:
		return "refused: " + ev.Err.Message
	case !ev.Admission.Reached:
		return "not reached" // refused before the gates
	case queued > 0:
		return "queued " + queued.String() + " for an operation slot"
	}
	return "admitted at once"
}

// failure writes the error a request failed with at stage: its code and message, and its cause
// except where the stage's own field (auth_decision, admission) says why already.
func failure(stage Stage, err *fault.Error) string {
	s := string(err.Code) + ": " + err.Message
	if err.Err != nil && stage != StageAdmission && stage != StageAuth {
		s += " (" + err.Err.Error() + ")"
	}
	return s
}

// parameterNames returns the names of the parameters msg carries, in the order of op's table: the
// names of the top-level elements the request message writes (a parameter left out or nil writes
// none). It runs only for detailed requests, so writing the message again costs nothing otherwise.
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
