package server_test

import (
	"encoding/base64"
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
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
)

const (
	wsseNS = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
	wsuNS  = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
	// wantChallenge is the exact WWW-Authenticate of every 401.
	wantChallenge = `Basic realm="contactsync", charset="UTF-8"`
)

// newAuthenticator returns an Authenticator over alice (PasswordText only) and dave (PasswordDigest
// enabled), with cheap bcrypt hashes.
func newAuthenticator(t testing.TB) *auth.Authenticator {
	t.Helper()
	line := func(name, pw string, digest bool) string {
		h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)
		require.NoError(t, err)
		l := name + ":" + string(h)
		if digest {
			l += ":digest=" + base64.StdEncoding.EncodeToString([]byte(pw))
		}
		return l + "\n"
	}
	users, err := auth.ParseUsers(strings.NewReader(line("alice", "alice-pw", false) + line("dave", "dave-pw", true)))
	require.NoError(t, err)
	a, err := auth.New(users, auth.Options{})
	require.NoError(t, err)
	return a
}

func newAuthServer(t *testing.T, a *auth.Authenticator, protectDocs bool) *testServer {
	t.Helper()
	st := testsupport.OpenSQLite(t)
	h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{
		BaseURL: wsdl.DefaultBaseURL, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Auth: a, ProtectDocs: protectDocs,
	})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, store: st, endpoint: srv.URL + wsdl.Path}
}

func basic(user, pw string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pw))
}

func TestAuthBasicOnEveryBinding(t *testing.T) {
	ts := newAuthServer(t, newAuthenticator(t), false)
	ns := wsdl.DefaultNamespace
	cases := []struct {
		name          string
		authorization string
		wantStatus    int
	}{
		{"right", basic("alice", "alice-pw"), 200},
		{"digest user with Basic", basic("dave", "dave-pw"), 200},
		{"wrong password", basic("alice", "nope"), 401},
		{"unknown user", basic("mallory", "alice-pw"), 401},
		{"missing", "", 401},
		{"malformed base64", "Basic !!!not-base64", 401},
		{"no colon", "Basic " + base64.StdEncoding.EncodeToString([]byte("alice")), 401},
		{"other scheme", "Bearer abc", 401},
	}
	for _, binding := range []string{"soap11", "soap12", "get", "post"} {
		t.Run(binding, func(t *testing.T) {
			var refusals []string
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					resp, body := ts.doWith(t, requestFor(binding, ns, "VersionMajor", "", false), tc.authorization)
					require.Equal(t, tc.wantStatus, resp.StatusCode, body)
					if tc.wantStatus == 200 {
						assert.Contains(t, body, ">1<")
						assert.Empty(t, resp.Header.Get("WWW-Authenticate"))
						return
					}
					assert.Equal(t, wantChallenge, resp.Header.Get("WWW-Authenticate"))
					if strings.HasPrefix(binding, "soap") {
						assert.Contains(t, body, "Fault")
						assert.Contains(t, body, ">Unauthenticated</ErrorCode>")
					} else {
						assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
					}
					assert.NotContains(t, body, "mallory")
					if tc.name == "wrong password" || tc.name == "unknown user" {
						refusals = append(refusals, body)
					}
				})
			}
			if len(refusals) == 2 {
				assert.Equal(t, refusals[0], refusals[1], "a wrong password and an unknown user get the same answer")
			}
		})
	}
}

// token is a UsernameToken as a test writes it into a SOAP header.
type token struct {
	user, password, passwordType string
	nonce, created               string // "" leaves the element out
	mustUnderstand               bool
}

func (tk token) header(version12 bool) string {
	mu := ""
	if tk.mustUnderstand {
		p := "soap"
		if version12 {
			p = "soap12"
		}
		mu = ` ` + p + `:mustUnderstand="1"`
	}
	typ := ""
	if tk.passwordType != "" {
		typ = ` Type="` + tk.passwordType + `"`
	}
	s := `<wsse:Security xmlns:wsse="` + wsseNS + `" xmlns:wsu="` + wsuNS + `"` + mu + `><wsse:UsernameToken wsu:Id="UsernameToken-1">` +
		`<wsse:Username>` + tk.user + `</wsse:Username><wsse:Password` + typ + `>` + tk.password + `</wsse:Password>`
	if tk.nonce != "" {
		s += `<wsse:Nonce EncodingType="` + auth.EncodingBase64 + `">` + tk.nonce + `</wsse:Nonce>`
	}
	if tk.created != "" {
		s += `<wsu:Created>` + tk.created + `</wsu:Created>`
	}
	return s + `</wsse:UsernameToken></wsse:Security>`
}

