package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/instrumented"
	"github.com/contactsync/contactsync/wsdl"
)

// observedServer is the handler as serve wires it: over a measured store, wrapped by Observe, with
// the operational endpoints (and /metrics) in front; the access log is JSON into logs.
type observedServer struct {
	*testServer
	reg  *prometheus.Registry
	logs *testsupport.SyncBuffer
}

func newObservedServer(t *testing.T, st store.Store, limits server.Limits) *observedServer {
	t.Helper()
	reg := observe.NewRegistry()
	measured := instrumented.New(st, instrumented.NewMetrics(reg))
	logs := &testsupport.SyncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	h, err := server.NewHandler(gen.Bind(service.New(measured)), server.Config{BaseURL: wsdl.DefaultBaseURL, Limits: limits, Logger: logger})
	require.NoError(t, err)
	observed := observe.Middleware(h, observe.Config{Metrics: observe.NewMetrics(reg, h.MetricLabels()), Logger: logger, AccessLog: true})
	ops := observe.NewOps(observe.OpsConfig{Store: measured, ReadyTimeout: 200 * time.Millisecond, Metrics: promhttp.HandlerFor(reg, promhttp.HandlerOpts{})})
	srv := httptest.NewServer(observe.WithOps(ops, observed))
	t.Cleanup(srv.Close)
	return &observedServer{testServer: &testServer{Server: srv, store: measured, endpoint: srv.URL + wsdl.Path}, reg: reg, logs: logs}
}

// blockingStore holds Get of the id "block" until release is closed, telling entered when it starts.
type blockingStore struct {
	store.Store
	entered chan struct{}
	release chan struct{}
}

func (s *blockingStore) Get(ctx context.Context, id string) (store.Record, error) {
	if id == "block" {
		s.entered <- struct{}{}
		<-s.release
		return service.TestRecord(id), nil
	}
	return s.Store.Get(ctx, id)
}

