package instrumented_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/instrumented"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingStore answers every call with err (and Get with a record when err is nil).
type failingStore struct{ err error }

func (f failingStore) Put(context.Context, store.Record) error { return f.err }
func (f failingStore) Get(context.Context, string) (store.Record, error) {
	return store.Record{Key: "x"}, f.err
}
func (f failingStore) Update(context.Context, string, func(store.Record) (store.Record, error)) (store.Record, error) {
	return store.Record{}, f.err
}
func (f failingStore) Delete(context.Context, string) (store.Record, error) {
	return store.Record{}, f.err
}
func (f failingStore) ListByIndex(context.Context, string, string, int) ([]store.Record, error) {
	return nil, f.err
}
func (f failingStore) Ping(context.Context) error       { return f.err }
func (f failingStore) ProbeWrite(context.Context) error { return f.err }
func (f failingStore) Close() error                     { return nil }
func (f failingStore) Scan(context.Context, func(store.Record) error) error {
	return f.err
}
func (f failingStore) WriteBatch(_ context.Context, rs []store.Record, _ store.WriteMode) (store.BatchResult, error) {
	return store.NewBatchResult(len(rs)), f.err
}
func (f failingStore) Count(context.Context) (int64, error) { return 0, f.err }

// TestErrorKinds checks each outcome of a store call lands in the right series: not found is an
// answer, not an error; unavailable, canceled and anything else are errors of their kind. Every call
// is timed, and errors pass through unchanged.
func TestErrorKinds(t *testing.T) {
	cases := []struct {
		name string
		err  error
		kind string // "" when the call must count no error
	}{
		{"success", nil, ""},
		{"not found", store.ErrNotFound, ""},
		{"wrapped not found", fmt.Errorf("sqlite: get: %w", store.ErrNotFound), ""},
		{"unavailable", errors.Join(store.ErrUnavailable, errors.New("dial tcp: connection refused")), "unavailable"},
		{"canceled", fmt.Errorf("postgres: get: %w", context.Canceled), "canceled"},
		{"outcome unknown", fmt.Errorf("postgres: put: %w: %w", store.ErrOutcomeUnknown, context.Canceled), "outcome_unknown"},
		{"other", errors.New("disk on fire"), "other"},
	}
	methods := []string{"put", "get", "update", "delete", "ping", "list_by_index", "scan", "write_batch", "count"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			st := instrumented.New(failingStore{tc.err}, instrumented.NewMetrics(reg))
			ctx := context.Background()
			errs := []error{st.Put(ctx, store.Record{Key: "x"}), st.Ping(ctx), st.ProbeWrite(ctx)}
			_, err := st.Get(ctx, "x")
			errs = append(errs, err)
			_, err = st.Update(ctx, "x", func(r store.Record) (store.Record, error) { return r, nil })
			errs = append(errs, err)
			_, err = st.Delete(ctx, "x")
			errs = append(errs, err)
			_, err = st.ListByIndex(ctx, "i", "", 10)
			errs = append(errs, err)
			errs = append(errs, st.Scan(ctx, func(store.Record) error { return nil }))
			_, err = st.WriteBatch(ctx, []store.Record{{Key: "x"}}, store.Upsert)
			errs = append(errs, err)
			_, err = st.Count(ctx)
			errs = append(errs, err)
			for _, err := range errs {
				assert.Equal(t, tc.err, err, "errors pass through unchanged")
			}

			want := map[string]float64{}
			for _, method := range methods {
				for _, kind := range []string{"unavailable", "outcome_unknown", "canceled", "other"} {
					want[method+"/"+kind] = 0
				}
				if tc.kind != "" {
					want[method+"/"+tc.kind] = 1
				}
			}
			assert.Equal(t, want, series(t, reg, "contactsync_store_errors_total"), "every method and kind is exported from the start")
			assert.Equal(t, map[string]float64{"put": 1, "get": 1, "update": 1, "delete": 1, "ping": 1, "list_by_index": 1},
				series(t, reg, "contactsync_store_duration_seconds"), "every call is timed, failed or not")
			assert.Equal(t, map[string]float64{"scan": 1, "write_batch": 1, "count": 1},
				series(t, reg, "contactsync_store_bulk_duration_seconds"), "every bulk call is timed, failed or not")
		})
	}
}

