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

// TestNewHandlerServesTheBoundContract: the handler serves what a contract's generated Bind returns, in
// the contract's namespace moved to the base URL, and refuses a contract that is not bound.
func TestNewHandlerServesTheBoundContract(t *testing.T) {
	bound := gen.Bind(service.New(nil))
	unbound := bound
	unbound.Call = nil
	noOps := bound
	noOps.Ops = nil
	urn := bound
	urn.Namespace = "urn:contactsync"
	for _, tc := range []struct {
		name    string
		bound   wire.Bound
		baseURL string
		// ns is the namespace the operations are served in; "" means NewHandler refuses.
		ns string
	}{
		{"default base", bound, wsdl.DefaultBaseURL, wsdl.DefaultNamespace},
		{"moved with a path", bound, "https://sync.example.com/base/", "https://sync.example.com/base/contactsync/v1/"},
		{"not bound", unbound, wsdl.DefaultBaseURL, ""},
		{"no operations", noOps, wsdl.DefaultBaseURL, ""},
		{"namespace not an http URL", urn, wsdl.DefaultBaseURL, ""},
		{"bad base URL", bound, "sync.example.com", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := server.NewHandler(tc.bound, server.Config{BaseURL: tc.baseURL})
			if tc.ns == "" {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, wsdl.Path+"/Version", nil))
			body, _ := io.ReadAll(rec.Body)
			assert.Equal(t, http.StatusOK, rec.Code)
			assert.Contains(t, string(body), `xmlns="`+tc.ns+`">1.0</string>`)
		})
	}
}
