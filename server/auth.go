package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/fault"
)

// challengef builds an Unauthenticated error that asks for HTTP Basic credentials: every binding
// answers it with 401 and auth.BasicChallenge (binding.SetErrorHeaders).
func challengef(format string, args ...any) *fault.Error {
	return fault.Errorf(fault.Unauthenticated, format, args...)
}

// tokenFault builds an Unauthenticated error about a UsernameToken; its cause, an auth.TokenFault,
// makes the SOAP binding answer with that WS-Security fault code instead of the 401 challenge.
func tokenFault(wsseCode, message string) *fault.Error {
	return &fault.Error{Code: fault.Unauthenticated, Message: message, Err: auth.TokenFault(wsseCode)}
}

// The messages of refused credentials. They never say whether the user exists.
const (
	msgBadBasic      = "The user name or password is not valid."
	msgNoCredentials = "This service requires credentials: HTTP Basic, or on SOAP a WS-Security UsernameToken."
)

// authOutcome is who a request claimed to be and how: the user name (empty when none was given) and the
// scheme (basic, ws-security-text, ws-security-digest), for the access log and the debug log, and
// when the credentials were refused, why, in words for the operator (the caller is told less).
type authOutcome struct {
	user, scheme, refused string
}

// checkBasic runs before the body is read. With authentication on, valid HTTP Basic credentials
// authenticate the request; bad ones, another scheme, or none on a binding whose requests cannot carry
// a token (b.CarriesTokens) are refused with 401. A request without an Authorization header on a
// binding that carries tokens is left to the credentials its body holds (decodeAuthenticating).
func (h *Handler) checkBasic(r *http.Request, b binding.Binding, who *authOutcome) (authenticated bool, err *fault.Error) {
	if h.auth == nil {
		return true, nil
	}
	if _, present := r.Header["Authorization"]; !present {
		if b.CarriesTokens() {
			return false, nil
		}
		who.refused = "no credentials: neither an Authorization header nor, on this binding, a UsernameToken"
		return false, challengef(msgNoCredentials)
	}
	return h.verifyBasic(r, who)
}

func (h *Handler) verifyBasic(r *http.Request, who *authOutcome) (bool, *fault.Error) {
	user, password, ok := r.BasicAuth()
	who.scheme = "basic"
	if !ok {
		who.refused = "the Authorization header is not HTTP Basic"
		return false, challengef("The Authorization header must hold HTTP Basic credentials.")
	}
	who.user = user
	if err := h.auth.Verify(user, password); err != nil {
		if errors.Is(err, auth.ErrBusy) {
			// Every bcrypt slot stayed taken (a flood of new passwords): not the caller's fault, and
			// retrying soon may work, so 503 with Retry-After rather than a 401 that means "wrong".
			who.refused = "busy: no bcrypt slot came free within the wait (--auth-bcrypt-concurrency)"
			return false, fault.Errorf(fault.Unavailable, "The service is busy checking credentials; retry shortly.")
		}
		who.refused = h.whyBadCredentials(user, false)
		return false, challengef(msgBadBasic)
	}
	return true, nil
}

// whyBadCredentials says, for the operator's debug log only, why a user's credentials were refused:
// callers are told the same for an unknown user and a wrong password.
func (h *Handler) whyBadCredentials(user string, digest bool) string {
	u := h.auth.Users().Lookup(user)
	switch {
	case u == nil:
		return "no user of that name in the users file"
	case digest && u.DigestSecret == nil:
		return "the user may not use PasswordDigest (add it with contactsync user add --digest)"
	}
	return "wrong password"
}

// decodeAuthenticating decodes a request not authenticated by HTTP Basic: its body must carry
// credentials that verify (a SOAP UsernameToken). Credentials are judged before the body's errors, so
// a caller without them learns nothing but 401.
func (h *Handler) decodeAuthenticating(r *http.Request, b binding.Binding, opName string, body []byte, who *authOutcome) (binding.Request, *fault.Error) {
	req, derr := b.Decode(r, opName, body)
	creds := req.Credentials
	who.scheme = "ws-security"
	if creds.Problem != "" {
		who.refused = "the WS-Security header cannot be processed: " + creds.Problem
		return binding.Request{}, tokenFault("InvalidSecurity", "The WS-Security header cannot be processed: "+creds.Problem+".")
	}
	if creds.Token == nil {
		who.refused = "no credentials: neither an Authorization header nor a UsernameToken"
		return binding.Request{}, challengef(msgNoCredentials)
	}
	digest := creds.Token.PasswordType == auth.PasswordDigest
	who.user, who.scheme = creds.Token.Username, "ws-security-text"
	if digest {
		who.scheme = "ws-security-digest"
	}
	if err := h.auth.VerifyToken(creds.Token); err != nil {
		who.refused = err.Error()
		if errors.Is(err, auth.ErrBadCredentials) {
			who.refused = h.whyBadCredentials(who.user, digest)
		}
		return binding.Request{}, tokenError(err)
	}
	return req, derr
}

// tokenError maps the authenticator's verdict on a UsernameToken to the fault the caller gets.
func tokenError(err error) *fault.Error {
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
		return fault.Errorf(fault.Unavailable, "The service is busy; retry shortly.")
	default:
		return fault.InternalError(err)
	}
}

// docsGuarded reports whether a request for ?WSDL, ?disco or a help page was refused (and answered)
// because the documents are protected (Config.ProtectDocs) and the request has no valid Basic
// credentials. Like an operation's credentials it is checked outside the operation slots, and its
// bcrypt comparisons take the authenticator's turns and bcrypt slots like every other (see
// auth.Authenticator), so a flood of document requests with new passwords is shed there, with 503.
func (h *Handler) docsGuarded(w http.ResponseWriter, r *http.Request) bool {
	if h.auth == nil || !h.protectDocs {
		return false
	}
	if _, present := r.Header["Authorization"]; !present {
		binding.WritePlainError(w, challengef(msgNoCredentials))
		return true
	}
	if _, err := h.verifyBasic(r, &authOutcome{}); err != nil {
		binding.WritePlainError(w, err)
		return true
	}
	return false
}