// withHeader puts a SOAP header into a request built by requestFor.
func withHeader(r wireRequest, version12 bool, header string) wireRequest {
	p := "soap"
	if version12 {
		p = "soap12"
	}
	r.body = strings.Replace(r.body, "<"+p+":Body>", "<"+p+":Header>"+header+"</"+p+":Header><"+p+":Body>", 1)
	return r
}

func digestToken(user, pw string, nonce []byte, created time.Time) token {
	c := created.UTC().Format(time.RFC3339)
	return token{user: user, password: auth.Digest(nonce, c, pw), passwordType: auth.PasswordDigest,
		nonce: base64.StdEncoding.EncodeToString(nonce), created: c}
}

func TestAuthUsernameToken(t *testing.T) {
	ns := wsdl.DefaultNamespace
	now := time.Now()
	type want struct {
		status    int
		wsseCode  string // SOAP 1.1 faultcode / SOAP 1.2 Subcode, without prefix
		inMessage string
	}
	ok := want{status: 200}
	failed := want{500, "FailedAuthentication", "could not be authenticated"}
	cases := []struct {
		name string
		tok  func(n int) token // n makes nonces unique per binding
		want want
	}{
		{"text right", func(int) token { return token{user: "alice", password: "alice-pw", passwordType: auth.PasswordText} }, ok},
		{"text right, mustUnderstand", func(int) token {
			return token{user: "alice", password: "alice-pw", passwordType: auth.PasswordText, mustUnderstand: true}
		}, ok},
		{"text without Type", func(int) token { return token{user: "alice", password: "alice-pw"} }, ok},
		{"text wrong", func(int) token { return token{user: "alice", password: "nope", passwordType: auth.PasswordText} }, failed},
		{"text unknown user", func(int) token { return token{user: "mallory", password: "alice-pw", passwordType: auth.PasswordText} }, failed},
		{"text with stale created", func(int) token {
			return token{user: "alice", password: "alice-pw", created: now.Add(-time.Hour).UTC().Format(time.RFC3339)}
		}, want{500, "MessageExpired", "Created time"}},
		{"digest right", func(n int) token { return digestToken("dave", "dave-pw", fmt.Appendf(nil, "right-%d", n), now) }, ok},
		{"digest wrong", func(n int) token { return digestToken("dave", "nope", fmt.Appendf(nil, "wrong-%d", n), now) }, failed},
		{"digest stale created", func(n int) token {
			return digestToken("dave", "dave-pw", fmt.Appendf(nil, "stale-%d", n), now.Add(-10*time.Minute))
		}, want{500, "MessageExpired", "Created time"}},
		{"digest future created", func(n int) token {
			return digestToken("dave", "dave-pw", fmt.Appendf(nil, "future-%d", n), now.Add(10*time.Minute))
		}, want{500, "MessageExpired", "Created time"}},
		{"digest for a non-digest user", func(n int) token { return digestToken("alice", "alice-pw", fmt.Appendf(nil, "alice-%d", n), now) }, failed},
		{"digest missing nonce", func(n int) token {
			tk := digestToken("dave", "dave-pw", fmt.Appendf(nil, "nononce-%d", n), now)
			tk.nonce = ""
			return tk
		}, want{500, "InvalidSecurityToken", "Nonce and a Created"}},
		{"digest bad base64 nonce", func(n int) token {
			tk := digestToken("dave", "dave-pw", fmt.Appendf(nil, "b64-%d", n), now)
			tk.nonce = "***"
			return tk
		}, want{500, "InvalidSecurityToken", "Base64"}},
		{"digest bad base64 digest", func(n int) token {
			tk := digestToken("dave", "dave-pw", fmt.Appendf(nil, "d64-%d", n), now)
			tk.password = "***"
			return tk
		}, want{500, "InvalidSecurityToken", "Base64"}},
	}
	for i, binding := range []string{"soap11", "soap12"} {
		version12 := binding == "soap12"
		t.Run(binding, func(t *testing.T) {
			ts := newAuthServer(t, newAuthenticator(t), false)
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					req := withHeader(requestFor(binding, ns, "VersionMajor", "", false), version12, tc.tok(i).header(version12))
					resp, body := ts.doWith(t, req, "")
					require.Equal(t, tc.want.status, resp.StatusCode, body)
					if tc.want.status == 200 {
						assert.Contains(t, body, ">1<")
						return
					}
					assert.Empty(t, resp.Header.Get("WWW-Authenticate"), "a refused token is a fault, not a challenge")
					if version12 {
						assert.Contains(t, body, "<soap12:Value>soap12:Sender</soap12:Value><soap12:Subcode><soap12:Value>wsse:"+tc.want.wsseCode+"</soap12:Value>")
						assert.Contains(t, body, "<soap12:Value>cs:Unauthenticated</soap12:Value>")
					} else {
						assert.Contains(t, body, `xmlns:wsse="`+wsseNS+`"><faultcode>wsse:`+tc.want.wsseCode+`</faultcode>`)
					}
					assert.Contains(t, body, ">Unauthenticated</ErrorCode>")
					assert.Contains(t, body, tc.want.inMessage)
					assert.NotContains(t, body, "mallory")
				})
			}
			t.Run("replayed nonce", func(t *testing.T) {
				req := withHeader(requestFor(binding, ns, "VersionMajor", "", false), version12,
					digestToken("dave", "dave-pw", fmt.Appendf(nil, "replay-%d", i), now).header(version12))
				resp, body := ts.doWith(t, req, "")
				require.Equal(t, 200, resp.StatusCode, body)
				resp, body = ts.doWith(t, req, "")
				require.Equal(t, 500, resp.StatusCode, body)
				assert.Contains(t, body, "wsse:FailedAuthentication")
				assert.Contains(t, body, "nonce was already used")
			})
			t.Run("Security header without token", func(t *testing.T) {
				req := withHeader(requestFor(binding, ns, "VersionMajor", "", false), version12,
					`<wsse:Security xmlns:wsse="`+wsseNS+`"><wsu:Timestamp xmlns:wsu="`+wsuNS+`"/></wsse:Security>`)
				resp, _ := ts.doWith(t, req, "")
				assert.Equal(t, 401, resp.StatusCode)
				assert.Equal(t, wantChallenge, resp.Header.Get("WWW-Authenticate"))
			})
			t.Run("two tokens", func(t *testing.T) {
				tk := token{user: "alice", password: "alice-pw"}.header(version12)
				two := strings.Replace(tk, "</wsse:Security>", strings.TrimSuffix(tk[strings.Index(tk, "<wsse:UsernameToken"):], "</wsse:Security>")+"</wsse:Security>", 1)
				resp, body := ts.doWith(t, withHeader(requestFor(binding, ns, "VersionMajor", "", false), version12, two), "")
				assert.Equal(t, 500, resp.StatusCode)
				assert.Contains(t, body, "wsse:InvalidSecurity<")
			})
			t.Run("Basic wins over a bad token", func(t *testing.T) {
				req := withHeader(requestFor(binding, ns, "VersionMajor", "", false), version12, token{user: "alice", password: "nope"}.header(version12))
				resp, body := ts.doWith(t, req, basic("alice", "alice-pw"))
				assert.Equal(t, 200, resp.StatusCode, body)
			})
			t.Run("bad body with a good token keeps its own error", func(t *testing.T) {
				req := withHeader(requestFor(binding, ns, "NoSuchOperation", "", false), version12, token{user: "alice", password: "alice-pw"}.header(version12))
				req.soapAction, req.contentType = "", strings.Split(req.contentType, ";")[0]
				resp, body := ts.doWith(t, req, "")
				assert.Equal(t, 500, resp.StatusCode)
				assert.Contains(t, body, ">UnknownOperation</ErrorCode>")
			})
			t.Run("bad body without credentials is 401", func(t *testing.T) {
				resp, _ := ts.doWith(t, wireRequest{method: "POST", contentType: requestFor(binding, ns, "Version", "", false).contentType, body: "<not-soap"}, "")
				assert.Equal(t, 401, resp.StatusCode)
			})
		})
	}
}

