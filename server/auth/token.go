package auth

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"time"
)

// The OASIS Web Services Security namespaces and URIs a UsernameToken uses (WSS UsernameToken Profile
// 1.0 §3-4 and 1.1 §3-4; 1.1 keeps the 1.0 namespaces).
const (
	NSSecurityExt   = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
	NSSecurityUtil  = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
	PasswordText    = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText"
	PasswordDigest  = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest"
	EncodingBase64  = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary"
	maxNonceBytes   = 128
	maxCreatedBytes = 64
)

// UsernameToken is a wsse:UsernameToken as the SOAP decoder found it, unchecked.
type UsernameToken struct {
	Username string
	Password string
	// PasswordType is the Password's Type attribute; empty means PasswordText (Profile 1.0 §4).
	PasswordType string
	// Nonce is the wsse:Nonce text (Base64) and NonceEncoding its EncodingType attribute (empty
	// means Base64Binary, the only encoding accepted).
	Nonce, NonceEncoding string
	// Created is the wsu:Created text (xsd:dateTime).
	Created              string
	HasNonce, HasCreated bool
}

// VerifyToken checks a UsernameToken. PasswordText is checked against the bcrypt hash (through the
// verified cache, like Verify); PasswordDigest, Base64(SHA-1(nonce + created + password)), needs
// Nonce and Created and is accepted only from users who opted in to it. Created, when present, must
// lie within MaxClockSkew of now, and a nonce (with Created) must not have been accepted before within
// that window. It returns nil or one of the package's errors.
func (a *Authenticator) VerifyToken(t *UsernameToken) error {
	var nonce []byte
	if t.HasNonce {
		if t.NonceEncoding != "" && t.NonceEncoding != EncodingBase64 {
			return fmt.Errorf("%w: the Nonce's EncodingType must be Base64Binary", ErrMalformedToken)
		}
		var err error
		if len(t.Nonce) > base64.StdEncoding.EncodedLen(maxNonceBytes) {
			return fmt.Errorf("%w: the Nonce is longer than %d bytes", ErrMalformedToken, maxNonceBytes)
		}
		if nonce, err = base64.StdEncoding.DecodeString(t.Nonce); err != nil || len(nonce) == 0 {
			return fmt.Errorf("%w: the Nonce is not valid Base64", ErrMalformedToken)
		}
	}
	now := a.now()
	var created time.Time
	if t.HasCreated {
		var err error
		if len(t.Created) > maxCreatedBytes {
			return fmt.Errorf("%w: the Created time is not an xsd:dateTime", ErrMalformedToken)
		}
		if created, err = time.Parse(time.RFC3339Nano, t.Created); err != nil {
			return fmt.Errorf("%w: the Created time is not an xsd:dateTime with a time zone", ErrMalformedToken)
		}
		if created.Before(now.Add(-a.skew)) || created.After(now.Add(a.skew)) {
			return ErrStale
		}
	}

	switch t.PasswordType {
	case "", PasswordText:
		if err := a.Verify(t.Username, t.Password); err != nil {
			return err
		}
	case PasswordDigest:
		if !t.HasNonce || !t.HasCreated {
			return fmt.Errorf("%w: a PasswordDigest needs a Nonce and a Created time", ErrMalformedToken)
		}
		given, err := base64.StdEncoding.DecodeString(t.Password)
		if err != nil || len(given) != sha1.Size {
			return fmt.Errorf("%w: the PasswordDigest is not the Base64 of a SHA-1 digest", ErrMalformedToken)
		}
		if !a.verifyDigest(t.Username, given, nonce, t.Created) {
			return ErrBadCredentials
		}
	default:
		return fmt.Errorf("%w: the Password's Type must be PasswordText or PasswordDigest", ErrMalformedToken)
	}

	// Only an accepted token's nonce is remembered, so forged tokens cannot fill the cache. A nonce
	// without Created cannot be bounded in time and is not tracked.
	if t.HasNonce && t.HasCreated {
		return a.nonces.add(t.Username, string(nonce), created.Add(a.skew), now)
	}
	return nil
}

// verifyDigest compares a PasswordDigest with the one the user's digest secret gives. A user unknown
// or not opted in is compared against a throw-away secret, so all three cost the same.
func (a *Authenticator) verifyDigest(name string, given, nonce []byte, created string) bool {
	u := a.users.Load().Lookup(name)
	secret, allowed := []byte(nil), false
	if u != nil && u.DigestSecret != nil {
		secret, allowed = u.DigestSecret, true
	} else {
		secret = a.dummyHash
	}
	h := sha1.New()
	h.Write(nonce)
	h.Write([]byte(created))
	h.Write(secret)
	return a.equal(h.Sum(nil), given) && allowed
}

// Digest computes a PasswordDigest the way clients do: Base64(SHA-1(nonce + created + password)),
// nonce being the decoded bytes. Exported for tests and tools.
func Digest(nonce []byte, created, password string) string {
	h := sha1.New()
	h.Write(nonce)
	h.Write([]byte(created))
	h.Write([]byte(password))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}
