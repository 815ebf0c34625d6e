// Package instrumented decorates any store.Store with Prometheus metrics, so the SQLite and the
// PostgreSQL store are measured the same way without either knowing about metrics:
//
//	contactsync_store_duration_seconds{method}       histogram of each call's latency
//	contactsync_store_errors_total{method,kind}      failed calls
//	contactsync_store_bulk_duration_seconds{method}  histogram of each bulk call's duration
//	contactsync_store_bulk_rows_total{outcome}       contacts scanned, inserted, updated or refused
//
// method is put, get, update, delete, list_by_index or ping for the service's calls and the health
// checks, and scan, write_batch or count for the bulk methods that export, import and copy use. The bulk calls have a histogram
// of their own because their durations are of another order (a scan lasts as long as the whole
// export: seconds to minutes), which the service's buckets, made for milliseconds, would lump into
// +Inf; their errors are counted with the others. outcome is scanned (a contact Scan passed on),
// inserted, updated or refused (what WriteBatch reported). kind is unavailable (store.ErrUnavailable:
// database unreachable, too slow, connection broken; a write failing so was not applied),
// outcome_unknown (store.ErrOutcomeUnknown: a write's commit answer was lost), canceled (the caller gave up: context canceled,
// usually a client that hung up) or other. store.ErrNotFound is an answer, not a failure, and is not
// counted.
//
// The decorated store is the whole store.Store: every method is forwarded, and measured but Close and
// ProbeWrite (serve's write health probes the store it wraps, beneath this decorator, and logs its
// failures itself).
package instrumented

import (
	"context"
	"errors"
	"time"

	"github.com/contactsync/contactsync/server/store"
	"github.com/prometheus/client_golang/prometheus"
)

// The methods, indexing the series arrays of Metrics.
const (
	methodPut = iota
	methodGet
	methodUpdate
	methodDelete
	methodPing
	methodListByIndex
	methodScan
	methodWriteBatch
	methodCount
	numMethods
)

var methodNames = [numMethods]string{"put", "get", "update", "delete", "ping", "list_by_index", "scan", "write_batch", "count"}

// The error kinds.
const (
	kindUnavailable = iota
	kindOutcomeUnknown
	kindCanceled
	kindOther
	numKinds
)

var kindNames = [numKinds]string{"unavailable", "outcome_unknown", "canceled", "other"}

// Buckets are the latency buckets, in seconds: an SQLite read takes tens of microseconds, a
// PostgreSQL round trip about a millisecond, and the default --db-timeout ends at 5 s.
var Buckets = []float64{0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// BulkBuckets are the duration buckets of the bulk calls, in seconds: a batch write takes
// milliseconds, a count of a large table a fraction of a second, a scan of a million contacts seconds
// and of a large store minutes.
var BulkBuckets = []float64{0.001, 0.005, 0.025, 0.1, 0.5, 2.5, 10, 30, 60, 300, 1800}

// The outcomes of the bulk rows counter, indexing Metrics.rows.
const (
	rowsScanned = iota
	rowsInserted
	rowsUpdated
	rowsRefused
	numRowOutcomes
)

var rowOutcomeNames = [numRowOutcomes]string{"scanned", "inserted", "updated", "refused"}

// Metrics holds the store metrics. Every series is created up front (nine methods, four kinds, four
// row outcomes), so an error rate is 0 rather than absent before the first error.
type Metrics struct {
	duration [numMethods]prometheus.Observer
	errors   [numMethods][numKinds]prometheus.Counter
	rows     [numRowOutcomes]prometheus.Counter
}

// NewMetrics creates the store metrics and registers them with reg. It panics if they are already
// registered with reg, as prometheus.MustRegister does.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	duration := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "contactsync_store_duration_seconds",
		Help:    "Latency of store calls, by method (put, get, update, delete, ping, list_by_index), failed or not.",
		Buckets: Buckets,
	}, []string{"method"})
	bulkDuration := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "contactsync_store_bulk_duration_seconds",
		Help:    "Duration of bulk store calls (export, import, copy), by method (scan, write_batch, count), failed or not.",
		Buckets: BulkBuckets,
	}, []string{"method"})
	rows := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "contactsync_store_bulk_rows_total",
		Help: "Contacts passed through bulk store calls, by outcome (scanned, inserted, updated, refused).",
	}, []string{"outcome"})
	errs := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "contactsync_store_errors_total",
		Help: "Failed store calls by method and kind (unavailable, outcome_unknown, canceled, other); a contact not found is not a failure.",
	}, []string{"method", "kind"})
	reg.MustRegister(duration, bulkDuration, errs, rows)
	m := &Metrics{}
	for i, method := range methodNames {
		if i >= methodScan {
			m.duration[i] = bulkDuration.WithLabelValues(method)
		} else {
			m.duration[i] = duration.WithLabelValues(method)
		}
		for k, kind := range kindNames {
			m.errors[i][k] = errs.WithLabelValues(method, kind)
		}
	}
	for i, outcome := range rowOutcomeNames {
		m.rows[i] = rows.WithLabelValues(outcome)
	}
	return m
}