// TestAuthOffIgnoresSecurityHeader: with authentication off, a client configured with credentials
// still works: the Security header is understood (no MustUnderstand fault) and ignored.
func TestAuthOffIgnoresSecurityHeader(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	for _, binding := range []string{"soap11", "soap12"} {
		version12 := binding == "soap12"
		for _, tk := range []token{
			{user: "anyone", password: "anything", mustUnderstand: true},
			{user: "x", password: "***", passwordType: auth.PasswordDigest, nonce: "%%", mustUnderstand: true},
		} {
			req := withHeader(requestFor(binding, wsdl.DefaultNamespace, "VersionMajor", "", false), version12, tk.header(version12))
			resp, body := ts.do(t, req)
			assert.Equal(t, 200, resp.StatusCode, body)
		}
	}
}

func TestAuthDocs(t *testing.T) {
	paths := []string{"?WSDL", "?disco", "", "?op=ReadContact"}
	a := newAuthenticator(t)
	t.Run("open by default", func(t *testing.T) {
		ts := newAuthServer(t, a, false)
		for _, p := range paths {
			resp, _ := ts.doWith(t, wireRequest{method: "GET", path: p}, "")
			assert.Equal(t, 200, resp.StatusCode, p)
		}
	})
	t.Run("protected", func(t *testing.T) {
		ts := newAuthServer(t, a, true)
		for _, p := range paths {
			resp, _ := ts.doWith(t, wireRequest{method: "GET", path: p}, "")
			assert.Equal(t, 401, resp.StatusCode, p)
			assert.Equal(t, wantChallenge, resp.Header.Get("WWW-Authenticate"), p)
			resp, _ = ts.doWith(t, wireRequest{method: "GET", path: p}, basic("alice", "wrong"))
			assert.Equal(t, 401, resp.StatusCode, p)
			resp, _ = ts.doWith(t, wireRequest{method: "GET", path: p}, basic("alice", "alice-pw"))
			assert.Equal(t, 200, resp.StatusCode, p)
		}
	})
}

