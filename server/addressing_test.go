package server_test

import (
	"encoding/xml"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/docs"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
)

// newConfiguredServer is newTestServer with the rest of the configuration given.
func newConfiguredServer(t *testing.T, cfg server.Config) *testServer {
	t.Helper()
	st := testsupport.OpenSQLite(t)
	if cfg.BaseURL == "" {
		cfg.BaseURL = wsdl.DefaultBaseURL
	}
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := server.NewHandler(gen.Bind(service.New(st)), cfg)
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, store: st, endpoint: srv.URL + wsdl.Path}
}

// loopbackProxy trusts the test client, which connects from 127.0.0.1, as a proxy.
var loopbackProxy = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// documentAddresses fetches ?WSDL, ?disco and the help pages with headers and returns the addresses
// each carries (every port's, every DISCO reference's, the service page's), and the responses.
func documentAddresses(t *testing.T, ts *testServer, headers map[string]string) (map[string][]string, map[string]*http.Response) {
	t.Helper()
	addresses, responses := map[string][]string{}, map[string]*http.Response{}
	for _, doc := range []string{"?WSDL", "?disco", "", "?op=ReadContact"} {
		req, err := http.NewRequest(http.MethodGet, ts.endpoint+doc, nil)
		require.NoError(t, err)
		for k, v := range headers {
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
		resp, err := ts.Client().Do(req)
		require.NoError(t, err)
		body := testsupport.ReadAll(t, resp)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", doc, body)
		responses[doc] = resp
		switch doc {
		case "?WSDL":
			for _, p := range parseContract(t, body).Ports {
				for _, a := range p.Addresses {
					addresses[doc] = append(addresses[doc], a.Location)
				}
			}
		case "?disco":
			var d discoDoc
			require.NoError(t, xml.Unmarshal([]byte(body), &d), body)
			addresses[doc] = append(addresses[doc], d.ContractRef.DocRef)
			for _, s := range d.SOAP {
				addresses[doc] = append(addresses[doc], s.Address)
			}
		case "":
			// The service page shows the endpoint address; the operation page only its path.
			for _, want := range []string{"https://public.example.com/api" + wsdl.Path, "http://" + strings.TrimPrefix(ts.URL, "http://") + wsdl.Path,
				"https://edge.example.net" + wsdl.Path, "http://client.example.org" + wsdl.Path} {
				if strings.Contains(body, want) {
					addresses[doc] = append(addresses[doc], want)
				}
			}
		}
	}
	return addresses, responses
}

// TestAddresses checks where the documents' addresses come from: the request's Host by default,
// X-Forwarded-Host/Proto only from a trusted proxy, and --public-url over everything, with the
// namespace always --base-url's.
func TestAddresses(t *testing.T) {
	forwarded := map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "edge.example.net"}
	for _, tc := range []struct {
		name    string
		cfg     docs.Addressing
		headers map[string]string
		want    func(ts *testServer) string
	}{
		{"default: the request's host", docs.Addressing{}, nil,
			func(ts *testServer) string { return ts.URL + wsdl.Path }},
		{"default: another Host", docs.Addressing{}, map[string]string{"Host": "client.example.org"},
			func(*testServer) string { return "http://client.example.org" + wsdl.Path }},
		{"default: forwarded headers from an untrusted peer are ignored", docs.Addressing{}, forwarded,
			func(ts *testServer) string { return ts.URL + wsdl.Path }},
		{"trusted proxy: forwarded headers are honoured", docs.Addressing{TrustedProxies: loopbackProxy}, forwarded,
			func(*testServer) string { return "https://edge.example.net" + wsdl.Path }},
		{"another trusted network: ignored", docs.Addressing{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, forwarded,
			func(ts *testServer) string { return ts.URL + wsdl.Path }},
		{"public URL wins over Host and forwarded headers", docs.Addressing{PublicURL: "https://public.example.com/api/", TrustedProxies: loopbackProxy}, forwarded,
			func(*testServer) string { return "https://public.example.com/api" + wsdl.Path }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newConfiguredServer(t, server.Config{BaseURL: "https://ns.example.com", Addressing: tc.cfg})
			want := tc.want(ts)
			addresses, responses := documentAddresses(t, ts, tc.headers)
			for doc, got := range addresses {
				require.NotEmpty(t, got, doc)
				for _, a := range got {
					assert.Equal(t, want, a, doc)
				}
			}
			require.Len(t, addresses, 3, "every document shows the address")
			follows := tc.cfg.PublicURL == ""
			for doc, resp := range responses {
				if follows {
					assert.Equal(t, "private", resp.Header.Get("Cache-Control"), doc)
					assert.Equal(t, "Host, X-Forwarded-Host, X-Forwarded-Proto", resp.Header.Get("Vary"), doc)
				} else {
					assert.Empty(t, resp.Header.Get("Cache-Control"), doc)
					assert.Empty(t, resp.Header.Get("Vary"), doc)
				}
			}
			resp, err := ts.Client().Get(ts.endpoint + "?wsdl")
			require.NoError(t, err)
			assert.Equal(t, "https://ns.example.com/contactsync/v1/", parseContract(t, testsupport.ReadAll(t, resp)).TargetNamespace, "the namespace stays --base-url's")
		})
	}
}

