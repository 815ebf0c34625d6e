package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/contactsync/contactsync/server/fault"
)

// Credentials are what a request body carried to authenticate its caller: on SOAP, the UsernameToken
// of a WS-Security header addressed to this service. The binding that decodes the body fills them in;
// Decide judges them.
type Credentials struct {
	// Token is the UsernameToken, nil when the body carried none.
	Token *UsernameToken
	// Problem says why the security header cannot be used (two tokens, two headers, elements where text
	// belongs); "" when it can, or when there was none. It matters only when authentication is on; with
	// it off, the header is ignored.
	Problem string
}

// Decision is the answer to the one question the handler asks about a request: may it go on, and who
// is it? Exactly one of three holds: accepted (Err nil, Pending false), refused (Err set), or Pending.
type Decision struct {
	// Scheme is how the request claimed who it is: "" when it gave no credentials at all, basic,
	// ws-security (a header that could not be used, or none), ws-security-text or ws-security-digest.
	Scheme string
	// User is the user name the credentials gave, "" when they gave none. It is the authenticated user
	// only when the decision is accepted.
	User string
	// Pending: the headers carry no credentials and the request's body may (its binding carries
	// tokens), so the decision waits for the body: ask again with what it carried.
	Pending bool
	// Refused says why the credentials were refused, in words for the operator's debug log only (the
	// caller is told the same for an unknown user and a wrong password); "" unless refused.
	Refused string
	// Err is what a refused caller is answered with: Unauthenticated with the Basic challenge, a
	// WS-Security fault (its cause a TokenFault), or Unavailable when no bcrypt slot came free.
	Err *fault.Error
}

// The messages of refused credentials. They never say whether the user exists.
const (
	msgBadBasic      = "The user name or password is not valid."
	msgNoCredentials = "This service requires credentials: HTTP Basic, or on SOAP a WS-Security UsernameToken."
)

// Decide answers whether request r may go on, and as whom. Before r's body is read, body is nil and the
// headers decide: valid HTTP Basic credentials are accepted; bad ones, another scheme, or none where
// the body cannot carry a token (tokensInBody false: every binding but SOAP, and the documents) are
// refused, so a caller without valid credentials is answered before its body is read. A request
// without an Authorization header whose body may carry a token is Pending: the handler decodes the
// body and asks again with the credentials it carried (body not nil), which then decide alone.
//
// The handler asks the second time before it looks at what else decoding found, so a caller without
// valid credentials learns nothing about its body (an unknown SOAP action included) but 401.
func (a *Authenticator) Decide(r *http.Request, tokensInBody bool, body *Credentials) Decision {
	if body != nil {
		return a.decideToken(body)
	}
	if _, present := r.Header["Authorization"]; !present {
		if tokensInBody {
			return Decision{Pending: true}
		}
		return Decision{Refused: "no credentials: neither an Authorization header nor, on this binding, a UsernameToken",
			Err: challengef(msgNoCredentials)}
	}
	return a.decideBasic(r)
}

// decideBasic judges the HTTP Basic credentials of r's Authorization header.
func (a *Authenticator) decideBasic(r *http.Request) Decision {
	user, password, ok := r.BasicAuth()
	d := Decision{Scheme: "basic"}
	if !ok {
		d.Refused, d.Err = "the Authorization header is not HTTP Basic", challengef("The Authorization header must hold HTTP Basic credentials.")
		return d
	}
	d.User = user
	if err := a.Verify(user, password); err != nil {
		if errors.Is(err, ErrBusy) {
			// Every bcrypt slot stayed taken (a flood of new passwords): not the caller's fault, and
			// retrying soon may work, so 503 with Retry-After rather than a 401 that means "wrong".
			d.Refused = "busy: no bcrypt slot came free within the wait (--auth-bcrypt-concurrency)"
			d.Err = fault.Errorf(fault.Unavailable, "The service is busy checking credentials; retry shortly.")
			return d
		}
		d.Refused, d.Err = a.whyBadCredentials(user, false), challengef(msgBadBasic)
	}
	return d
}

// decideToken judges the credentials a request's body carried (a SOAP UsernameToken), for a request
// whose headers carried none.
func (a *Authenticator) decideToken(creds *Credentials) Decision {
	d := Decision{Scheme: "ws-security"}
	if creds.Problem != "" {
		d.Refused = "the WS-Security header cannot be processed: " + creds.Problem
		d.Err = tokenFault("InvalidSecurity", "The WS-Security header cannot be processed: "+creds.Problem+".")
		return d
	}
	if creds.Token == nil {
		d.Refused, d.Err = "no credentials: neither an Authorization header nor a UsernameToken", challengef(msgNoCredentials)
		return d
	}
	digest := creds.Token.PasswordType == PasswordDigest
	d.User, d.Scheme = creds.Token.Username, "ws-security-text"
	if digest {
		d.Scheme = "ws-security-digest"
	}
	if err := a.VerifyToken(creds.Token); err != nil {
		d.Refused = err.Error()
		if errors.Is(err, ErrBadCredentials) {
			d.Refused = a.whyBadCredentials(d.User, digest)
		}
		d.Err = tokenError(err)
	}
	return d
}

// whyBadCredentials says, for the operator's debug log only, why a user's credentials were refused:
// callers are told the same for an unknown user and a wrong password.
func (a *Authenticator) whyBadCredentials(user string, digest bool) string {
	u := a.users.Load().Lookup(user)
	switch {
	case u == nil:
		return "no user of that name in the users file"
	case digest && u.DigestSecret == nil:
		return "the user may not use PasswordDigest (add it with contactsync user add --digest)"
	}
	return "wrong password"
}

// challengef builds an Unauthenticated error that asks for HTTP Basic credentials: every binding
// answers it with 401 and BasicChallenge.
func challengef(format string, args ...any) *fault.Error {
	return fault.Errorf(fault.Unauthenticated, format, args...)
}

// tokenFault builds an Unauthenticated error about a UsernameToken; its cause, a TokenFault, makes the
// SOAP binding answer with that WS-Security fault code instead of the 401 challenge.
func tokenFault(wsseCode, message string) *fault.Error {
	return &fault.Error{Code: fault.Unauthenticated, Message: message, Err: TokenFault(wsseCode)}
}

// tokenError maps the verdict of VerifyToken to the fault the caller gets.
func tokenError(err error) *fault.Error {
	switch {
	case errors.Is(err, ErrBadCredentials):
		// WSS 1.1 §12's own fault string for FailedAuthentication.
		return tokenFault("FailedAuthentication", "The security token could not be authenticated or authorized.")
	case errors.Is(err, ErrStale):
		return tokenFault("MessageExpired", "The UsernameToken's Created time is too far from the server's clock.")
	case errors.Is(err, ErrReplayed):
		return tokenFault("FailedAuthentication", "The UsernameToken's nonce was already used; each request needs a fresh nonce.")
	case errors.Is(err, ErrMalformedToken):
		// The detail after the sentinel's text names the field; it never holds a secret.
		detail := strings.TrimPrefix(err.Error(), ErrMalformedToken.Error()+": ")
		return tokenFault("InvalidSecurityToken", "The UsernameToken is not valid: "+detail+".")
	case errors.Is(err, ErrBusy):
		return fault.Errorf(fault.Unavailable, "The service is busy; retry shortly.")
	default:
		return fault.InternalError(err)
	}
}