// TestMetricsCountEveryOutcome sends a scripted set of requests over all four bindings (successes,
// faults, errors before any binding, a shed request) and checks every counter to the exact value, the
// latency histograms, the in-flight gauge and the store metrics.
func TestMetricsCountEveryOutcome(t *testing.T) {
	bs := &blockingStore{Store: testsupport.OpenSQLite(t), entered: make(chan struct{}, 1), release: make(chan struct{})}
	ts := newObservedServer(t, bs, server.Limits{Admission: admission.Limits{MaxConcurrent: 1}})

	for _, b := range bindings {
		for _, step := range []struct {
			op, id string
			status int
		}{
			{"TestCreateContact", "m-" + b, 200},
			{"ReadContact", "m-" + b, 200},
			{"VersionMajor", "", 200},
		} {
			resp, body := ts.do(t, requestFor(b, ns, step.op, step.id, step.id != ""))
			require.Equal(t, step.status, resp.StatusCode, "%s %s: %s", b, step.op, body)
		}
		resp, _ := ts.do(t, requestFor(b, ns, "ReadContact", "missing", true))
		require.Contains(t, []int{404, 500}, resp.StatusCode, b)
	}
	for _, r := range []struct {
		name   string
		req    wireRequest
		status int
	}{
		{"unknown SOAP action", requestFor("soap11", ns, "Nope", "", false), 500},
		{"GET without id", wireRequest{method: "GET", path: "/ReadContact"}, 400},
		{"unknown media type", wireRequest{method: "POST", contentType: "application/json", body: "{}"}, 415},
		{"unknown method", wireRequest{method: "DELETE"}, 405},
		{"WSDL", wireRequest{method: "GET", path: "?WSDL"}, 200},
	} {
		resp, body := ts.do(t, r.req)
		require.Equal(t, r.status, resp.StatusCode, "%s: %s", r.name, body)
	}
	resp, err := ts.Client().Get(ts.URL + "/nowhere")
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, 404, resp.StatusCode)

	// One request holds the only slot; the next is decoded (and authenticated) before it waits for a
	// slot, so it is counted under its operation when it is shed.
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, _ := ts.do(t, requestFor("get", ns, "ReadContact", "block", true))
		assert.Equal(t, 200, resp.StatusCode)
	}()
	<-bs.entered
	resp, _ = ts.do(t, requestFor("post", ns, "ReadContact", "x", true))
	require.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, map[string]float64{"": 1}, testsupport.MetricSamples(t, ts.reg, "contactsync_requests_in_flight"), "the blocked request is in flight")
	close(bs.release)
	<-done

	// The operational endpoints are neither counted nor logged.
	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		resp, err := ts.Client().Get(ts.URL + path)
		require.NoError(t, err)
		_ = resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode, path)
	}

	assert.Equal(t, map[string]float64{
		"get/ReadContact/ok":                2,
		"get/ReadContact/NotFound":          1,
		"get/TestCreateContact/ok":          1,
		"get/VersionMajor/ok":               1,
		"get/ReadContact/InvalidArgument":   1, // the path names the operation: its missing id is counted under it
		"none/unknown/MethodNotAllowed":     1,
		"none/unknown/UnknownOperation":     1,
		"none/unknown/UnsupportedMediaType": 1,
		"none/unknown/ok":                   1,
		"post/ReadContact/ok":               1,
		"post/ReadContact/NotFound":         1,
		"post/TestCreateContact/ok":         1,
		"post/VersionMajor/ok":              1,
		"post/ReadContact/Unavailable":      1,
		"soap11/ReadContact/ok":             1,
		"soap11/ReadContact/NotFound":       1,
		"soap11/TestCreateContact/ok":       1,
		"soap11/VersionMajor/ok":            1,
		"soap11/unknown/UnknownOperation":   1,
		"soap12/ReadContact/ok":             1,
		"soap12/ReadContact/NotFound":       1,
		"soap12/TestCreateContact/ok":       1,
		"soap12/VersionMajor/ok":            1,
	}, testsupport.MetricSamples(t, ts.reg, "contactsync_requests_total"))

	assert.Equal(t, map[string]float64{
		"get/ReadContact": 4, "get/TestCreateContact": 1, "get/VersionMajor": 1,
		"none/unknown":     4,
		"post/ReadContact": 3, "post/TestCreateContact": 1, "post/VersionMajor": 1,
		"soap11/ReadContact": 2, "soap11/TestCreateContact": 1, "soap11/VersionMajor": 1, "soap11/unknown": 1,
		"soap12/ReadContact": 2, "soap12/TestCreateContact": 1, "soap12/VersionMajor": 1,
	}, testsupport.MetricSamples(t, ts.reg, "contactsync_request_duration_seconds"))
	assert.Equal(t, map[string]float64{"": 0}, testsupport.MetricSamples(t, ts.reg, "contactsync_requests_in_flight"))

	// Store: four reads that found a contact and the blocked one, four that did not (not errors), four
	// puts and the one ping of /readyz.
	assert.Equal(t, map[string]float64{"get": 9, "put": 4, "update": 0, "delete": 0, "ping": 1, "list_by_index": 0},
		testsupport.MetricSamples(t, ts.reg, "contactsync_store_duration_seconds"))
	for key, v := range testsupport.MetricSamples(t, ts.reg, "contactsync_store_errors_total") {
		assert.Zero(t, v, "store errors %s: a contact not found is not a store error", key)
	}

	// The histograms carry real durations in their buckets, not just counts.
	families, err := ts.reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() == "contactsync_request_duration_seconds" {
			for _, m := range f.GetMetric() {
				assert.Positive(t, m.GetHistogram().GetSampleSum(), testsupport.LabelKey(m))
			}
		}
	}
}

// pingStore is a store whose Ping the test decides; every other method fails the test.
type pingStore struct {
	store.Store // nil: any other call panics
	ping        func(ctx context.Context) error
}

func (s *pingStore) Ping(ctx context.Context) error { return s.ping(ctx) }

// TestUnavailableStoreReachesRequestMetrics checks a request that fails on an unavailable store is
// counted with outcome Unavailable and a store error of kind unavailable.
func TestUnavailableStoreReachesRequestMetrics(t *testing.T) {
	ts := newObservedServer(t, &fakeStore{get: func(context.Context, string) (store.Record, error) {
		return store.Record{}, errors.Join(store.ErrUnavailable, errors.New("connection refused"))
	}}, server.Limits{})
	resp, _ := ts.do(t, requestFor("soap12", ns, "ReadContact", "x", true))
	require.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, map[string]float64{"soap12/ReadContact/Unavailable": 1}, testsupport.MetricSamples(t, ts.reg, "contactsync_requests_total"))
	assert.Equal(t, 1.0, testsupport.MetricSamples(t, ts.reg, "contactsync_store_errors_total")["unavailable/get"])
}

