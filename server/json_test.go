package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
)

// newTestServerWith is newTestServer with the protocols given (binding.ProtocolNames).
func newTestServerWith(t *testing.T, protocols ...string) *testServer {
	t.Helper()
	st := testsupport.OpenSQLite(t)
	h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{
		BaseURL:   wsdl.DefaultBaseURL,
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Protocols: protocols,
	})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, store: st, endpoint: srv.URL + wsdl.Path}
}

var allProtocols = []string{"soap11", "soap12", "get", "post", "json", "docs"}

func jsonRequest(op, body string) wireRequest {
	return wireRequest{method: "POST", path: "/" + op, contentType: "application/json; charset=utf-8", body: body}
}

// TestGoldenJSON sends each operation to the JSON endpoint and compares the exact response with
// testdata/json/<Op>.response.json: {"d": …}, the contact's fields in schema order, RoleIds an array.
func TestGoldenJSON(t *testing.T) {
	const id = "golden-1"
	for _, g := range goldenOperations {
		t.Run(g.op, func(t *testing.T) {
			ts := newTestServerWith(t, allProtocols...)
			if g.needsStored {
				require.NoError(t, ts.store.Put(context.Background(), service.TestRecord(id)))
			}
			body := "{}"
			if g.hasID {
				body = `{"id":"` + id + `"}`
			}
			resp, got := ts.do(t, jsonRequest(g.op, body))
			assert.Equal(t, 200, resp.StatusCode, got)
			assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))
			golden(t, filepath.Join("testdata", "json", g.op+".request.json"), body)
			golden(t, filepath.Join("testdata", "json", g.op+".response.json"), got)
		})
	}
}

// jsonError is ASP.NET AJAX's error object.
type jsonError struct {
	Message       string
	StackTrace    *string
	ExceptionType string
}

func TestJSONEndpointErrors(t *testing.T) {
	ts := newTestServerWith(t, allProtocols...)
	deep := strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)
	for _, tt := range []struct {
		name   string
		req    wireRequest
		status int
		code   string
		msg    string
	}{
		{"unknown id", jsonRequest("ReadContact", `{"id":"nobody"}`), 500, "NotFound", `Contact "nobody" does not exist.`},
		{"missing parameter", jsonRequest("ReadContact", `{}`), 500, "InvalidArgument", "missing value for parameter: 'id'"},
		{"empty body", jsonRequest("ReadContact", ``), 500, "InvalidArgument", "missing value for parameter: 'id'"},
		{"unknown parameter", jsonRequest("ReadContact", `{"id":"a","name":"b"}`), 500, "InvalidArgument", "no parameter 'name'"},
		{"parameter of a parameterless operation", jsonRequest("VersionMajor", `{"x":1}`), 500, "InvalidArgument", "no parameter 'x'"},
		{"wrong type", jsonRequest("ReadContact", `{"id":5}`), 500, "InvalidArgument", "must be a string, not a number"},
		{"object for a string", jsonRequest("ReadContact", `{"id":{"a":1}}`), 500, "InvalidArgument", "not an object"},
		{"duplicate key", jsonRequest("ReadContact", `{"id":"a","id":"b"}`), 400, "MalformedRequest", "more than once"},
		{"bad JSON", jsonRequest("ReadContact", `{"id":`), 400, "MalformedRequest", "ended before"},
		{"not JSON", jsonRequest("ReadContact", `id=1`), 400, "MalformedRequest", "not valid JSON"},
		{"array body", jsonRequest("ReadContact", `["a"]`), 400, "MalformedRequest", "must be a JSON object"},
		{"string body", jsonRequest("ReadContact", `"a"`), 400, "MalformedRequest", "must be a JSON object"},
		{"trailing content", jsonRequest("ReadContact", `{"id":"a"} {}`), 400, "MalformedRequest", "after the JSON object"},
		// The contract's parameters are strings, so a nested value is refused by its type at once,
		// before it is read; wire's TestJSONDepthLimit covers the depth limit where values nest.
		{"nested value", jsonRequest("ReadContact", `{"id":`+deep+`}`), 500, "InvalidArgument", "not an object"},
		{"unknown operation", jsonRequest("Nope", `{}`), 404, "UnknownOperation", `"Nope" does not exist`},
		{"charset", wireRequest{method: "POST", path: "/ReadContact", contentType: "application/json; charset=iso-8859-1", body: `{"id":"a"}`}, 415, "UnsupportedMediaType", "only UTF-8"},
		{"GET", wireRequest{method: "GET", path: "/ReadContact?id=a", contentType: "application/json"}, 405, "MethodNotAllowed", "call it with POST"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := ts.do(t, tt.req)
			assert.Equal(t, tt.status, resp.StatusCode, body)
			assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))
			assert.Equal(t, "true", resp.Header.Get("jsonerror"))
			var e jsonError
			require.NoError(t, json.Unmarshal([]byte(body), &e), body)
			assert.Equal(t, tt.code, e.ExceptionType)
			assert.Contains(t, e.Message, tt.msg)
			require.NotNil(t, e.StackTrace, "StackTrace is present, as ASP.NET AJAX clients expect")
			assert.Empty(t, *e.StackTrace, "never a stack trace")
		})
	}
}

