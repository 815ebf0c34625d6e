package server_test

import (
	"strings"
	"testing"

	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuthTokenWithUnknownAction: a request whose SOAP action names no operation of this service (an
// old proxy, another --base-url) but which carries a good UsernameToken must get the UnknownOperation
// fault, as with Basic credentials, not a 401 claiming it has no credentials. Without credentials it
// still learns nothing but 401.
func TestAuthTokenWithUnknownAction(t *testing.T) {
	ns := wsdl.DefaultNamespace
	for _, binding := range []string{"soap11", "soap12"} {
		version12 := binding == "soap12"
		for _, tc := range []struct {
			name, action string
		}{
			{"operation unknown", ns + "NoSuchOperation"},
			{"another namespace", "http://other.example/contactsync/v1/VersionMajor"},
		} {
			t.Run(binding+"/"+tc.name, func(t *testing.T) {
				ts := newAuthServer(t, newAuthenticator(t), false)
				withAction := func(r wireRequest) wireRequest {
					if version12 {
						r.contentType = strings.Replace(r.contentType, `"`+ns+`VersionMajor"`, `"`+tc.action+`"`, 1)
					} else {
						r.soapAction = `"` + tc.action + `"`
					}
					return r
				}
				plain := withAction(requestFor(binding, ns, "VersionMajor", "", false))

				req := withHeader(plain, version12, token{user: "alice", password: "alice-pw"}.header(version12))
				resp, body := ts.doWith(t, req, "")
				require.Equal(t, 500, resp.StatusCode, body)
				assert.Empty(t, resp.Header.Get("WWW-Authenticate"))
				assert.Contains(t, body, ">UnknownOperation</ErrorCode>")

				resp, body = ts.doWith(t, plain, basic("alice", "alice-pw"))
				require.Equal(t, 500, resp.StatusCode, body)
				assert.Contains(t, body, ">UnknownOperation</ErrorCode>", "the same request with Basic credentials")

				req = withHeader(plain, version12, token{user: "alice", password: "nope"}.header(version12))
				resp, body = ts.doWith(t, req, "")
				require.Equal(t, 500, resp.StatusCode, body)
				assert.Contains(t, body, "wsse:FailedAuthentication", "a bad token is refused before the action is judged")
				assert.NotContains(t, body, "UnknownOperation")

				resp, _ = ts.doWith(t, plain, "")
				assert.Equal(t, 401, resp.StatusCode, "no credentials")
			})
		}
	}
}