// NewObserved is New with onCall called after every call with the call's context and duration: serve
// passes observe.AddStoreTime, so the debug log can say how long each request spent in the store.
func NewObserved(st store.Store, m *Metrics, onCall func(ctx context.Context, d time.Duration)) store.Store {
	return &instrumented{next: st, m: m, onCall: onCall}
}

// New returns st measured into m. Close is passed through unmeasured.
func New(st store.Store, m *Metrics) store.Store {
	return &instrumented{next: st, m: m}
}

// Compile-time check that the decorator forwards the whole interface.
var _ store.Store = (*instrumented)(nil)

type instrumented struct {
	next   store.Store
	m      *Metrics
	onCall func(ctx context.Context, d time.Duration) // nil: none
}

// done records one call of method that started at start and ended with err.
func (s *instrumented) done(ctx context.Context, method int, start time.Time, err error) {
	elapsed := time.Since(start)
	s.m.duration[method].Observe(elapsed.Seconds())
	if s.onCall != nil {
		s.onCall(ctx, elapsed)
	}
	if err == nil || errors.Is(err, store.ErrNotFound) {
		return
	}
	kind := kindOther
	switch {
	case errors.Is(err, store.ErrUnavailable):
		kind = kindUnavailable
	case errors.Is(err, store.ErrOutcomeUnknown): // before canceled: the cause of one may be a cancel
		kind = kindOutcomeUnknown
	case errors.Is(err, context.Canceled):
		kind = kindCanceled
	}
	s.m.errors[method][kind].Inc()
}

func (s *instrumented) Put(ctx context.Context, r store.Record) error {
	start := time.Now()
	err := s.next.Put(ctx, r)
	s.done(ctx, methodPut, start, err)
	return err
}

func (s *instrumented) Get(ctx context.Context, key string) (store.Record, error) {
	start := time.Now()
	r, err := s.next.Get(ctx, key)
	s.done(ctx, methodGet, start, err)
	return r, err
}

func (s *instrumented) Update(ctx context.Context, key string, change func(store.Record) (store.Record, error)) (store.Record, error) {
	start := time.Now()
	r, err := s.next.Update(ctx, key, change)
	s.done(ctx, methodUpdate, start, err)
	return r, err
}

func (s *instrumented) Delete(ctx context.Context, key string) (store.Record, error) {
	start := time.Now()
	r, err := s.next.Delete(ctx, key)
	s.done(ctx, methodDelete, start, err)
	return r, err
}

func (s *instrumented) ListByIndex(ctx context.Context, index, afterKey string, limit int) ([]store.Record, error) {
	start := time.Now()
	rs, err := s.next.ListByIndex(ctx, index, afterKey, limit)
	s.done(ctx, methodListByIndex, start, err)
	return rs, err
}

func (s *instrumented) Ping(ctx context.Context) error {
	start := time.Now()
	err := s.next.Ping(ctx)
	s.done(ctx, methodPing, start, err)
	return err
}

func (s *instrumented) ProbeWrite(ctx context.Context) error { return s.next.ProbeWrite(ctx) }

func (s *instrumented) Close() error { return s.next.Close() }

func (s *instrumented) Scan(ctx context.Context, fn func(store.Record) error) error {
	start := time.Now()
	scanned := s.m.rows[rowsScanned]
	err := s.next.Scan(ctx, func(r store.Record) error {
		scanned.Inc()
		return fn(r)
	})
	s.done(ctx, methodScan, start, err)
	return err
}

func (s *instrumented) WriteBatch(ctx context.Context, rs []store.Record, mode store.WriteMode) (store.BatchResult, error) {
	start := time.Now()
	res, err := s.next.WriteBatch(ctx, rs, mode)
	s.done(ctx, methodWriteBatch, start, err)
	s.m.rows[rowsInserted].Add(float64(res.Inserted))
	s.m.rows[rowsUpdated].Add(float64(res.Updated))
	s.m.rows[rowsRefused].Add(float64(res.Refused))
	return res, err
}

func (s *instrumented) Count(ctx context.Context) (int64, error) {
	start := time.Now()
	n, err := s.next.Count(ctx)
	s.done(ctx, methodCount, start, err)
	return n, err
}
