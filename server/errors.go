package server

import (
	"encoding/xml"
	"errors"
	"fmt"
)

// Code classifies every failure the service reports. The set is closed: each binding maps every code
// in one literal switch beside its encoder (faultFor in binding_soap.go, statusFor in binding_http.go),
// so adding a code means deciding its wire form in each binding.
type Code string

// The codes, in the order the README's error table lists them.
const (
	// CodeInvalidArgument: a parameter is missing, empty, too long or holds a forbidden character.
	CodeInvalidArgument Code = "InvalidArgument"
	// CodeMalformedRequest: the request body is not the XML (or form) the binding expects.
	CodeMalformedRequest Code = "MalformedRequest"
	// CodeNotFound: the contact named by id does not exist.
	CodeNotFound Code = "NotFound"
	// CodeUnknownOperation: the request names no operation of this service.
	CodeUnknownOperation Code = "UnknownOperation"
	// CodeMethodNotAllowed: the HTTP method is not one the addressed resource accepts.
	CodeMethodNotAllowed Code = "MethodNotAllowed"
	// CodeUnsupportedMediaType: the request's content type is not one any binding accepts.
	CodeUnsupportedMediaType Code = "UnsupportedMediaType"
	// CodeTooLarge: the request exceeds a configured size limit.
	CodeTooLarge Code = "TooLarge"
	// CodeVersionMismatch: a SOAP envelope of the other SOAP version (or none) was sent.
	CodeVersionMismatch Code = "VersionMismatch"
	// CodeMustUnderstand: a SOAP header marked mustUnderstand is not one this service understands.
	CodeMustUnderstand Code = "MustUnderstand"
	// CodeUnauthenticated: authentication is on and the request carries no valid credentials (HTTP
	// Basic or a WS-Security UsernameToken). The message never says whether the user exists.
	CodeUnauthenticated Code = "Unauthenticated"
	// CodeUnavailable: the service cannot serve the request now (store unreachable, overloaded).
	CodeUnavailable Code = "Unavailable"
	// CodeInternal: a fault of the service itself; details are logged, never sent.
	CodeInternal Code = "Internal"
)

// callerFault reports whether the code blames the request rather than the service. SOAP bindings use
// it to choose Client/Sender versus Server/Receiver.
func (c Code) callerFault() bool {
	switch c {
	case CodeUnavailable, CodeInternal:
		return false
	}
	return true
}

// Error is the one error type the bindings encode. Message is shown to the caller, so it must never
// carry internal detail; wrap the cause in Err for the log instead.
type Error struct {
	Code    Code
	Message string
	// Err is the underlying cause, logged but never sent to the caller.
	Err error
	// header names the SOAP header block a MustUnderstand fault is about.
	header xml.Name
	// challenge marks an Unauthenticated error that asks for HTTP Basic credentials: every binding
	// sends it with 401 and WWW-Authenticate (server/auth.go).
	challenge bool
	// wsseFault is the local name of the WS-Security fault code (wsse:FailedAuthentication, …) of an
	// Unauthenticated error about a UsernameToken, which SOAP faults carry as their code (WSS 1.1 §12).
	wsseFault string
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// errorf builds an Error with a formatted caller-facing message.
func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// internalError hides cause from the caller behind a generic message.
func internalError(cause error) *Error {
	return &Error{Code: CodeInternal, Message: "The service failed to process the request.", Err: cause}
}

// asError converts any error returned by an operation into an *Error. Errors that are not already an
// *Error are internal: their text may hold detail that must not reach the caller.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return internalError(err)
}