// TestHealthEndpoints checks /healthz answers without the store, /readyz follows the store's Ping
// (failing with a one-line reason), both accept only GET and HEAD, and none needs the SOAP path.
// TestClientGoneIsNotUnavailable hangs up while the store call is running: the abandoned call ends
// with the context's error, which the service answers as Unavailable, but nobody receives that answer,
// so the metrics and the access log count it as ClientGone rather than as a store failure.
func TestClientGoneIsNotUnavailable(t *testing.T) {
	entered := make(chan struct{})
	ts := newObservedServer(t, &fakeStore{get: func(ctx context.Context, _ string) (store.Record, error) {
		close(entered)
		<-ctx.Done()
		return store.Record{}, ctx.Err()
	}}, server.Limits{})
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, "GET", ts.endpoint+"/ReadContact?id=x", nil)
	require.NoError(t, err)
	go func() { <-entered; cancel() }()
	_, err = http.DefaultClient.Do(req)
	require.ErrorIs(t, err, context.Canceled)

	require.Eventually(t, func() bool { return len(testsupport.AccessLines(t, ts.logs.String())) == 1 }, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, "ClientGone", testsupport.AccessLines(t, ts.logs.String())[0]["outcome"])
	assert.Equal(t, map[string]float64{"get/ReadContact/ClientGone": 1}, testsupport.MetricSamples(t, ts.reg, "contactsync_requests_total"))
}

func TestHealthEndpoints(t *testing.T) {
	var mu sync.Mutex
	var pingErr error
	var pings int
	st := &pingStore{ping: func(ctx context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		pings++
		if errors.Is(pingErr, context.DeadlineExceeded) {
			<-ctx.Done() // a store that hangs: the ready timeout must end the wait
			return ctx.Err()
		}
		return pingErr
	}}
	ts := newObservedServer(t, st, server.Limits{})
	setPing := func(err error) { mu.Lock(); pingErr = err; mu.Unlock() }
	get := func(method, path string) (*http.Response, string) {
		req, err := http.NewRequest(method, ts.URL+path, nil)
		require.NoError(t, err)
		resp, err := ts.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, string(body)
	}

	cases := []struct {
		name    string
		ping    error
		method  string
		path    string
		status  int
		body    string
		touches bool // whether the store is pinged
	}{
		{"alive", nil, "GET", "/healthz", 200, "ok\n", false},
		{"alive while the store is down", store.ErrUnavailable, "GET", "/healthz", 200, "ok\n", false},
		{"alive HEAD", nil, "HEAD", "/healthz", 200, "", false},
		{"ready", nil, "GET", "/readyz", 200, "ok\n", true},
		{"ready HEAD", nil, "HEAD", "/readyz", 200, "", true},
		{"store unavailable", errors.Join(store.ErrUnavailable, errors.New("dial tcp 10.0.0.1:5432: connection refused")), "GET", "/readyz", 503, "not ready: store unavailable\n", true},
		{"store hangs", context.DeadlineExceeded, "GET", "/readyz", 503, "not ready: store did not answer within 200ms\n", true},
		{"store fails otherwise", errors.New("sql: database is closed"), "GET", "/readyz", 503, "not ready: store failed\n", true},
		{"POST healthz", nil, "POST", "/healthz", 405, "method not allowed; use GET or HEAD\n", false},
		{"PUT readyz", nil, "PUT", "/readyz", 405, "method not allowed; use GET or HEAD\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			setPing(tc.ping)
			mu.Lock()
			before := pings
			mu.Unlock()
			resp, body := get(tc.method, tc.path)
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, tc.body, body)
			assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
			if tc.status == 405 {
				assert.Equal(t, "GET, HEAD", resp.Header.Get("Allow"))
			}
			mu.Lock()
			assert.Equal(t, tc.touches, pings > before, "store pinged")
			mu.Unlock()
		})
	}
	assert.Empty(t, ts.logs.String(), "health checks are not access-logged")
}

var generatedID = regexp.MustCompile(`^[0-9a-f]{12}-[0-9]+$`)