func TestAddressingConfigErrors(t *testing.T) {
	for _, bad := range []string{"example.com", "ftp://example.com", "https://user@example.com", "https://example.com/?q", "https://exa\"mple.com"} {
		_, err := server.NewHandler(gen.Bind(service.New(nil)), server.Config{BaseURL: wsdl.DefaultBaseURL, Addressing: docs.Addressing{PublicURL: bad}})
		assert.Error(t, err, bad)
	}
	got, err := docs.ParseTrustedProxies([]string{"10.0.0.0/8", " 192.168.1.7 ", "::ffff:10.1.2.3", "fd00::/8", ""})
	require.NoError(t, err)
	assert.Equal(t, []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.7/32"),
		netip.MustParsePrefix("10.1.2.3/32"), netip.MustParsePrefix("fd00::/8")}, got)
	for _, bad := range []string{"10.0.0.0/33", "proxy.internal", "10.0.0"} {
		_, err := docs.ParseTrustedProxies([]string{bad})
		assert.Error(t, err, bad)
	}
}

// TestNosniff checks X-Content-Type-Options: nosniff on every kind of response of the server
// NewHTTPServer builds, the one place that sets it: plain-text errors (which quote the request's path or
// content type), faults, results, documents, and responses of handlers around the endpoint.
func TestNosniff(t *testing.T) {
	ts := newRealServer(t, server.Limits{})
	for _, r := range []wireRequest{
		{method: "GET", path: "/../nothing<script>"},
		{method: "POST", contentType: "text/html", body: "<b>"},
		{method: "DELETE"},
		{method: "GET", path: "?WSDL"},
		{method: "GET", path: ""},
		requestFor("soap11", ns, "ReadContact", "missing", true),
		requestFor("get", ns, "VersionMajor", "", false),
	} {
		resp, _ := ts.do(t, r)
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), "%s %s", r.method, r.path)
	}
	unknown, err := ts.Client().Get(ts.URL + "/elsewhere")
	require.NoError(t, err)
	_ = testsupport.ReadAll(t, unknown)
	assert.Equal(t, "nosniff", unknown.Header.Get("X-Content-Type-Options"))

	srv := server.NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }), server.Limits{}, nil)
	rec := httptest.NewRecorder()
	srv.Handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
}

// discoDoc is the DISCO document as ?disco serves it.
type discoDoc struct {
	XMLName     xml.Name `xml:"http://schemas.xmlsoap.org/disco/ discovery"`
	ContractRef struct {
		Ref    string `xml:"ref,attr"`
		DocRef string `xml:"docRef,attr"`
	} `xml:"http://schemas.xmlsoap.org/disco/scl/ contractRef"`
	SOAP []struct {
		Address string `xml:"address,attr"`
		Binding string `xml:"binding,attr"`
	} `xml:"http://schemas.xmlsoap.org/disco/soap/ soap"`
}
