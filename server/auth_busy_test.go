package server_test

import (
	"fmt"
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
	// One slot, held by a slow comparison (a cost-11 hash; the exact duration does not matter, see
	// below), and almost no waiting for it.
	slow, err := bcrypt.GenerateFromPassword([]byte("slow-pw"), 11)
	require.NoError(t, err)
	fast, err := bcrypt.GenerateFromPassword([]byte("alice-pw"), bcrypt.MinCost)
	require.NoError(t, err)
	users, err := auth.ParseUsers(strings.NewReader("slow:" + string(slow) + "\nalice:" + string(fast) + "\nbob:" + string(fast) + "\ncarol:" + string(fast) + "\n"))
	require.NoError(t, err)
	a, err := auth.New(users, auth.Options{BcryptConcurrency: 1, BcryptWait: time.Millisecond})
	require.NoError(t, err)
	ts := newAuthServer(t, a, true)
	op := requestFor("get", wsdl.DefaultNamespace, "VersionMajor", "", false)
	docs := wireRequest{method: "GET", path: "?WSDL"}

	resp, _ := ts.doWith(t, op, basic("carol", "alice-pw"))
	require.Equal(t, 200, resp.StatusCode, "carol's credentials are now cached")

	for _, tc := range []struct {
		name, user string // a user whose credentials are not cached yet
		req        wireRequest
	}{{"operation", "alice", op}, {"protected WSDL", "bob", docs}} {
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
				resp, body := ts.doWith(t, tc.req, basic(tc.user, "alice-pw"))
				cached, _ := ts.doWith(t, tc.req, basic("carol", "alice-pw"))
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
			resp, _ := ts.doWith(t, tc.req, basic(tc.user, "alice-pw"))
			assert.Equal(t, 200, resp.StatusCode, "with the slot free again, the same credentials pass")
		})
	}
}