// TestAccessLogLine checks one JSON line per request with every field, for a success and a fault.
func TestAccessLogLine(t *testing.T) {
	ts := newObservedServer(t, testsupport.OpenSQLite(t), server.Limits{})
	req := requestFor("soap11", ns, "TestCreateContact", "log-1", true)
	req.path = "?secret=no"
	resp, body := ts.do(t, req)
	require.Equal(t, 200, resp.StatusCode, body)
	resp, _ = ts.do(t, requestFor("get", ns, "ReadContact", "missing", true))
	require.Equal(t, 404, resp.StatusCode)
	// A parameter error on /sync.asmx/Op is logged under Op, which the path names.
	resp, _ = ts.do(t, wireRequest{method: "POST", path: "/ReadContact", contentType: "application/x-www-form-urlencoded", body: "id=a&ID=b"})
	require.Equal(t, 400, resp.StatusCode)

	lines := testsupport.AccessLines(t, ts.logs.String())
	require.Len(t, lines, 3)
	fields := []string{"time", "level", "msg", "request_id", "method", "path", "binding", "operation", "status", "outcome", "duration", "bytes", "remote"}
	for _, l := range lines {
		for _, f := range fields {
			assert.Contains(t, l, f)
		}
		assert.Len(t, l, len(fields), "no unexpected field: %v", l)
		assert.Equal(t, "INFO", l["level"])
		assert.Regexp(t, generatedID, l["request_id"])
		assert.Regexp(t, `^127\.0\.0\.1:[0-9]+$`, l["remote"])
		assert.Positive(t, l["duration"], "nanoseconds")
	}
	assert.Equal(t, "POST", lines[0]["method"])
	assert.Equal(t, wsdl.Path, lines[0]["path"], "the query string is not logged")
	assert.Equal(t, "soap11", lines[0]["binding"])
	assert.Equal(t, "TestCreateContact", lines[0]["operation"])
	assert.Equal(t, 200.0, lines[0]["status"])
	assert.Equal(t, "ok", lines[0]["outcome"])
	assert.Equal(t, float64(len(body)), lines[0]["bytes"])

	assert.Equal(t, "GET", lines[1]["method"])
	assert.Equal(t, wsdl.Path+"/ReadContact", lines[1]["path"])
	assert.Equal(t, "get", lines[1]["binding"])
	assert.Equal(t, "ReadContact", lines[1]["operation"])
	assert.Equal(t, 404.0, lines[1]["status"])
	assert.Equal(t, "NotFound", lines[1]["outcome"])
	assert.NotEqual(t, lines[0]["request_id"], lines[1]["request_id"])

	assert.Equal(t, "post", lines[2]["binding"])
	assert.Equal(t, "ReadContact", lines[2]["operation"])
	assert.Equal(t, "InvalidArgument", lines[2]["outcome"])
}

// TestRequestID checks X-Request-ID is echoed when sane and replaced when not, with the access line
// carrying the id the response did. Insane values (CR/LF, too long) cannot travel through Go's HTTP
// client, so the handler is called directly.
func TestRequestID(t *testing.T) {
	logs := &testsupport.SyncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	h, err := server.NewHandler(gen.Bind(service.New(testsupport.OpenSQLite(t))), server.Config{BaseURL: wsdl.DefaultBaseURL, Logger: logger})
	require.NoError(t, err)
	observed := observe.Middleware(h, observe.Config{Logger: logger, AccessLog: true})

	long128 := strings.Repeat("a", 128)
	cases := []struct {
		name, sent string
		kept       bool
	}{
		{"uuid", "0f8fad5b-d9cb-469f-a165-70867728950e", true},
		{"128 bytes", long128, true},
		{"punctuation", "trace=abc;span:1/2", true},
		{"absent", "", false},
		{"129 bytes", long128 + "a", false},
		{"CR LF", "abc\r\nfake=line", false},
		{"LF", "abc\nx", false},
		{"space", "a b", false},
		{"NUL", "a\x00b", false},
		{"non-ASCII", "idé", false},
		{"DEL", "a\x7f", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(testsupport.AccessLines(t, logs.String()))
			r := httptest.NewRequest("GET", wsdl.Path+"/VersionMajor", nil)
			if tc.sent != "" {
				r.Header["X-Request-Id"] = []string{tc.sent}
			}
			rec := httptest.NewRecorder()
			observed.ServeHTTP(rec, r)
			require.Equal(t, 200, rec.Code)
			got := rec.Header().Get(observe.RequestIDHeader)
			if tc.kept {
				assert.Equal(t, tc.sent, got)
			} else {
				assert.Regexp(t, generatedID, got)
			}
			lines := testsupport.AccessLines(t, logs.String())
			require.Len(t, lines, before+1)
			assert.Equal(t, got, lines[before]["request_id"])
		})
	}
	assert.NotContains(t, logs.String(), "fake=line")
}

