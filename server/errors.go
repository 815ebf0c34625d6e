package server

import (
	"github.com/contactsync/contactsync/server/fault"
)

// Error and Code are the service's one error type and its closed set of codes, defined in
// server/fault so the generated codec and every binding share them. The aliases keep the names this
// package and its callers have always used.
type (
	Error = fault.Error
	Code  = fault.Code
)

// The codes, in the order the README's error table lists them (see server/fault).
const (
	CodeInvalidArgument      = fault.InvalidArgument
	CodeMalformedRequest     = fault.MalformedRequest
	CodeNotFound             = fault.NotFound
	CodeUnknownOperation     = fault.UnknownOperation
	CodeMethodNotAllowed     = fault.MethodNotAllowed
	CodeUnsupportedMediaType = fault.UnsupportedMediaType
	CodeTooLarge             = fault.TooLarge
	CodeVersionMismatch      = fault.VersionMismatch
	CodeMustUnderstand       = fault.MustUnderstand
	CodeUnauthenticated      = fault.Unauthenticated
	CodeUnavailable          = fault.Unavailable
	CodeInternal             = fault.Internal
)

// errorf builds an Error with a formatted caller-facing message.
func errorf(code Code, format string, args ...any) *Error { return fault.Errorf(code, format, args...) }

// internalError hides cause from the caller behind a generic message.
func internalError(cause error) *Error { return fault.InternalError(cause) }

// asError converts any error returned by an operation or a decoder into an *Error.
func asError(err error) *Error { return fault.As(err) }