func TestJSONEndpointOffByDefault(t *testing.T) {
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	resp, body := ts.do(t, jsonRequest("VersionMajor", `{}`))
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode, body)
	assert.Empty(t, resp.Header.Get("jsonerror"), "with json off, the answer is not the JSON endpoint's")
	// It used to be the HTTP POST binding's "requires application/x-www-form-urlencoded", which said
	// nothing of the JSON endpoint being off or how to turn it on.
	assert.Contains(t, body, "The JSON endpoint is not enabled on this service: it answers application/json requests only when serve's --protocols lists json.")
}

func TestProtocolSwitches(t *testing.T) {
	soap := func(version12 bool, op string) wireRequest {
		return requestFor(map[bool]string{false: "soap11", true: "soap12"}[version12], wsdl.DefaultNamespace, op, "", false)
	}
	for _, tt := range []struct {
		off    string
		req    wireRequest
		status int
	}{
		{"soap11", soap(false, "VersionMajor"), http.StatusUnsupportedMediaType},
		{"soap12", soap(true, "VersionMajor"), http.StatusUnsupportedMediaType},
		{"get", wireRequest{method: "GET", path: "/VersionMajor"}, http.StatusNotFound},
		{"post", wireRequest{method: "POST", path: "/VersionMajor", contentType: "application/x-www-form-urlencoded"}, http.StatusNotFound},
		{"json", jsonRequest("VersionMajor", `{}`), http.StatusUnsupportedMediaType},
		{"docs", wireRequest{method: "GET", path: "?WSDL"}, http.StatusNotFound},
	} {
		t.Run("without "+tt.off, func(t *testing.T) {
			var on []string
			for _, p := range allProtocols {
				if p != tt.off {
					on = append(on, p)
				}
			}
			ts := newTestServerWith(t, on...)
			resp, body := ts.do(t, tt.req)
			assert.Equal(t, tt.status, resp.StatusCode, body)
			assert.NotContains(t, body, "<VersionMajorResult>", "never a partial answer")
			// Every other protocol still answers.
			for _, other := range []struct {
				name string
				req  wireRequest
			}{{"soap11", soap(false, "VersionMajor")}, {"soap12", soap(true, "VersionMajor")},
				{"get", wireRequest{method: "GET", path: "/VersionMajor"}}, {"json", jsonRequest("VersionMajor", `{}`)}} {
				if other.name == tt.off {
					continue
				}
				resp, body := ts.do(t, other.req)
				assert.Equal(t, 200, resp.StatusCode, "%s: %s", other.name, body)
			}
			if tt.off == "docs" {
				return
			}
			_, wsdlDoc := ts.do(t, wireRequest{method: "GET", path: "?WSDL"})
			_, disco := ts.do(t, wireRequest{method: "GET", path: "?disco"})
			_, page := ts.do(t, wireRequest{method: "GET", path: "?op=ReadContact"})
			binding := map[string]string{"soap11": `binding name="SyncServiceSoap"`, "soap12": `binding name="SyncServiceSoap12"`,
				"get": `binding name="SyncServiceHttpGet"`, "post": `binding name="SyncServiceHttpPost"`}
			heading := map[string]string{"soap11": `id="soap11"`, "soap12": `id="soap12"`, "get": `id="get"`, "post": `id="post"`, "json": `id="json"`}
			for p, b := range binding {
				if p == tt.off {
					assert.NotContains(t, wsdlDoc, b, "the WSDL leaves %s out", p)
				} else {
					assert.Contains(t, wsdlDoc, b)
				}
			}
			for p, h := range heading {
				assert.Equal(t, p != tt.off, strings.Contains(page, h), "the help page's %s sample", p)
			}
			assert.Equal(t, tt.off != "soap11", strings.Contains(disco, `binding="q1:SyncServiceSoap"`), "DISCO lists SOAP 1.1 only when on")
		})
	}
}

