package auth

// BasicChallenge is the WWW-Authenticate value of every 401 the service sends (RFC 7617 §2, with
// §2.1's charset so that clients send non-ASCII user names and passwords as UTF-8).
const BasicChallenge = `Basic realm="contactsync", charset="UTF-8"`

// TokenFault is the cause of an Unauthenticated error about a WS-Security UsernameToken: the local
// name of its WS-Security fault code (FailedAuthentication, InvalidSecurityToken, …; WSS 1.1 §12).
// The SOAP binding unwraps it and answers with a SOAP fault carrying that code (HTTP 500) instead of
// the 401 and Basic challenge every other refusal gets; no other binding carries tokens.
type TokenFault string

func (f TokenFault) Error() string { return "wsse:" + string(f) }
