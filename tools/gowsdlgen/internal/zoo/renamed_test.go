package zoo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/renamed"
)

// renamedTwin is the Go twin of Zoo3.cs's Renamed and Lookup (README §6): Renamed returns the length of
// id (element x-id) plus n (element Count) as Answer; Lookup returns value-of-key in LookupReply.
type renamedTwin struct{}

var _ renamed.SyncSoapServer = renamedTwin{}

func (renamedTwin) RenamedContext(_ context.Context, r *renamed.Renamed) (*renamed.RenamedResponse, error) {
	return &renamed.RenamedResponse{Answer: int32(len(r.Xid)) + r.Count}, nil
}

func (renamedTwin) LookupContext(_ context.Context, r *renamed.Lookup) (*renamed.LookupReply, error) {
	return &renamed.LookupReply{LookupResult: "value-of-" + r.Key}, nil
}

func newRenamedHandler(t *testing.T) *server.Handler {
	t.Helper()
	h, err := server.NewHandler(renamed.Bind(renamedTwin{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	return h
}

// TestRenamedReplay replays the renames section of the third type zoo's captures (README §6;
// testdata/renamed/captures holds them unchanged): SOAP uses the schema's names (x-id, Count, Answer,
// LookupReply) and skips the C# names as unknown elements; HTTP GET and POST use the message parts'
// names (id, n) and answer the HTTP root of the result's type. Where ASMX answers a missing GET
// parameter 500 with its placeholder text, we answer 400 naming it (zoo2's status rule,
// docs/bindings.md).
func TestRenamedReplay(t *testing.T) {
	h := newRenamedHandler(t)
	tests := []struct {
		name string
		// status is ours where it differs from ASMX's; body is then in our answer.
		status int
		body   string
	}{
		{name: "soap11-Renamed"},
		{name: "soap12-Renamed"},
		{name: "soap11-Renamed-csharp-names"},
		{name: "get-Renamed-plain"},
		{name: "post-Renamed-plain"},
		{name: "get-Renamed-xml-names", status: http.StatusBadRequest, body: "The parameter id is required."},
		{name: "soap11-Lookup"},
		{name: "soap12-Lookup"},
		{name: "get-Lookup-plain"},
		{name: "post-Lookup-plain"},
	}
	byName := map[string]*capture{}
	for _, c := range readCapturesIn(t, "testdata/renamed/captures", len(tests)) {
		byName[c.name] = c
	}
	for _, tt := range tests {
		c := byName[tt.name]
		require.NotNil(t, c, tt.name)
		t.Run(tt.name, func(t *testing.T) {
			rec := replay(h, c)
			got := rec.Body.String()
			if tt.status != 0 {
				require.Equal(t, http.StatusInternalServerError, c.response.StatusCode, "ASMX's answer")
				require.Equal(t, tt.status, rec.Code, got)
				assert.Contains(t, got, tt.body)
				return
			}
			require.Equal(t, c.response.StatusCode, rec.Code, got)
			assert.Equal(t, c.response.Header.Get("Content-Type"), rec.Header().Get("Content-Type"))
			want, err := infoset(c.respBody, nil)
			require.NoError(t, err)
			gotSet, err := infoset([]byte(got), nil)
			require.NoError(t, err, got)
			assert.Equal(t, want, gotSet)
		})
	}
}

// TestRenamedClient: the generated client stub sends the schema's names on SOAP and the JSON endpoint
// and the parts' names on GET and POST, and reads the renamed result and response wrapper, on every
// binding.
func TestRenamedClient(t *testing.T) {
	srv := httptest.NewServer(newRenamedHandler(t))
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &renamed.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + renamed.Contract.Path, Namespace: oneWayNamespace, Binding: b, HTTP: srv.Client()}}
			got, err := c.Renamed(&renamed.Renamed{Xid: "abc", Count: 2})
			require.NoError(t, err)
			assert.Equal(t, int32(5), got.Answer)
			reply, err := c.Lookup(&renamed.Lookup{Key: "k1"})
			require.NoError(t, err)
			assert.Equal(t, "value-of-k1", reply.LookupResult)
		})
	}
}

// TestRenamedHelpPage: the help page's test form (HTTP POST) and its GET/POST samples name the
// parameters as the message parts do (id, n); the SOAP samples use the schema's names.
func TestRenamedHelpPage(t *testing.T) {
	h := newRenamedHandler(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, renamed.Contract.Path+"?op=Renamed", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	assert.Contains(t, body, `<input id="param-id" name="id"`)
	assert.Contains(t, body, `<input id="param-n" name="n"`)
	assert.Contains(t, body, "/Renamed?id=string&amp;n=int")
	assert.Contains(t, body, "id=string&amp;n=int</pre>")
	assert.Contains(t, body, "&lt;x-id&gt;string&lt;/x-id&gt;")
	assert.Contains(t, body, "&lt;Answer&gt;int&lt;/Answer&gt;")
	assert.False(t, strings.Contains(body, "x-id=string"), "GET/POST samples use the parts' names")
}