func TestProtocolsConfigRefused(t *testing.T) {
	for _, p := range [][]string{{}, {"soap11", ""}, {"soap13"}, {"SOAP11"}} {
		_, err := server.NewHandler(gen.Bind(service.New(nil)), server.Config{BaseURL: wsdl.DefaultBaseURL, Protocols: p})
		assert.Error(t, err, "%q", p)
	}
}

// TestHelpFormProtocol: the test form uses HTTP POST, else HTTP GET, else JSON, and says so when none
// is enabled.
func TestHelpFormProtocol(t *testing.T) {
	for _, tt := range []struct {
		protocols []string
		want      string
	}{
		{[]string{"soap11", "get", "post", "json", "docs"}, `method="post" data-binding="post"`},
		{[]string{"soap11", "get", "json", "docs"}, `method="get" data-binding="get"`},
		{[]string{"soap11", "json", "docs"}, `method="post" data-binding="json"`},
		{[]string{"soap11", "docs"}, "The test form is not available"},
	} {
		ts := newTestServerWith(t, tt.protocols...)
		_, page := ts.do(t, wireRequest{method: "GET", path: "?op=ReadContact"})
		assert.Contains(t, page, tt.want, "%v", tt.protocols)
	}
}

// TestJSONObserved: the metrics and the access log label JSON endpoint requests with binding json.
func TestJSONObserved(t *testing.T) {
	reg := observe.NewRegistry()
	logs := &testsupport.SyncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	h, err := server.NewHandler(gen.Bind(service.New(testsupport.OpenSQLite(t))), server.Config{BaseURL: wsdl.DefaultBaseURL, Logger: logger, Protocols: allProtocols})
	require.NoError(t, err)
	srv := httptest.NewServer(observe.Middleware(h, observe.Config{Metrics: observe.NewMetrics(reg, h.MetricLabels()), Logger: logger, AccessLog: true}))
	t.Cleanup(srv.Close)
	ts := &testServer{Server: srv, endpoint: srv.URL + wsdl.Path}
	resp, body := ts.do(t, jsonRequest("ReadContact", `{"id":"nobody"}`))
	require.Equal(t, 500, resp.StatusCode, body)
	resp, body = ts.do(t, jsonRequest("VersionMajor", `{}`))
	require.Equal(t, 200, resp.StatusCode, body)
	assert.Equal(t, map[string]float64{"json/ReadContact/NotFound": 1, "json/VersionMajor/ok": 1}, testsupport.MetricSamples(t, reg, "contactsync_requests_total"))
	lines := testsupport.AccessLines(t, logs.String())
	require.Len(t, lines, 2)
	assert.Equal(t, "json", lines[0]["binding"])
	assert.Equal(t, "NotFound", lines[0]["outcome"])
}

// TestHelpPageNamesTheProtocols: with JSON on, the service page still said "over SOAP 1.1, SOAP 1.2,
// HTTP GET and HTTP POST"; it now names the protocols actually served.
func TestHelpPageNamesTheProtocols(t *testing.T) {
	for _, tc := range []struct {
		protocols []string
		want      string
	}{
		{allProtocols, "over SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST and JSON."},
		{[]string{"soap11", "soap12", "get", "post", "docs"}, "over SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST."},
		{[]string{"soap12", "json", "docs"}, "over SOAP 1.2 and JSON."},
		{[]string{"soap11", "docs"}, "over SOAP 1.1."},
	} {
		ts := newTestServerWith(t, tc.protocols...)
		resp, body := ts.do(t, wireRequest{method: "GET"})
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, body, "The service supports the following operations, "+tc.want, "%v", tc.protocols)
	}
}
