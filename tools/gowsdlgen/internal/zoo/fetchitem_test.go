package zoo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/fetchitem"
)

// fetchItemTwin is the Go twin of Zoo3.cs's FetchItem (README §6): it returns item-{id}.
type fetchItemTwin struct{}

var _ fetchitem.SyncSoapServer = fetchItemTwin{}

func (fetchItemTwin) FetchItemContext(_ context.Context, r *fetchitem.GetItem) (*fetchitem.GetItemReply, error) {
	return &fetchitem.GetItemReply{FetchItemResult: "item-" + strconv.Itoa(int(r.Id))}, nil
}

func newFetchItemHandler(t *testing.T) *server.Handler {
	t.Helper()
	h, err := server.NewHandler(fetchitem.Bind(fetchItemTwin{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	return h
}

// TestFetchItemReplay replays FetchItem's captures of the third type zoo (README §6;
// testdata/fetchitem/captures holds them unchanged): the custom SOAPAction urn:items/fetch routes the
// request and the default-style one is not recognized; without an action the body element
// {urn:items}GetItem routes it; the reply is {urn:items}GetItemReply with its child qualified in
// urn:items; GET and POST answer in the service namespace. Where ASMX reads a GetItem in the service
// namespace as an empty request (item-0), we refuse it: a SOAPAction that disagrees with the body is a
// Client fault (docs/bindings.md lists it), as are our fault texts.
func TestFetchItemReplay(t *testing.T) {
	h := newFetchItemHandler(t)
	tests := []struct {
		name string
		// status is ours where it differs from ASMX's; faultCode the code of our SOAP fault.
		status    int
		faultCode string
	}{
		{name: "soap11-FetchItem"},
		{name: "soap11-FetchItem-no-action"},
		{name: "soap12-FetchItem"},
		{name: "soap11-FetchItem-default-action", faultCode: "Client"},
		{name: "soap11-FetchItem-tns-body", status: http.StatusInternalServerError, faultCode: "Client"},
		{name: "get-FetchItem-plain"},
		{name: "post-FetchItem-plain"},
	}
	byName := map[string]*capture{}
	for _, c := range readCapturesIn(t, "testdata/fetchitem/captures", len(tests)) {
		byName[c.name] = c
	}
	for _, tt := range tests {
		c := byName[tt.name]
		require.NotNil(t, c, tt.name)
		t.Run(tt.name, func(t *testing.T) {
			rec := replay(h, c)
			got := rec.Body.String()
			if tt.faultCode != "" {
				want := c.response.StatusCode
				if tt.status != 0 {
					require.Equal(t, http.StatusOK, want, "ASMX's answer")
					want = tt.status
				}
				require.Equal(t, want, rec.Code, got)
				m := faultCode.FindStringSubmatch(got)
				require.NotNil(t, m, got)
				assert.Equal(t, tt.faultCode, m[1]+m[2])
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

// TestFetchItemClient: the generated client stub sends the custom SOAPAction and the wrapper in its
// own namespace, and reads the reply, on every binding.
func TestFetchItemClient(t *testing.T) {
	srv := httptest.NewServer(newFetchItemHandler(t))
	t.Cleanup(srv.Close)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &fetchitem.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + fetchitem.Contract.Path, Namespace: oneWayNamespace, Binding: b, HTTP: srv.Client()}}
			got, err := c.FetchItem(&fetchitem.GetItem{Id: 7})
			require.NoError(t, err)
			assert.Equal(t, "item-7", got.FetchItemResult)
		})
	}
}

// TestFetchItemInvoke: the runtime's by-name call reads parameters into a wrapper of another
// namespace.
func TestFetchItemInvoke(t *testing.T) {
	resp, err := client.Invoke(context.Background(), fetchitem.Bind(fetchItemTwin{}), "FetchItem", map[string]string{"id": "9"})
	require.NoError(t, err)
	assert.Equal(t, "item-9", resp.(*fetchitem.GetItemReply).FetchItemResult)
}

// TestFetchItemHelpPage: the help page's SOAP samples show the custom SOAPAction and the wrappers in
// their namespace.
func TestFetchItemHelpPage(t *testing.T) {
	h := newFetchItemHandler(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, fetchitem.Contract.Path+"?op=FetchItem", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	assert.Contains(t, body, "SOAPAction: &#34;urn:items/fetch&#34;")
	assert.Contains(t, body, "action=&#34;urn:items/fetch&#34;")
	assert.Contains(t, body, "&lt;GetItem xmlns=&#34;urn:items&#34;&gt;")
	assert.Contains(t, body, "&lt;GetItemReply xmlns=&#34;urn:items&#34;&gt;")
	assert.False(t, strings.Contains(body, "zoo3/v1/FetchItem&#34;"), "no default-style action")
}
