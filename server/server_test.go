package server_test

import (
	"flag"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/wsdl"
)

var update = flag.Bool("update", false, "rewrite the golden response files under testdata/")

// testServer is the real handler over a real SQLite store on a temporary file.
type testServer struct {
	*httptest.Server
	store    store.Store
	endpoint string
}

func newTestServer(t *testing.T, baseURL string) *testServer {
	t.Helper()
	st := testsupport.OpenSQLite(t)
	h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{
		BaseURL: baseURL,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, store: st, endpoint: srv.URL + wsdl.Path}
}

// wireRequest is one HTTP request of a binding, as the golden request files describe it.
type wireRequest struct {
	method      string
	path        string // endpoint-relative: "" or "/Op?query"
	contentType string
	soapAction  string // SOAP 1.1 only; empty means no header
	body        string
}

func (ts *testServer) do(t *testing.T, r wireRequest) (*http.Response, string) {
	t.Helper()
	return ts.doWith(t, r, "")
}

// doWith sends r with an optional Authorization header.
func (ts *testServer) doWith(t *testing.T, r wireRequest, authorization string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(r.method, ts.endpoint+r.path, strings.NewReader(r.body))
	require.NoError(t, err)
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.soapAction != "" {
		req.Header.Set("SOAPAction", r.soapAction)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

// soapEnvelope is a request envelope as a .NET client writes it (indented, xsi/xsd declared).
func soapEnvelope(version12 bool, ns, op, inner string) string {
	envNS, p := "http://schemas.xmlsoap.org/soap/envelope/", "soap"
	if version12 {
		envNS, p = "http://www.w3.org/2003/05/soap-envelope", "soap12"
	}
	return `<?xml version="1.0" encoding="utf-8"?>
<` + p + `:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:` + p + `="` + envNS + `">
  <` + p + `:Body>
    <` + op + ` xmlns="` + ns + `">` + inner + `</` + op + `>
  </` + p + `:Body>
</` + p + `:Envelope>
`
}

// requestFor builds the request of binding for operation op with argument id (ignored when the
// operation takes none).
func requestFor(binding, ns, op, id string, hasID bool) wireRequest {
	inner, query := "", ""
	if hasID {
		// html.EscapeString's references (&lt; &gt; &amp; &#39; &#34;) are XML's too.
		inner = "<id>" + html.EscapeString(id) + "</id>"
		query = "id=" + url.QueryEscape(id)
	}
	switch binding {
	case "soap11":
		return wireRequest{method: "POST", contentType: "text/xml; charset=utf-8", soapAction: `"` + ns + op + `"`,
			body: soapEnvelope(false, ns, op, inner)}
	case "soap12":
		return wireRequest{method: "POST", contentType: `application/soap+xml; charset=utf-8; action="` + ns + op + `"`,
			body: soapEnvelope(true, ns, op, inner)}
	case "get":
		path := "/" + op
		if query != "" {
			path += "?" + query
		}
		return wireRequest{method: "GET", path: path}
	default:
		return wireRequest{method: "POST", path: "/" + op, contentType: "application/x-www-form-urlencoded", body: query}
	}
}

var bindings = []string{"soap11", "soap12", "get", "post"}

// contentTypeOf is the success content type of each binding (spec §4).
var contentTypeOf = map[string]string{
	"soap11": "text/xml; charset=utf-8",
	"soap12": "application/soap+xml; charset=utf-8",
	"get":    "text/xml; charset=utf-8",
	"post":   "text/xml; charset=utf-8",
}

// golden compares got with the file, or rewrites the file under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./server -update")
	require.Equal(t, string(want), got, "response differs from %s; if the change is intended, run go test ./server -update", path)
}

// assertAnswer checks a response's status, content type and that the body holds each of contains; a
// 405 must also say what is allowed.
func assertAnswer(t *testing.T, resp *http.Response, body string, status int, contentType string, contains []string) {
	t.Helper()
	assert.Equal(t, status, resp.StatusCode, body)
	assert.Equal(t, contentType, resp.Header.Get("Content-Type"))
	for _, s := range contains {
		assert.Contains(t, body, s)
	}
	if status == http.StatusMethodNotAllowed {
		assert.NotEmpty(t, resp.Header.Get("Allow"))
	}
}

// TestResponsesDeclareTheirLength: every answer travels with a Content-Length, never chunked, over a
// real connection and on HTTP/1.1 and HTTP/2: small bodies get theirs from net/http (which computes it
// for a handler that wrote a few KB at most and returned), larger ones (the WSDL) from the handler.
func TestResponsesDeclareTheirLength(t *testing.T) {
	for _, http2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "HTTP/1.1", true: "HTTP/2"}[http2], func(t *testing.T) {
			st := testsupport.OpenSQLite(t)
			h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{BaseURL: wsdl.DefaultBaseURL,
				Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			require.NoError(t, err)
			srv := httptest.NewUnstartedServer(h)
			if http2 {
				srv.EnableHTTP2 = true
				srv.StartTLS()
			} else {
				srv.Start()
			}
			t.Cleanup(srv.Close)
			ts := &testServer{Server: srv, store: st, endpoint: srv.URL + wsdl.Path}
			client := ts.Client()
			ns := wsdl.DefaultNamespace
			for _, r := range []wireRequest{
				requestFor("soap11", ns, "TestCreateContact", "len-1", true),
				requestFor("get", ns, "ReadContact", "len-1", true),
				requestFor("get", ns, "ReadContact", "missing", true),
				{method: "GET", path: "?WSDL"},
				{method: "GET", path: "?disco"},
				{method: "HEAD", path: "?WSDL"},
			} {
				req, err := http.NewRequest(r.method, ts.endpoint+r.path, strings.NewReader(r.body))
				require.NoError(t, err)
				if r.soapAction != "" {
					req.Header.Set("SOAPAction", r.soapAction)
				}
				if r.contentType != "" {
					req.Header.Set("Content-Type", r.contentType)
				}
				resp, err := client.Do(req)
				require.NoError(t, err)
				body, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				_ = resp.Body.Close()
				assert.Empty(t, resp.TransferEncoding, "%s %s: not chunked", r.method, r.path)
				if r.method != "HEAD" {
					assert.EqualValues(t, len(body), resp.ContentLength, "%s %s", r.method, r.path)
				} else {
					assert.Positive(t, resp.ContentLength, "HEAD %s", r.path)
				}
				if http2 {
					assert.Equal(t, 2, resp.ProtoMajor)
				}
			}
		})
	}
}
