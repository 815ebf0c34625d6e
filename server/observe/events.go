package observe

import (
	"net/http"
	"time"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
)

// Stage is a step of serving a request through a binding that can end it: the stage a failed request
// failed at.
type Stage uint8

const (
	// StageNone: the request did not fail at a stage (it succeeded, it never reached a binding, or a
	// panic ended it).
	StageNone Stage = iota
	// StageAuth: its credentials were refused.
	StageAuth
	// StageAdmission: a gate shed it or refused its body.
	StageAdmission
	// StageDecode: its body is not a request of the binding.
	StageDecode
	// StageOperation: the operation returned an error.
	StageOperation
)

// String returns the stage's name as the debug line writes it after failed_at.
func (s Stage) String() string {
	switch s {
	case StageAuth:
		return "auth"
	case StageAdmission:
		return "admission"
	case StageDecode:
		return "decode"
	case StageOperation:
		return "operation"
	}
	return ""
}

// Events is one request's event record: what the middleware saw of it and what the handler decided at
// each stage, each reported once, through the Exchange's methods (Routed, Authenticated, Admitted,
// Decoded, Called, Panicked, and AddStoreTime from the store). Every Observer (the metrics, the access
// log, the debug trace, and whatever is registered in Config.Observers) reads the same record once the
// request is answered, so each stage is reported once whoever reads it. It lives in the request's
// Exchange: reporting allocates nothing. What follows from other fields (End, Outcome) is a method
// rather than a field: the Exchange is allocated for every request, and its size is its cost (it is
// held to 256 bytes, a size class of the allocator; BENCHMARKS.md).
type Events struct {
	// RequestID is the request's id (X-Request-ID), and Start when its headers arrived.
	RequestID string
	Start     time.Time

	// Binding is the binding that serves the request, one of BindingLabels (Routed); "" when no
	// binding did: documents, help pages and requests refused before a binding was chosen.
	Binding string
	// AuthOn is whether the handler requires credentials of the request (Routed).
	AuthOn bool
	// Detailed is set when an observer reads the details below (the debug trace): only then are they
	// gathered, so at info level a request pays nothing for them.
	Detailed bool
	// FailedAt is the stage the request failed at; StageNone when it did not fail at a stage.
	FailedAt Stage
	// clientGone is set when the request's client hung up before it was answered Unavailable (Outcome).
	clientGone bool
	// Auth is the authentication decision (Authenticated).
	Auth Auth
	// Admission is what the gates decided (Admitted).
	Admission Admission
	// Operation is the name of the operation the request was decoded as (Decoded); "" when none was.
	Operation string
	// Params are the names of the parameters the decoded request carried, never their values, and
	// StoreTime the time the request spent in the store; both only when Detailed.
	Params    []string
	StoreTime time.Duration
	// Err is the error the request was answered with (its stage is FailedAt, none after a panic); nil
	// on success.
	Err *fault.Error

	// Set by the middleware when the request is answered: how long it took from Start (End is
	// when), and the status and body bytes sent. Its outcome label is Outcome.
	Duration time.Duration
	Status   int
	Bytes    int64
}

// End returns when the request was answered: Start plus Duration, on the clock Start was read from
// (a wall-clock step during the request does not move it).
func (ev *Events) End() time.Time { return ev.Start.Add(ev.Duration) }

// Outcome returns the outcome label of the answered request: ok, the error code, or what the status
// says (see outcomeOf); ClientGone when its client hung up before an Unavailable answer.
func (ev *Events) Outcome() string {
	if ev.clientGone {
		return outcomeClientGone
	}
	return outcomeOf(ev.Code(), ev.Status)
}

// Auth is the authentication decision about a request: the scheme and user its credentials claimed
// and, when refused, why (in words for the operator, never told to the caller).
type Auth struct {
	// Decided is false when no decision was reached (authentication is off, or the request ended
	// before its credentials were judged).
	Decided bool
	// Scheme is "" (no credentials), basic, ws-security, ws-security-text or ws-security-digest.
	Scheme  string
	User    string
	Refused string
}

