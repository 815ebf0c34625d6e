package observe_test

import (
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// twoParams is a request message of an operation with parameters id and name; it writes the elements
// it holds, as the generated messages do.
type twoParams struct{ id, name string }

func (m twoParams) AppendXML(b []byte) []byte {
	if m.id != "" {
		b = append(b, "<id>"+m.id+"</id>"...)
	}
	if m.name != "" {
		b = append(b, "<name>"+m.name+"</name>"...)
	}
	return b
}

func (twoParams) DecodeXML(*xmlwire.Reader) error { return nil }

var twoParamsOp = &wire.Operation{Name: "Rename", Params: []wire.Field{{Name: "id"}, {Name: "name"}}}

// recorder is an Observer keeping a copy of every request's events.
type recorder struct{ seen []observe.Events }

func (r *recorder) Finished(_ *http.Request, ev *observe.Events) { r.seen = append(r.seen, *ev) }

// reporting returns a stand-in handler that reports stages through the request's Exchange, as the
// server's handler does, and answers with status.
func reporting(status int, report func(ex *observe.Exchange)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		report(observe.ExchangeOf(r))
		w.WriteHeader(status)
	})
}

// TestDebugTraceLine holds the debug line (--log-level debug) to what the events say: each field as
// docs/operations.md lists it, for a request that succeeded, failed at each stage, or never reached a
// decision, with authentication on and off.
func TestDebugTraceLine(t *testing.T) {
	shed := &fault.Error{Code: fault.Unavailable, Message: "The service is busy; retry shortly.",
		Err: errors.New("shed: no operation slot (--max-concurrent) came free within --queue-timeout")}
	refusedBody := fault.Errorf(fault.TooLarge, "The request body is too large.")
	decodeErr := &fault.Error{Code: fault.MalformedRequest, Message: "The request is not valid.", Err: errors.New("line 1: unexpected EOF")}
	notFound := fault.Errorf(fault.NotFound, `Contact "x" does not exist.`)
	challenge := fault.Errorf(fault.Unauthenticated, "The user name or password is not valid.")
	tests := []struct {
		name   string
		status int
		report func(ex *observe.Exchange)
		want   string // the line after msg="request detail"
	}{
		{"succeeded, auth off", 200, func(ex *observe.Exchange) {
			ex.Routed("get", false)
			ex.Admitted(0, nil)
			ex.Decoded(twoParamsOp, twoParams{id: "secret-id-value"}, nil)
			ex.Called(nil)
		}, `request_id=r1 binding=get operation=Rename params=id auth=off admission="admitted at once" store=0s`},
		{"succeeded after a wait, auth on", 200, func(ex *observe.Exchange) {
			ex.Routed("soap11", true)
			ex.Authenticated("ws-security-digest", "dave", "", nil)
			ex.Decoded(twoParamsOp, twoParams{id: "1", name: "n"}, nil)
			ex.Admitted(3*time.Millisecond, nil)
			ex.Called(nil)
		}, `request_id=r1 binding=soap11 operation=Rename params=id,name auth=ws-security-digest user=dave auth_decision=accepted admission="queued 3ms for an operation slot" store=0s`},
		{"refused credentials", 401, func(ex *observe.Exchange) {
			ex.Routed("get", true)
			ex.Authenticated("basic", "alice", "wrong password", challenge)
		}, `request_id=r1 binding=get operation=unknown params="" auth=basic user=alice auth_decision="refused: wrong password" admission="not reached" store=0s failed_at=auth error="Unauthenticated: The user name or password is not valid."`},
		{"no decision reached", 413, func(ex *observe.Exchange) {
			ex.Routed("soap12", true)
			ex.Admitted(0, refusedBody)
		}, `request_id=r1 binding=soap12 operation=unknown params="" auth=none user="" auth_decision="" admission="refused: The request body is too large." store=0s failed_at=admission error="TooLarge: The request body is too large."`},
		{"shed after a wait", 503, func(ex *observe.Exchange) {
			ex.Routed("get", false)
			ex.Decoded(twoParamsOp, twoParams{}, nil)
			ex.Admitted(50*time.Millisecond, shed)
		}, `request_id=r1 binding=get operation=Rename params="" auth=off admission="shed: no operation slot (--max-concurrent) came free within --queue-timeout (queued 50ms)" store=0s failed_at=admission error="Unavailable: The service is busy; retry shortly."`},
		{"decode failed", 400, func(ex *observe.Exchange) {
			ex.Routed("post", false)
			ex.Decoded(nil, nil, decodeErr)
		}, `request_id=r1 binding=post operation=unknown params="" auth=off admission="not reached" store=0s failed_at=decode error="MalformedRequest: The request is not valid. (line 1: unexpected EOF)"`},
		{"operation failed", 404, func(ex *observe.Exchange) {
			ex.Routed("json", false)
			ex.Admitted(0, nil)
			ex.Decoded(twoParamsOp, twoParams{id: "x"}, nil)
			ex.Called(notFound)
		}, `request_id=r1 binding=json operation=Rename params=id auth=off admission="admitted at once" store=0s failed_at=operation error="NotFound: Contact \"x\" does not exist."`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			logs := &testsupport.SyncBuffer{}
			logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug,
				ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey {
						return slog.Attr{}
					}
					return a
				}}))
			observed := observe.Middleware(reporting(tc.status, tc.report), observe.Config{Logger: logger})
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set(observe.RequestIDHeader, "r1")
			observed.ServeHTTP(httptest.NewRecorder(), r)
			assert.Equal(t, `level=DEBUG msg="request detail" `+tc.want+"\n", logs.String())
			assert.NotContains(t, logs.String(), "secret-id-value", "parameter names, never their values")
		})
	}

	t.Run("not a binding's request", func(t *testing.T) {
		logs := &testsupport.SyncBuffer{}
		observed := observe.Middleware(reporting(200, func(*observe.Exchange) {}),
			observe.Config{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
		observed.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/?WSDL", nil))
		assert.Empty(t, logs.String(), "documents get the access line only")
	})
}

// TestObserversReadOneRecord: the stages a handler reports once reach every observer through the one
// record: the metrics' labels, the access line's operation and user, and an observer registered in
// Config.Observers, which sees the whole record after the built-in ones. At info level the details
// only the debug trace reads are not gathered.
func TestObserversReadOneRecord(t *testing.T) {
	reg := prometheus.NewRegistry()
	logs := &testsupport.SyncBuffer{}
	var rec recorder
	observed := observe.Middleware(reporting(404, func(ex *observe.Exchange) {
		ex.Routed("soap11", true)
		ex.Authenticated("basic", "alice", "", nil)
		ex.Admitted(0, nil)
		ex.Decoded(twoParamsOp, twoParams{id: "x"}, nil)
		observe.AddStoreTime(ex, time.Millisecond)
		ex.Called(fault.Errorf(fault.NotFound, "gone"))
	}), observe.Config{Metrics: observe.NewMetrics(reg, observe.Labels{Bindings: []string{"soap11"}, Operations: []string{"ReadContact"}}), Logger: slog.New(slog.NewJSONHandler(logs, nil)), AccessLog: true,
		Observers: []observe.Observer{&rec}})
	r := httptest.NewRequest("POST", "/contactsync/v1/sync.asmx", strings.NewReader(""))
	r.Header.Set(observe.RequestIDHeader, "one")
	observed.ServeHTTP(httptest.NewRecorder(), r)

	require.Len(t, rec.seen, 1)
	ev := rec.seen[0]
	assert.Equal(t, "one", ev.RequestID)
	assert.Equal(t, "soap11", ev.Binding)
	assert.Equal(t, "Rename", ev.Operation)
	assert.Equal(t, "alice", ev.User())
	assert.True(t, ev.Admission.Reached)
	assert.Equal(t, observe.StageOperation, ev.FailedAt)
	assert.Equal(t, fault.NotFound, ev.Code())
	assert.Equal(t, 404, ev.Status)
	assert.Equal(t, string(fault.NotFound), ev.Outcome())
	assert.Equal(t, ev.End().Sub(ev.Start), ev.Duration)
	assert.False(t, ev.Detailed)
	assert.Nil(t, ev.Params, "nothing reads them at info level")
	assert.Zero(t, ev.StoreTime, "nothing reads it at info level")

	lines := testsupport.AccessLines(t, logs.String())
	require.Len(t, lines, 1)
	assert.Equal(t, "Rename", lines[0]["operation"])
	assert.Equal(t, "alice", lines[0]["user"])
	assert.Equal(t, "NotFound", lines[0]["outcome"])
	assert.Equal(t, map[string]float64{"soap11/unknown/NotFound": 1}, testsupport.MetricSamples(t, reg, "contactsync_requests_total"),
		"an operation outside the contract's closed set is counted as unknown")
}