// TestAuthCacheSkipsBcrypt makes the verified-credentials cache observable end to end: the second
// request with the same Basic credentials costs no bcrypt comparison, a wrong password always does.
func TestAuthCacheSkipsBcrypt(t *testing.T) {
	a := newAuthenticator(t)
	ts := newAuthServer(t, a, false)
	req := requestFor("get", wsdl.DefaultNamespace, "VersionMajor", "", false)
	resp, _ := ts.doWith(t, req, basic("alice", "alice-pw"))
	require.Equal(t, 200, resp.StatusCode)
	require.Equal(t, uint64(1), a.BcryptComparisons())
	for range 3 {
		resp, _ = ts.doWith(t, req, basic("alice", "alice-pw"))
		require.Equal(t, 200, resp.StatusCode)
	}
	assert.Equal(t, uint64(1), a.BcryptComparisons(), "cached credentials skip bcrypt")
	resp, _ = ts.doWith(t, req, basic("alice", "wrong"))
	require.Equal(t, 401, resp.StatusCode)
	assert.Equal(t, uint64(2), a.BcryptComparisons(), "a wrong password pays bcrypt")
}

// BenchmarkAuthenticatedRequest is one SOAP 1.1 request with cached HTTP Basic credentials through
// the handler, against the same request with authentication off: the difference is auth's cost.
func BenchmarkAuthenticatedRequest(b *testing.B) {
	ns := wsdl.DefaultNamespace
	body := soapEnvelope(false, ns, "VersionMajor", "")
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "auth-off", true: "basic-cached"}[on], func(b *testing.B) {
			cfg := server.Config{BaseURL: wsdl.DefaultBaseURL, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
			if on {
				cfg.Auth = newAuthenticator(b)
			}
			h, err := server.NewHandler(gen.Bind(service.New(nil)), cfg)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, wsdl.Path, strings.NewReader(body))
				r.Header.Set("Content-Type", "text/xml; charset=utf-8")
				r.Header.Set("SOAPAction", `"`+ns+`VersionMajor"`)
				r.Header.Set("Authorization", basic("alice", "alice-pw"))
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