// Accepted reports whether the request authenticated as User.
func (a *Auth) Accepted() bool { return a.Decided && a.Refused == "" }

// Admission is what the admission gates decided about a request that reached them.
type Admission struct {
	// Reached is false when the request was refused before the gates.
	Reached bool
	// Queued is how long it waited for an operation slot (or for a place, when shed).
	Queued time.Duration
}

// Code returns the error code the request was answered with; "" on success.
func (ev *Events) Code() fault.Code {
	if ev.Err == nil {
		return ""
	}
	return ev.Err.Code
}

// BindingLabel returns the binding label of the request: its binding, or "none".
func (ev *Events) BindingLabel() string {
	if ev.Binding == "" {
		return bindingNone
	}
	return ev.Binding
}

// OperationLabel returns the operation label of the request: its operation, or "unknown".
func (ev *Events) OperationLabel() string {
	if ev.Operation == "" {
		return operationUnknown
	}
	return ev.Operation
}

// User returns the user the request authenticated as; "" when authentication is off or it did not.
func (ev *Events) User() string {
	if ev.Auth.Accepted() {
		return ev.Auth.User
	}
	return ""
}

// An Observer reads the event record of each request the middleware serves, once it has been
// answered: the metrics, the access log and the debug trace are Observers, and adding another (spans
// for a tracer, say) is one entry in Config.Observers. Finished runs on the request's goroutine, after
// the response was written and before ServeHTTP returns; it must not block, nor keep ev beyond the
// call (the record belongs to the request's Exchange).
type Observer interface {
	Finished(r *http.Request, ev *Events)
}

// Routed reports the binding chosen to serve the request, one of BindingLabels, and whether the
// handler requires credentials of it.
func (e *Exchange) Routed(binding string, authOn bool) {
	if e != nil {
		e.ev.Binding, e.ev.AuthOn = binding, authOn
	}
}

// Authenticated reports the authentication decision: the scheme and user the credentials claimed, and
// when they were refused, why (refused, for the operator) and what the caller is answered (err).
func (e *Exchange) Authenticated(scheme, user, refused string, err *fault.Error) {
	if e != nil {
		e.ev.Auth = Auth{Decided: true, Scheme: scheme, User: user, Refused: refused}
		e.fail(StageAuth, err)
	}
}

// Admitted reports what the admission gates decided: err nil is admitted, after waiting queued for an
// operation slot; otherwise the error the request is answered with (shed, or its body refused).
func (e *Exchange) Admitted(queued time.Duration, err *fault.Error) {
	if e != nil {
		e.ev.Admission = Admission{Reached: true, Queued: queued}
		e.fail(StageAdmission, err)
	}
}

// Decoded reports what decoding the body found: the operation (nil when none was recognised), its
// request message, and the error when the body is not a request of the binding.
func (e *Exchange) Decoded(op *wire.Operation, msg wire.Message, err *fault.Error) {
	if e == nil {
		return
	}
	if op != nil {
		e.ev.Operation = op.Name
		if e.ev.Detailed && msg != nil {
			// Listed now, not when the line is written: the message may borrow from buffers the
			// request gives back when it ends.
			e.ev.Params = parameterNames(op, msg)
		}
	}
	e.fail(StageDecode, err)
}

// Called reports the operation's result: err nil is success.
func (e *Exchange) Called(err *fault.Error) {
	if e != nil {
		e.fail(StageOperation, err)
	}
}

// Panicked reports that serving the request panicked and was answered with the internal error err.
// It is no stage's failure: a panic can happen at any of them, and the error log has its stack.
func (e *Exchange) Panicked(err *fault.Error) {
	if e != nil {
		e.ev.Err = err
	}
}

// fail records err, when not nil, as what the request failed with at stage.
func (e *Exchange) fail(stage Stage, err *fault.Error) {
	if err != nil {
		e.ev.FailedAt, e.ev.Err = stage, err
	}
}
