package client_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
)

// TestDescribe reads the namespace and each binding's address from the WSDL the server renders, for
// every protocol set, and reports a service that serves none as such.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		protocols []string
		want      []client.Binding
	}{
		{[]string{"soap11", "soap12", "get", "post", "docs"}, []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON}},
		{[]string{"soap12", "post", "docs"}, []client.Binding{client.SOAP12, client.HTTPPost}},
	} {
		doc, err := server.ContractFor(gen.Contract, "https://contacts.example.com", "https://public.example.com/p/sync.asmx", tc.protocols)
		require.NoError(t, err)
		var gotAuth string
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			user, pw, _ := r.BasicAuth()
			gotAuth = user + ":" + pw
			assert.Equal(t, "WSDL", r.URL.RawQuery)
			_, _ = w.Write(doc)
		}))
		d, err := client.Describe(t.Context(), ts.Client(), ts.URL+"/sync.asmx", "alice", "pw")
		ts.Close()
		require.NoError(t, err)
		assert.Equal(t, "alice:pw", gotAuth, "the documents get the same credentials")
		assert.Equal(t, "https://contacts.example.com/contactsync/v1/", d.Namespace)
		var got []client.Binding
		for _, b := range append(client.Bindings, client.JSON) {
			if a, ok := d.Addresses[b]; ok {
				got = append(got, b)
				assert.Equal(t, "https://public.example.com/p/sync.asmx", a)
			}
		}
		assert.Equal(t, tc.want, got, "%v", tc.protocols)
	}

	ts := httptest.NewServer(http.NotFoundHandler())
	defer ts.Close()
	_, err := client.Describe(t.Context(), ts.Client(), ts.URL+"/sync.asmx", "", "")
	var none *client.NoDescriptionError
	require.ErrorAs(t, err, &none)
	assert.Contains(t, err.Error(), "?WSDL answered 404 Not Found: 404 page not found")
}
