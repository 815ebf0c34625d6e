package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/auth"
)

// basicChallenge is the WWW-Authenticate value of every 401 (RFC 7617 §2, with §2.1's charset so
// clients send non-ASCII user names and passwords as UTF-8).
const basicChallenge = `Basic realm="contactsync", charset="UTF-8"`

// challengef builds an Unauthenticated error that asks for HTTP Basic credentials: every binding
// answers it with 401 and WWW-Authenticate.
func challengef(format string, args ...any) *Error {
	return errorf(CodeUnauthenticated, format, args...)
}

// wsseFault is the cause of an Unauthenticated error about a UsernameToken: the local name of its
// WS-Security fault code (wsse:FailedAuthentication, …). The SOAP binding unwraps it and sends a fault
// (HTTP 500) with that code instead of the 401 challenge (WSS 1.1 §12).
type wsseFault string

func (f wsseFault) Error() string { return "wsse:" + string(f) }

// tokenFault builds an Unauthenticated error about a UsernameToken.
func tokenFault(wsseCode, message string) *Error {
	return &Error{Code: CodeUnauthenticated, Message: message, Err: wsseFault(wsseCode)}
}

// The messages of refused credentials. They never say whether the user exists.
const (
	msgBadBasic      = "The user name or password is not valid."
	msgNoCredentials = "This service requires credentials: HTTP Basic, or on SOAP a WS-Security UsernameToken."
)

// checkBasic runs before the body is read. With authentication on, valid HTTP Basic credentials
// authenticate the request; bad ones, another scheme, or none on the HTTP GET/POST bindings (which
// have no other way to carry credentials) are refused with 401. A SOAP request without an
// Authorization header is left to its UsernameToken (decodeAuthenticating).
func (h *Handler) checkBasic(r *http.Request, b binding) (authenticated bool, err *Error) {
	if h.auth == nil {
		return true, nil
	}
	if _, present := r.Header["Authorization"]; !present {
		if b.carriesTokens() {
			return false, nil
		}
		return false, challengef(msgNoCredentials)
	}
	return h.verifyBasic(r)
}

func (h *Handler) verifyBasic(r *http.Request) (bool, *Error) {
	user, password, ok := r.BasicAuth()
	if !ok {
		return false, challengef("The Authorization header must hold HTTP Basic credentials.")
	}
	if err := h.auth.Verify(user, password); err != nil {
		if errors.Is(err, auth.ErrBusy) {
			// Every bcrypt slot stayed taken (a flood of new passwords): not the caller's fault, and
			// retrying soon may work, so 503 with Retry-After rather than a 401 that means "wrong".
			return false, errorf(CodeUnavailable, "The service is busy checking credentials; retry shortly.")
		}
		return false, challengef(msgBadBasic)
	}
	return true, nil
}

// decodeAuthenticating decodes a request not authenticated by HTTP Basic: a SOAP request must carry a
// UsernameToken that verifies. Credentials are judged before the body's errors, so a caller without
// them learns nothing but 401.
func (h *Handler) decodeAuthenticating(r *http.Request, b binding, body []byte) (request, *Error) {
	req, derr := b.decode(r, body)
	sec := req.security
	if sec == nil || (!sec.hasToken && sec.problem == "") {
		return request{}, challengef(msgNoCredentials)
	}
	if sec.problem != "" {
		return request{}, tokenFault("InvalidSecurity", "The WS-Security header cannot be processed: "+sec.problem+".")
	}
	if err := h.auth.VerifyToken(&sec.token); err != nil {
		return request{}, tokenError(err)
	}
	return req, derr
}

// tokenError maps the authenticator's verdict on a UsernameToken to the fault the caller gets.
func tokenError(err error) *Error {
	switch {
	case errors.Is(err, auth.ErrBadCredentials):
		// WSS 1.1 §12's own fault string for FailedAuthentication.
		return tokenFault("FailedAuthentication", "The security token could not be authenticated or authorized.")
	case errors.Is(err, auth.ErrStale):
		return tokenFault("MessageExpired", "The UsernameToken's Created time is too far from the server's clock.")
	case errors.Is(err, auth.ErrReplayed):
		return tokenFault("FailedAuthentication", "The UsernameToken's nonce was already used; each request needs a fresh nonce.")
	case errors.Is(err, auth.ErrMalformedToken):
		// The detail after the sentinel's text names the field; it never holds a secret.
		detail := strings.TrimPrefix(err.Error(), auth.ErrMalformedToken.Error()+": ")
		return tokenFault("InvalidSecurityToken", "The UsernameToken is not valid: "+detail+".")
	case errors.Is(err, auth.ErrBusy):
		return errorf(CodeUnavailable, "The service is busy; retry shortly.")
	default:
		return internalError(err)
	}
}

// docsGuarded reports whether a request for ?WSDL, ?disco or a help page was refused (and answered)
// because the documents are protected (Config.ProtectDocs) and the request has no valid Basic
// credentials. It runs outside the --max-concurrent limit, but its bcrypt comparisons take the
// authenticator's bcrypt slots like every other (see auth.Authenticator), so a flood of document
// requests with new passwords is shed there, with 503.
func (h *Handler) docsGuarded(w http.ResponseWriter, r *http.Request) bool {
	if h.auth == nil || !h.protectDocs {
		return false
	}
	if _, present := r.Header["Authorization"]; !present {
		writePlainError(w, challengef(msgNoCredentials))
		return true
	}
	if _, err := h.verifyBasic(r); err != nil {
		writePlainError(w, err)
		return true
	}
	return false
}
