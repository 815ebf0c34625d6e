package auth_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/fault"
)

// TestDecide holds the one question the handler asks to its answers: from the headers before the body
// is read (Basic accepted or refused, or pending where the body may carry a token), then from the
// credentials the body carried. Each refusal says why for the operator and carries what the caller is
// answered: a 401 challenge, a WS-Security fault (its TokenFault cause) or 503 when busy.
func TestDecide(t *testing.T) {
	nonce := []byte("0123456789abcdef")
	created := time.Date(2026, 11, 21, 11, 59, 0, 0, time.UTC).Format(time.RFC3339)
	digestToken := func(user, pw string) *auth.UsernameToken {
		return &auth.UsernameToken{Username: user, Password: auth.Digest(nonce, created, pw), PasswordType: auth.PasswordDigest,
			Nonce: base64.StdEncoding.EncodeToString(nonce), HasNonce: true, Created: created, HasCreated: true}
	}
	basic := func(user, pw string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pw))
	}
	tests := []struct {
		name          string
		authorization string // "" sends no Authorization header
		tokensInBody  bool
		body          *auth.Credentials // nil asks from the headers
		want          auth.Decision     // Err compared by code and TokenFault below
		wantCode      fault.Code
		wantToken     auth.TokenFault
	}{
		{name: "basic right", authorization: basic("alice", "alice-pw"), want: auth.Decision{Scheme: "basic", User: "alice"}},
		{name: "basic right where tokens may come", authorization: basic("alice", "alice-pw"), tokensInBody: true,
			want: auth.Decision{Scheme: "basic", User: "alice"}},
		{name: "basic wrong password", authorization: basic("alice", "nope"),
			want: auth.Decision{Scheme: "basic", User: "alice", Refused: "wrong password"}, wantCode: fault.Unauthenticated},
		{name: "basic unknown user", authorization: basic("mallory", "alice-pw"),
			want: auth.Decision{Scheme: "basic", User: "mallory", Refused: "no user of that name in the users file"}, wantCode: fault.Unauthenticated},
		{name: "another scheme", authorization: "Negotiate abc", tokensInBody: true,
			want: auth.Decision{Scheme: "basic", Refused: "the Authorization header is not HTTP Basic"}, wantCode: fault.Unauthenticated},
		{name: "no credentials, no tokens",
			want:     auth.Decision{Refused: "no credentials: neither an Authorization header nor, on this binding, a UsernameToken"},
			wantCode: fault.Unauthenticated},
		{name: "no header, tokens may come", tokensInBody: true, want: auth.Decision{Pending: true}},
		{name: "body without a token", tokensInBody: true, body: &auth.Credentials{},
			want:     auth.Decision{Scheme: "ws-security", Refused: "no credentials: neither an Authorization header nor a UsernameToken"},
			wantCode: fault.Unauthenticated},
		{name: "body with a header that cannot be used", tokensInBody: true, body: &auth.Credentials{Problem: "two tokens"},
			want:     auth.Decision{Scheme: "ws-security", Refused: "the WS-Security header cannot be processed: two tokens"},
			wantCode: fault.Unauthenticated, wantToken: "InvalidSecurity"},
		{name: "text token right", tokensInBody: true, body: &auth.Credentials{Token: &auth.UsernameToken{Username: "alice", Password: "alice-pw"}},
			want: auth.Decision{Scheme: "ws-security-text", User: "alice"}},
		{name: "text token wrong", tokensInBody: true, body: &auth.Credentials{Token: &auth.UsernameToken{Username: "alice", Password: "nope"}},
			want:     auth.Decision{Scheme: "ws-security-text", User: "alice", Refused: "wrong password"},
			wantCode: fault.Unauthenticated, wantToken: "FailedAuthentication"},
		{name: "digest token right", tokensInBody: true, body: &auth.Credentials{Token: digestToken("dave", "dave-pw")},
			want: auth.Decision{Scheme: "ws-security-digest", User: "dave"}},
		{name: "digest from a user who did not opt in", tokensInBody: true, body: &auth.Credentials{Token: digestToken("alice", "alice-pw")},
			want:     auth.Decision{Scheme: "ws-security-digest", User: "alice", Refused: "the user may not use PasswordDigest (add it with contactsync user add --digest)"},
			wantCode: fault.Unauthenticated, wantToken: "FailedAuthentication"},
		{name: "stale token", tokensInBody: true, body: &auth.Credentials{Token: &auth.UsernameToken{Username: "alice", Password: "alice-pw",
			Created: "2026-11-21T11:00:00Z", HasCreated: true}},
			want:     auth.Decision{Scheme: "ws-security-text", User: "alice", Refused: auth.ErrStale.Error()},
			wantCode: fault.Unauthenticated, wantToken: "MessageExpired"},
		{name: "malformed token", tokensInBody: true, body: &auth.Credentials{Token: &auth.UsernameToken{Username: "alice", Password: "alice-pw", PasswordType: "urn:plain"}},
			want: auth.Decision{Scheme: "ws-security-text", User: "alice",
				Refused: auth.ErrMalformedToken.Error() + ": the Password's Type must be PasswordText or PasswordDigest"},
			wantCode: fault.Unauthenticated, wantToken: "InvalidSecurityToken"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			r := httptest.NewRequest(http.MethodPost, "/", nil)
			if tc.authorization != "" {
				r.Header.Set("Authorization", tc.authorization)
			}
			got := f.a.Decide(r, tc.tokensInBody, tc.body)
			if tc.wantCode == "" {
				assert.Nil(t, got.Err)
			} else {
				require.NotNil(t, got.Err)
				assert.Equal(t, tc.wantCode, got.Err.Code)
				cause, _ := got.Err.Err.(auth.TokenFault)
				assert.Equal(t, tc.wantToken, cause, "the WS-Security fault code, or none for the Basic challenge")
			}
			got.Err = nil
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestDecideBusy: when no bcrypt slot comes free within the wait, the credentials are not judged
// wrong: the caller is answered 503 (Unavailable), to retry, and the operator is told why.
func TestDecideBusy(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	require.NoError(t, err)
	users, err := auth.ParseUsers(strings.NewReader("alice:" + string(hash) + "\nbob:" + string(hash) + "\n"))
	require.NoError(t, err)
	a, err := auth.New(users, auth.Options{BcryptConcurrency: 1, BcryptWait: 20 * time.Millisecond})
	require.NoError(t, err)
	entered, release := make(chan struct{}), make(chan struct{})
	var first sync.Once
	a.SetCompare(func(hash, password []byte) error {
		first.Do(func() { close(entered) })
		<-release
		return bcrypt.CompareHashAndPassword(hash, password)
	})
	holder := make(chan auth.Decision, 1)
	go func() {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.SetBasicAuth("alice", "pw")
		holder <- a.Decide(r, false, nil)
	}()
	<-entered // alice's comparison holds the only bcrypt slot

	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.SetBasicAuth("bob", "pw")
	busy := a.Decide(r, false, nil)
	require.NotNil(t, busy.Err)
	assert.Equal(t, fault.Unavailable, busy.Err.Code)
	assert.Equal(t, "busy: no bcrypt slot came free within the wait (--auth-bcrypt-concurrency)", busy.Refused)
	assert.Equal(t, "bob", busy.User)

	token := a.Decide(r, true, &auth.Credentials{Token: &auth.UsernameToken{Username: "bob", Password: "pw"}})
	require.NotNil(t, token.Err)
	assert.Equal(t, fault.Unavailable, token.Err.Code, "a token waits for the same slots")

	close(release)
	assert.Nil(t, (<-holder).Err)
}