// TestInternalErrorLogCarriesRequestID checks the log line of an internal error names the request id
// the caller got back, so a support ticket quoting it finds the cause.
func TestInternalErrorLogCarriesRequestID(t *testing.T) {
	ts := newObservedServer(t, &fakeStore{get: func(context.Context, string) (store.Record, error) {
		return store.Record{}, errors.New("disk on fire")
	}}, server.Limits{})
	for _, b := range bindings {
		req, err := http.NewRequest("GET", ts.endpoint+"/ReadContact?id=x", nil)
		require.NoError(t, err)
		if b != "get" { // one request per binding, each with its own id
			wr := requestFor(b, ns, "ReadContact", "x", true)
			req, err = http.NewRequest(wr.method, ts.endpoint+wr.path, strings.NewReader(wr.body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", wr.contentType)
			if wr.soapAction != "" {
				req.Header.Set("SOAPAction", wr.soapAction)
			}
		}
		req.Header.Set(observe.RequestIDHeader, "ticket-"+b)
		resp, err := ts.Client().Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		require.Equal(t, 500, resp.StatusCode)
		assert.Equal(t, "ticket-"+b, resp.Header.Get(observe.RequestIDHeader))
	}
	var failures int
	for _, raw := range strings.Split(strings.TrimSpace(ts.logs.String()), "\n") {
		var l map[string]any
		require.NoError(t, json.Unmarshal([]byte(raw), &l))
		if l["msg"] == "request failed" {
			failures++
			assert.Equal(t, "ticket-"+l["binding"].(string), l["request_id"])
			assert.Equal(t, "ERROR", l["level"])
		}
		if l["msg"] == "request" {
			assert.Equal(t, "Internal", l["outcome"])
		}
	}
	assert.Equal(t, len(bindings), failures)
}

// TestSecretsNeverLogged sends credentials in every place a client might (Authorization, a cookie, a
// WS-Security password in the SOAP header, a password in the query string) and checks none reaches
// the log.
func TestSecretsNeverLogged(t *testing.T) {
	ts := newObservedServer(t, testsupport.OpenSQLite(t), server.Limits{})
	const password = "hunter2-Sup3rSecret"
	basic := "Basic dXNlcjpodW50ZXIyLVN1cDNyU2VjcmV0" // user:hunter2-Sup3rSecret
	wsse := `<soap:Header><wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">` +
		`<wsse:UsernameToken><wsse:Username>user</wsse:Username><wsse:Password>` + password + `</wsse:Password></wsse:UsernameToken></wsse:Security></soap:Header>`
	soap := requestFor("soap11", ns, "ReadContact", "missing", true)
	soap.body = strings.Replace(soap.body, "<soap:Body>", wsse+"<soap:Body>", 1)
	for _, r := range []wireRequest{
		soap,
		{method: "GET", path: "/ReadContact?id=x&password=" + password},
		{method: "GET", path: "/Nope?password=" + password},
	} {
		req, err := http.NewRequest(r.method, ts.endpoint+r.path, strings.NewReader(r.body))
		require.NoError(t, err)
		if r.contentType != "" {
			req.Header.Set("Content-Type", r.contentType)
			req.Header.Set("SOAPAction", r.soapAction)
		}
		req.Header.Set("Authorization", basic)
		req.Header.Set("Cookie", "session="+password)
		resp, err := ts.Client().Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
	}
	logs := ts.logs.String()
	require.Len(t, testsupport.AccessLines(t, logs), 3, "the requests were logged")
	assert.NotContains(t, logs, password)
	assert.NotContains(t, logs, "dXNlcjpodW50ZXIy")
	assert.NotContains(t, logs, "Basic")
}
