package zoo_test

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo2"
)

// TestZoo2ClientRoundTrip calls the second zoo's operations through the generated client stub and the
// bundled client over every binding that offers each: the array parameters travel as one form value
// per item over HTTP GET and POST, and come back as sent; an empty or null array is an empty one
// there (a form cannot tell them apart), and a null item the empty string.
func TestZoo2ClientRoundTrip(t *testing.T) {
	h, err := server.NewHandler(zoo2.Bind(zoo2Service{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()
	at := func(s string) xsd.DateTime {
		d, ok := xsd.ParseDateTime(s)
		require.True(t, ok, s)
		return d
	}
	str := func(s string) *string { return &s }
	whens := &zoo2.ArrayOfDateTime{DateTime: []xsd.DateTime{at("2026-01-02T00:00:00"), at("2026-11-22T10:15:30.1234567Z")}}
	isForm := func(b client.Binding) bool { return b == client.HTTPGet || b == client.HTTPPost }

	calls := []struct {
		name string
		call func(s *zoo2.SyncSoapClient) (any, error)
		want func(b client.Binding) any
	}{
		{"EchoIds", func(s *zoo2.SyncSoapClient) (any, error) {
			return s.EchoIdsContext(ctx, &zoo2.EchoIds{Ids: &zoo2.ArrayOfString{Astring: []*string{str("a,b"), str(""), str("ü &<>")}}})
		}, func(client.Binding) any {
			return &zoo2.EchoIdsResponse{EchoIdsResult: &zoo2.ArrayOfString{Astring: []*string{str("a,b"), str(""), str("ü &<>")}}}
		}},
		{"EchoIds null item", func(s *zoo2.SyncSoapClient) (any, error) {
			return s.EchoIdsContext(ctx, &zoo2.EchoIds{Ids: &zoo2.ArrayOfString{Astring: []*string{str("a"), nil}}})
		}, func(b client.Binding) any {
			if isForm(b) {
				return &zoo2.EchoIdsResponse{EchoIdsResult: &zoo2.ArrayOfString{Astring: []*string{str("a"), str("")}}}
			}
			return &zoo2.EchoIdsResponse{EchoIdsResult: &zoo2.ArrayOfString{Astring: []*string{str("a"), nil}}}
		}},
		{"EchoIds null", func(s *zoo2.SyncSoapClient) (any, error) { return s.EchoIdsContext(ctx, &zoo2.EchoIds{}) },
			func(b client.Binding) any {
				if isForm(b) {
					return &zoo2.EchoIdsResponse{EchoIdsResult: &zoo2.ArrayOfString{}}
				}
				return &zoo2.EchoIdsResponse{}
			}},
		{"EchoCounts", func(s *zoo2.SyncSoapClient) (any, error) {
			return s.EchoCountsContext(ctx, &zoo2.EchoCounts{Counts: &zoo2.ArrayOfInt{Int: []int32{math.MinInt32, 0, 7}}})
		}, func(client.Binding) any {
			return &zoo2.EchoCountsResponse{EchoCountsResult: &zoo2.ArrayOfInt{Int: []int32{math.MinInt32, 0, 7}}}
		}},
		{"EchoWhens", func(s *zoo2.SyncSoapClient) (any, error) {
			return s.EchoWhensContext(ctx, &zoo2.EchoWhens{Whens: whens})
		},
			func(client.Binding) any { return &zoo2.EchoWhensResponse{EchoWhensResult: whens} }},
		{"EchoFlag", func(s *zoo2.SyncSoapClient) (any, error) { return s.EchoFlagContext(ctx, &zoo2.EchoFlag{Flag: true}) },
			func(client.Binding) any { return &zoo2.EchoFlagResponse{EchoFlagResult: true} }},
		{"EchoTier", func(s *zoo2.SyncSoapClient) (any, error) {
			return s.EchoTierContext(ctx, &zoo2.EchoTier{Tier: "Silver"})
		},
			func(client.Binding) any { return &zoo2.EchoTierResponse{EchoTierResult: "Silver"} }},
		{"EchoKey", func(s *zoo2.SyncSoapClient) (any, error) {
			return s.EchoKeyContext(ctx, &zoo2.EchoKey{Key: xsd.MustParseGUID("{0f8fad5b-d9cb-469f-a165-70867728950e}")})
		}, func(client.Binding) any {
			return &zoo2.EchoKeyResponse{EchoKeyResult: xsd.MustParseGUID("0f8fad5b-d9cb-469f-a165-70867728950e")}
		}},
	}
	for _, b := range append(client.Bindings, client.JSON) {
		cl := &client.Client{Endpoint: srv.URL + "/contactsync/v1/sync.asmx", Namespace: zoo2Namespace, Binding: b}
		stub := &zoo2.SyncSoapClient{Invoker: cl}
		for _, c := range calls {
			op := wire.Lookup(zoo2.Operations, strings.Fields(c.name)[0])
			if !client.Offers(op, b) || b == client.JSON && strings.HasPrefix(c.name, "EchoWhens") {
				continue // JSON's \/Date(ms)\/ keeps neither the zone nor ticks below a millisecond, by design
			}
			t.Run(string(b)+"/"+c.name, func(t *testing.T) {
				got, err := c.call(stub)
				require.NoError(t, err)
				assert.Equal(t, c.want(b), got)
			})
		}
	}

	// Over HTTP GET and POST the form is what ASMX's own clients send: one value per item.
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		q := url.Values{"counts": {"1", " +2 ", "-0"}}
		req, err := http.NewRequest(method, srv.URL+"/contactsync/v1/sync.asmx/EchoCounts?"+q.Encode(), nil)
		if method == http.MethodPost {
			req, err = http.NewRequest(method, srv.URL+"/contactsync/v1/sync.asmx/EchoCounts", strings.NewReader(q.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		require.NoError(t, err)
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		assert.Equal(t, http.StatusOK, resp.StatusCode, string(body))
		assert.Contains(t, string(body), "><int>1</int><int>2</int><int>0</int></ArrayOfInt>", method)
	}
}
