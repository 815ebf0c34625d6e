package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

// TestNewHandlerServesTheBoundContract: the handler serves what a contract's generated Bind returns, at
// the contract's endpoint path (or the configured one), in the contract's namespace moved to the base
// URL when the contract is rebased and as written otherwise, and refuses a contract that is not bound.
func TestNewHandlerServesTheBoundContract(t *testing.T) {
	bound := gen.Bind(service.New(nil))
	unbound := bound
	unbound.Call = nil
	noOps := bound
	noOps.Ops = nil
	noContract := bound
	noContract.Contract = nil
	withContract := func(edit func(c *wire.Contract)) wire.Bound {
		b := bound
		c := *bound.Contract
		edit(&c)
		b.Contract = &c
		return b
	}
	urn := withContract(func(c *wire.Contract) { c.Namespace = "urn:contactsync" })
	urnAsWritten := withContract(func(c *wire.Contract) { c.Namespace, c.RebaseNamespace = "urn:contactsync", false })
	tempuri := withContract(func(c *wire.Contract) { c.Namespace, c.RebaseNamespace = "http://tempuri.org/", false })
	noPath := withContract(func(c *wire.Contract) { c.Path = "" })
	for _, tc := range []struct {
		name    string
		bound   wire.Bound
		baseURL string
		path    string // Config.Path
		// ns is the namespace the operations are served in; "" means NewHandler refuses.
		ns string
	}{
		{"default base", bound, wsdl.DefaultBaseURL, "", wsdl.DefaultNamespace},
		{"moved with a path", bound, "https://sync.example.com/base/", "", "https://sync.example.com/base/contactsync/v1/"},
		{"not bound", unbound, wsdl.DefaultBaseURL, "", ""},
		{"no operations", noOps, wsdl.DefaultBaseURL, "", ""},
		{"no contract", noContract, wsdl.DefaultBaseURL, "", ""},
		{"rebased namespace not an http URL", urn, wsdl.DefaultBaseURL, "", ""},
		{"namespace as written, not a URL", urnAsWritten, wsdl.DefaultBaseURL, "", "urn:contactsync"},
		{"namespace as written, whatever the base URL", tempuri, "https://sync.example.com", "", "http://tempuri.org/"},
		{"namespace as written, no base URL", tempuri, "", "", "http://tempuri.org/"},
		{"bad base URL", bound, "sync.example.com", "", ""},
		{"bad base URL, namespace as written", tempuri, "sync.example.com", "", ""},
		{"no endpoint path", noPath, wsdl.DefaultBaseURL, "", ""},
		{"endpoint path given", noPath, wsdl.DefaultBaseURL, "/other/v2/sync.asmx", wsdl.DefaultNamespace},
		{"endpoint path ending in /", bound, wsdl.DefaultBaseURL, "/other/", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := server.NewHandler(tc.bound, server.Config{BaseURL: tc.baseURL, Path: tc.path})
			if tc.ns == "" {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			path := tc.path
			if path == "" {
				path = wsdl.Path
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path+"/Version", nil))
			body, _ := io.ReadAll(rec.Body)
			assert.Equal(t, http.StatusOK, rec.Code)
			assert.Contains(t, string(body), `xmlns="`+tc.ns+`">1.0</string>`)
		})
	}
}
