// Package fault holds the closed set of error codes the service reports and the one Error type every
// binding encodes. It imports only the standard library, so the generated codec (gen/), its runtime
// (server/wire) and every binding can share it without import cycles.
//
// Binding-specific detail never lives on Error: a WS-Security fault code (auth.TokenFault) or the
// header a MustUnderstand fault is about travels as the error's cause (Err), which the SOAP binding
// unwraps.
package fault

import (
	"errors"
	"fmt"
)

// Code classifies every failure the service reports. The set is closed: each binding maps every code,
// so adding a code means deciding its wire form in each binding.
type Code string

// The codes, in the order the error table of docs/bindings.md lists them.
const (
	// InvalidArgument: a parameter is missing, empty, too long, holds a forbidden character or a value
	// its XSD type cannot carry.
	InvalidArgument Code = "InvalidArgument"
	// MalformedRequest: the request body is not the XML (or form) the binding expects.
	MalformedRequest Code = "MalformedRequest"
	// NotFound: the contact named by id does not exist.
	NotFound Code = "NotFound"
	// UnknownOperation: the request names no operation of this service.
	UnknownOperation Code = "UnknownOperation"
	// MethodNotAllowed: the HTTP method is not one the addressed resource accepts.
	MethodNotAllowed Code = "MethodNotAllowed"
	// UnsupportedMediaType: the request's content type is not one any binding accepts.
	UnsupportedMediaType Code = "UnsupportedMediaType"
	// TooLarge: the request exceeds a configured size limit.
	TooLarge Code = "TooLarge"
	// VersionMismatch: a SOAP envelope of the other SOAP version (or none) was sent.
	VersionMismatch Code = "VersionMismatch"
	// MustUnderstand: a SOAP header marked mustUnderstand is not one this service understands.
	MustUnderstand Code = "MustUnderstand"
	// Unauthenticated: authentication is on and the request carries no valid credentials (HTTP Basic
	// or a WS-Security UsernameToken). The message never says whether the user exists.
	Unauthenticated Code = "Unauthenticated"
	// Unavailable: the service cannot serve the request now (store unreachable, overloaded). A write
	// answered Unavailable was not applied and never will be, so retrying it is safe.
	Unavailable Code = "Unavailable"
	// OutcomeUnknown: the store sent a write's commit to the database and its answer was lost (the
	// connection broke or the time ran out while it was in flight), so the write may or may not have
	// been applied. The client should read the contact before retrying.
	OutcomeUnknown Code = "OutcomeUnknown"
	// NotImplemented: the operation is in the contract but the service has not written it yet: its
	// method is the generated Unimplemented…Server's (wire.Unimplemented), which a service embeds to
	// serve a contract before every method is written. A fault of the service, not of the request.
	NotImplemented Code = "NotImplemented"
	// Internal: a fault of the service itself; details are logged, never sent.
	Internal Code = "Internal"
)

// CallerFault reports whether the code blames the request rather than the service. SOAP bindings use
// it to choose Client/Sender versus Server/Receiver.
func (c Code) CallerFault() bool {
	switch c {
	case Unavailable, OutcomeUnknown, NotImplemented, Internal:
		return false
	}
	return true
}

// Error is the one error type the bindings encode. Message is shown to the caller, so it must never
// carry internal detail; wrap the cause in Err for the log instead.
type Error struct {
	Code    Code
	Message string
	// Err is the underlying cause: logged (never sent) for internal errors, and for some codes a typed
	// detail a binding unwraps (see the package comment).
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a formatted caller-facing message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// InternalError hides cause from the caller behind a generic message.
func InternalError(cause error) *Error {
	return &Error{Code: Internal, Message: "The service failed to process the request.", Err: cause}
}

// As converts any error into an *Error. Errors that are not already an *Error are internal: their text
// may hold detail that must not reach the caller.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return InternalError(err)
}
