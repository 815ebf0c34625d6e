package observe_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/store"
)

// These test the operational endpoints on their own, over a stand-in store; the server root's
// TestHealthEndpoints checks them in front of the assembled handler, as serve wires them (a store that
// hangs, the ready timeout, no access line for a probe).

// upStore is a store that is always reachable; any call but Ping panics, since the endpoints make none.
type upStore struct {
	store.Store
}

func (upStore) Ping(context.Context) error { return nil }

// writesFunc is an OpsConfig.Writes answering with a function.
type writesFunc func(ctx context.Context) error

func (f writesFunc) Writable(ctx context.Context) error { return f(ctx) }

// TestReadyzStoreNotWritable: /readyz fails with "store not writable" while the store's write health
// says so, never showing the cause, and is ready again as soon as it does not.
func TestReadyzStoreNotWritable(t *testing.T) {
	var writable error
	ops := observe.NewOps(observe.OpsConfig{Store: upStore{}, Writes: writesFunc(func(context.Context) error { return writable })})
	for _, tc := range []struct {
		name     string
		writable error
		status   int
		body     string
	}{
		{"writable", nil, 200, "ok\n"},
		{"disk full", errors.Join(store.ErrNotWritable, errors.New("database or disk is full /secret/path")), 503, "not ready: store not writable\n"},
		{"writable again", nil, 200, "ok\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writable = tc.writable
			rec := httptest.NewRecorder()
			ops.ServeHTTP(rec, httptest.NewRequest("GET", observe.ReadyzPath, nil))
			assert.Equal(t, tc.status, rec.Code)
			assert.Equal(t, tc.body, rec.Body.String())
			if tc.status == 503 {
				assert.Equal(t, "1", rec.Header().Get("Retry-After"))
			}
		})
	}
}

// TestMetricsOnlyWhereConfigured checks /metrics falls through to the endpoint (and its 404) on a
// listener whose metrics are elsewhere.
func TestMetricsOnlyWhereConfigured(t *testing.T) {
	withMetrics := observe.NewOps(observe.OpsConfig{Store: upStore{}, Metrics: promhttp.HandlerFor(observe.NewRegistry(), promhttp.HandlerOpts{})})
	without := observe.NewOps(observe.OpsConfig{Store: upStore{}})
	endpoint := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "endpoint", http.StatusNotFound) })

	rec := httptest.NewRecorder()
	observe.WithOps(withMetrics, endpoint).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	assert.Equal(t, 200, rec.Code)
	assert.Contains(t, rec.Body.String(), "go_goroutines", "the registry holds the Go collector")
	assert.Contains(t, rec.Body.String(), "process_", "the registry holds the process collector")

	rec = httptest.NewRecorder()
	observe.WithOps(without, endpoint).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	assert.Equal(t, 404, rec.Code)
	assert.Equal(t, "endpoint\n", rec.Body.String())

	rec = httptest.NewRecorder()
	observe.WithOps(without, endpoint).ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	assert.Equal(t, 200, rec.Code, "health stays on every listener")
}
