package observe_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/observe"
)

// These test the middleware on its own, around a stand-in handler; the server root's observe tests
// check what the assembled handler reports through it (bindings, operations, outcomes).

// generatedID is the form of a request id the middleware makes up.
var generatedID = regexp.MustCompile(`^[0-9a-f]{12}-[0-9]+$`)

// TestObservePanicOutsideServe checks a panic that escapes the handler (as one in a help page would)
// still leaves the in-flight gauge at zero and is counted and logged as an internal failure, and
// reaches net/http unchanged.
func TestObservePanicOutsideServe(t *testing.T) {
	reg := prometheus.NewRegistry()
	logs := &testsupport.SyncBuffer{}
	observed := observe.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }),
		observe.Config{Metrics: observe.NewMetrics(reg, observe.Labels{}), Logger: slog.New(slog.NewJSONHandler(logs, nil)), AccessLog: true})
	require.PanicsWithValue(t, http.ErrAbortHandler, func() {
		observed.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	})
	assert.Equal(t, map[string]float64{"none/unknown/Internal": 1}, testsupport.MetricSamples(t, reg, "contactsync_requests_total"))
	assert.Equal(t, map[string]float64{"": 0}, testsupport.MetricSamples(t, reg, "contactsync_requests_in_flight"))
	lines := testsupport.AccessLines(t, logs.String())
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
		logs := &testsupport.SyncBuffer{}
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
