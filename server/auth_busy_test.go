package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

// TestAuthBcryptBusyIs503: when every bcrypt slot is taken, a request whose credentials need a bcrypt
// comparison gets 503 with Retry-After, not 401 (its password may be right), on an operation and on
// the protected documents, which run outside --max-concurrent and so must not run bcrypt outside the
// authenticator's own limit. Cached credentials need no slot and still pass.
func TestAuthBcryptBusyIs503(t *testing.T) {
	// One slot, held by a slow comparison (a cost-10 hash; the exact duration does not matter, see
	// below), and almost no waiting for it.
	slow, err := bcrypt.GenerateFromPassword([]byte("slow-pw"), 10)
	require.NoError(t, err)
	fast, err := bcrypt.GenerateFromPassword([]byte("alice-pw"), bcrypt.MinCost)
	require.NoError(t, err)
	var file strings.Builder
	file.WriteString("slow:" + string(slow) + "\n")
	for _, u := range []string{"alice", "bob", "carol", "erin", "frank"} {
		file.WriteString(u + ":" + string(fast) + "\n")
	}
	users, err := auth.ParseUsers(strings.NewReader(file.String()))
	require.NoError(t, err)
	a, err := auth.New(users, auth.Options{BcryptConcurrency: 1, BcryptWait: time.Millisecond})
	require.NoError(t, err)
	ts := newAuthServer(t, a, true)
	ns := wsdl.DefaultNamespace
	op := requestFor("get", ns, "VersionMajor", "", false)

	resp, _ := ts.doWith(t, op, basic("carol", "alice-pw"))
	require.Equal(t, 200, resp.StatusCode, "carol's credentials are now cached")

	// Each case uses a user whose credentials are not cached yet, so its check needs bcrypt.
	for _, tc := range []struct {
		name string
		do   func() (*http.Response, string)
	}{
		{"HTTP GET with Basic", func() (*http.Response, string) { return ts.doWith(t, op, basic("alice", "alice-pw")) }},
		{"SOAP 1.1 with Basic", func() (*http.Response, string) {
			return ts.doWith(t, requestFor("soap11", ns, "VersionMajor", "", false), basic("erin", "alice-pw"))
		}},
		{"SOAP 1.2 with a PasswordText UsernameToken", func() (*http.Response, string) {
			tok := token{user: "frank", password: "alice-pw", passwordType: auth.PasswordText}
			return ts.doWith(t, withHeader(requestFor("soap12", ns, "VersionMajor", "", false), true, tok.header(true)), "")
		}},
		{"protected WSDL", func() (*http.Response, string) {
			return ts.doWith(t, wireRequest{method: "GET", path: "?WSDL"}, basic("bob", "alice-pw"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The verdict counts only if the slow comparison was still running after the response
			// came: then the slot was taken throughout. Otherwise (a very slow machine) try again.
			for attempt := 0; ; attempt++ {
				require.Less(t, attempt, 5, "the slow comparison never outlasted a request")
				before := a.BcryptComparisons()
				done := make(chan error, 1)
				// A new wrong password each time: neither cache can answer it, so it runs bcrypt.
				go func() { done <- a.Verify("slow", fmt.Sprint(tc.name, attempt)) }()
				for deadline := time.Now().Add(time.Minute); a.BcryptComparisons() == before; {
					require.True(t, time.Now().Before(deadline), "the slow comparison never started")
					time.Sleep(100 * time.Microsecond)
				}
				resp, body := tc.do()
				cached, _ := ts.doWith(t, op, basic("carol", "alice-pw"))
				select {
				case <-done:
					continue // inconclusive: the slot may have been free
				default:
				}
				assert.Equal(t, 503, resp.StatusCode, body)
				assert.Equal(t, "1", resp.Header.Get("Retry-After"))
				assert.Empty(t, resp.Header.Get("WWW-Authenticate"), "busy is not a challenge")
				assert.Equal(t, 200, cached.StatusCode, "cached credentials need no bcrypt slot")
				require.ErrorIs(t, <-done, auth.ErrBadCredentials)
				break
			}
			resp, _ := tc.do()
			assert.Equal(t, 200, resp.StatusCode, "with the slot free again, the same credentials pass")
		})
	}
}
