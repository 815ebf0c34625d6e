package observe_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/observe"
)

// These test the middleware on its own, around a stand-in handler; the server root's observe tests
// check what the assembled handler reports through it (bindings, operations, outcomes).

// syncBuffer is a log destination safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// accessLines returns the access lines ("msg":"request") of JSON logs, decoded.
func accessLines(t *testing.T, logs string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, raw := range strings.Split(strings.TrimSpace(logs), "\n") {
		if raw == "" {
			continue
		}
		var l map[string]any
		require.NoError(t, json.Unmarshal([]byte(raw), &l), raw)
		if l["msg"] == "request" {
			lines = append(lines, l)
		}
	}
	return lines
}

// metricSamples returns the samples of the metric name by their label values joined with "/" in label
// name order: counters and gauges by value, histograms by count.
func metricSamples(t *testing.T, g prometheus.Gatherer, name string) map[string]float64 {
	t.Helper()
	families, err := g.Gather()
	require.NoError(t, err)
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			pairs := m.GetLabel()
			sort.Slice(pairs, func(i, j int) bool { return pairs[i].GetName() < pairs[j].GetName() })
			values := make([]string, len(pairs))
			for i, p := range pairs {
				values[i] = p.GetValue()
			}
			out[strings.Join(values, "/")] = sampleValue(m)
		}
	}
	return out
}

func sampleValue(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	}
	return -1
}

// generatedID is the form of a request id the middleware makes up.
var generatedID = regexp.MustCompile(`^[0-9a-f]{12}-[0-9]+$`)

// TestObservePanicOutsideServe checks a panic that escapes the handler (as one in a help page would)
// still leaves the in-flight gauge at zero and is counted and logged as an internal failure, and
// reaches net/http unchanged.
func TestObservePanicOutsideServe(t *testing.T) {
	reg := prometheus.NewRegistry()
	logs := &syncBuffer{}
	observed := observe.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }),
		observe.Config{Metrics: observe.NewMetrics(reg), Logger: slog.New(slog.NewJSONHandler(logs, nil)), AccessLog: true})
	require.PanicsWithValue(t, http.ErrAbortHandler, func() {
		observed.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	})
	assert.Equal(t, map[string]float64{"none/unknown/Internal": 1}, metricSamples(t, reg, "contactsync_requests_total"))
	assert.Equal(t, map[string]float64{"": 0}, metricSamples(t, reg, "contactsync_requests_in_flight"))
	lines := accessLines(t, logs.String())
	require.Len(t, lines, 1)
	assert.Equal(t, 500.0, lines[0]["status"])
	assert.Equal(t, "Internal", lines[0]["outcome"])
}

// FuzzRequestID sends arbitrary X-Request-ID values through Observe: the id echoed is the one sent
// exactly when it is 1 to 128 bytes of visible ASCII, is always such an id itself, and the access
// line (text format, the one a forged newline could split) stays one line carrying that id.
func FuzzRequestID(f *testing.F) {
	for _, seed := range []string{"", "abc", "0f8fad5b-d9cb-469f-a165-70867728950e", "a\r\nlevel=ERROR msg=forged", strings.Repeat("x", 129), "idé", "a b", "\x00"} {
		f.Add(seed)
	}
	visibleASCII := regexp.MustCompile(`^[!-~]{1,128}$`)
	f.Fuzz(func(t *testing.T, sent string) {
		logs := &syncBuffer{}
		observed := observe.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }),
			observe.Config{Logger: slog.New(slog.NewTextHandler(logs, nil)), AccessLog: true})
		r := httptest.NewRequest("GET", "/", nil)
		r.Header["X-Request-Id"] = []string{sent}
		rec := httptest.NewRecorder()
		observed.ServeHTTP(rec, r)
		got := rec.Header().Get(observe.RequestIDHeader)
		require.Regexp(t, visibleASCII, got)
		if visibleASCII.MatchString(sent) {
			require.Equal(t, sent, got)
		} else {
			require.Regexp(t, generatedID, got)
		}
		line := logs.String()
		require.Equal(t, 1, strings.Count(line, "\n"), "one access line: %q", line)
		if !strings.Contains(line, "request_id="+got+" ") { // the text handler quotes ids holding = or "
			require.Contains(t, line, "request_id="+strconv.Quote(got)+" ")
		}
	})
}
