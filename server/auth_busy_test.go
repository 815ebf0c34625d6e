package server_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
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

// TestWrongPasswordsHoldNoOperationSlot: credentials are checked before a request takes an operation
// slot, so a request whose wrong password is being compared (a bcrypt comparison, tens of
// milliseconds, or longer waiting for the authenticator's few bcrypt slots) does not keep anyone else
// from running. With one operation slot and almost no queueing, a caller with cached credentials is
// served while the comparison runs, for HTTP Basic and for a UsernameToken alike. Before, credentials
// were checked inside the slot, and 64 connections of wrong passwords starved every other caller.
func TestWrongPasswordsHoldNoOperationSlot(t *testing.T) {
	slow, err := bcrypt.GenerateFromPassword([]byte("slow-pw"), 12)
	require.NoError(t, err)
	fast, err := bcrypt.GenerateFromPassword([]byte("alice-pw"), bcrypt.MinCost)
	require.NoError(t, err)
	users, err := auth.ParseUsers(strings.NewReader("slow:" + string(slow) + "\nalice:" + string(fast) + "\n"))
	require.NoError(t, err)
	a, err := auth.New(users, auth.Options{BcryptWait: time.Minute})
	require.NoError(t, err)
	st := testsupport.OpenSQLite(t)
	h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{
		BaseURL: wsdl.DefaultBaseURL, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: a,
		Limits: server.Limits{Admission: admission.Limits{MaxConcurrent: 1, QueueTimeout: time.Millisecond}},
	})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ts := &testServer{Server: srv, store: st, endpoint: srv.URL + wsdl.Path}
	ns := wsdl.DefaultNamespace
	op := requestFor("get", ns, "VersionMajor", "", false)
	resp, _ := ts.doWith(t, op, basic("alice", "alice-pw"))
	require.Equal(t, 200, resp.StatusCode, "alice's credentials are now cached")

	for _, tc := range []struct {
		name   string
		status int // the wrong password's answer
		send   func(attempt int) (*http.Response, string)
	}{
		{"HTTP Basic", 401, func(attempt int) (*http.Response, string) {
			return ts.doWith(t, op, basic("slow", fmt.Sprint("wrong-", attempt)))
		}},
		{"PasswordText UsernameToken", 500, func(attempt int) (*http.Response, string) {
			tok := token{user: "slow", password: fmt.Sprint("wrong-token-", attempt), passwordType: auth.PasswordText}
			return ts.doWith(t, withHeader(requestFor("soap11", ns, "VersionMajor", "", false), false, tok.header(false)), "")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for attempt := 0; ; attempt++ {
				require.Less(t, attempt, 5, "the slow comparison never outlasted a request")
				before := a.BcryptComparisons()
				done := make(chan int, 1)
				go func() {
					resp, _ := tc.send(attempt)
					done <- resp.StatusCode
				}()
				for deadline := time.Now().Add(time.Minute); a.BcryptComparisons() == before; {
					require.True(t, time.Now().Before(deadline), "the slow comparison never started")
					time.Sleep(100 * time.Microsecond)
				}
				resp, body := ts.doWith(t, op, basic("alice", "alice-pw"))
				select {
				case <-done:
					continue // inconclusive: the comparison ended before the cached request was served
				default:
				}
				assert.Equal(t, 200, resp.StatusCode, "a cached caller is served while a wrong password is compared: %s", body)
				assert.Equal(t, tc.status, <-done, "the wrong password is refused")
				break
			}
		})
	}
}