// TestBulkPassesThrough runs the bulk methods of a real store through the decorator.
func TestBulkPassesThrough(t *testing.T) {
	sq, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "bulk.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = sq.Close() })
	reg := prometheus.NewRegistry()
	st := instrumented.New(sq, instrumented.NewMetrics(reg))
	ctx := context.Background()
	res, err := st.WriteBatch(ctx, []store.Record{rec("a"), rec("b")}, store.Upsert)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Inserted)
	res, err = st.WriteBatch(ctx, []store.Record{rec("a"), rec("c")}, store.InsertOnly)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Refused)
	n, err := st.Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	var ids []string
	require.NoError(t, st.Scan(ctx, func(r store.Record) error { ids = append(ids, r.Key); return nil }))
	assert.Equal(t, []string{"a", "b", "c"}, ids)
	assert.Equal(t, map[string]float64{"scan": 1, "write_batch": 2, "count": 1},
		series(t, reg, "contactsync_store_bulk_duration_seconds"))
	assert.Equal(t, map[string]float64{"scanned": 3, "inserted": 3, "updated": 0, "refused": 1},
		bySingleLabel(t, reg, "contactsync_store_bulk_rows_total", "outcome"))
}

// rec is a small record keyed key.
func rec(key string) store.Record {
	return store.Record{Key: key, Index: "i", Doc: []byte(`{"k":"` + key + `"}`)}
}

// TestClosedSQLiteStoreCountsErrors uses the real store, closed, as a backend that fails.
func TestClosedSQLiteStoreCountsErrors(t *testing.T) {
	sq, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "closed.db"))
	require.NoError(t, err)
	require.NoError(t, sq.Close())
	reg := prometheus.NewRegistry()
	st := instrumented.New(sq, instrumented.NewMetrics(reg))
	_, err = st.Get(context.Background(), "x")
	require.Error(t, err)
	require.Error(t, st.Ping(context.Background()))
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(`
# HELP contactsync_store_errors_total Failed store calls by method and kind (unavailable, outcome_unknown, canceled, other); a contact not found is not a failure.
# TYPE contactsync_store_errors_total counter
contactsync_store_errors_total{kind="canceled",method="count"} 0
contactsync_store_errors_total{kind="canceled",method="delete"} 0
contactsync_store_errors_total{kind="canceled",method="get"} 0
contactsync_store_errors_total{kind="canceled",method="list_by_index"} 0
contactsync_store_errors_total{kind="canceled",method="ping"} 0
contactsync_store_errors_total{kind="canceled",method="put"} 0
contactsync_store_errors_total{kind="canceled",method="scan"} 0
contactsync_store_errors_total{kind="canceled",method="update"} 0
contactsync_store_errors_total{kind="canceled",method="write_batch"} 0
contactsync_store_errors_total{kind="other",method="count"} 0
contactsync_store_errors_total{kind="other",method="delete"} 0
contactsync_store_errors_total{kind="other",method="get"} 1
contactsync_store_errors_total{kind="other",method="list_by_index"} 0
contactsync_store_errors_total{kind="other",method="ping"} 1
contactsync_store_errors_total{kind="other",method="put"} 0
contactsync_store_errors_total{kind="other",method="scan"} 0
contactsync_store_errors_total{kind="other",method="update"} 0
contactsync_store_errors_total{kind="other",method="write_batch"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="count"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="delete"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="get"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="list_by_index"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="ping"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="put"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="scan"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="update"} 0
contactsync_store_errors_total{kind="outcome_unknown",method="write_batch"} 0
contactsync_store_errors_total{kind="unavailable",method="count"} 0
contactsync_store_errors_total{kind="unavailable",method="delete"} 0
contactsync_store_errors_total{kind="unavailable",method="get"} 0
contactsync_store_errors_total{kind="unavailable",method="list_by_index"} 0
contactsync_store_errors_total{kind="unavailable",method="ping"} 0
contactsync_store_errors_total{kind="unavailable",method="put"} 0
contactsync_store_errors_total{kind="unavailable",method="scan"} 0
contactsync_store_errors_total{kind="unavailable",method="update"} 0
contactsync_store_errors_total{kind="unavailable",method="write_batch"} 0
`), "contactsync_store_errors_total"))
}

// bySingleLabel returns the counter values of one metric family keyed by the value of label.
func bySingleLabel(t *testing.T, reg *prometheus.Registry, name, label string) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label {
					out[l.GetValue()] = m.GetCounter().GetValue()
				}
			}
		}
	}
	return out
}

// series returns the samples of one metric family keyed by label values joined with "/" (method
// first): counter values, or a histogram's sample count.
func series(t *testing.T, reg *prometheus.Registry, name string) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			key := labels["method"]
			if kind, ok := labels["kind"]; ok {
				key += "/" + kind
			}
			if h := m.GetHistogram(); h != nil {
				out[key] = float64(h.GetSampleCount())
			} else {
				out[key] = m.GetCounter().GetValue()
			}
		}
	}
	return out
}
