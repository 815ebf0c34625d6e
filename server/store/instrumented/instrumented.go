// Package instrumented decorates any store.Store with Prometheus metrics, so the SQLite and the
// PostgreSQL store are measured the same way without either knowing about metrics:
//
//	contactsync_store_duration_seconds{method}     histogram of each call's latency
//	contactsync_store_errors_total{method,kind}    failed calls
//
// method is put, get, update, delete or ping. kind is unavailable (store.ErrUnavailable: database
// unreachable, too slow, connection broken), canceled (the caller gave up: context canceled, usually a
// client that hung up) or other. store.ErrNotFound is an answer, not a failure, and is not counted.
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
	numMethods
)

var methodNames = [numMethods]string{"put", "get", "update", "delete", "ping"}

// The error kinds.
const (
	kindUnavailable = iota
	kindCanceled
	kindOther
	numKinds
)

var kindNames = [numKinds]string{"unavailable", "canceled", "other"}

// Buckets are the latency buckets, in seconds: an SQLite read takes tens of microseconds, a
// PostgreSQL round trip about a millisecond, and the default --db-timeout ends at 5 s.
var Buckets = []float64{0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Metrics holds the store metrics. Every series is created up front (five methods, three kinds), so
// an error rate is 0 rather than absent before the first error.
type Metrics struct {
	duration [numMethods]prometheus.Observer
	errors   [numMethods][numKinds]prometheus.Counter
}

// NewMetrics creates the store metrics and registers them with reg. It panics if they are already
// registered with reg, as prometheus.MustRegister does.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	duration := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "contactsync_store_duration_seconds",
		Help:    "Latency of store calls, by method (put, get, update, delete, ping), failed or not.",
		Buckets: Buckets,
	}, []string{"method"})
	errs := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "contactsync_store_errors_total",
		Help: "Failed store calls by method and kind (unavailable, canceled, other); a contact not found is not a failure.",
	}, []string{"method", "kind"})
	reg.MustRegister(duration, errs)
	m := &Metrics{}
	for i, method := range methodNames {
		m.duration[i] = duration.WithLabelValues(method)
		for k, kind := range kindNames {
			m.errors[i][k] = errs.WithLabelValues(method, kind)
		}
	}
	return m
}

// New returns st measured into m. Close is passed through unmeasured.
func New(st store.Store, m *Metrics) store.Store {
	return &instrumented{next: st, m: m}
}

type instrumented struct {
	next store.Store
	m    *Metrics
}

// done records one call of method that started at start and ended with err.
func (s *instrumented) done(method int, start time.Time, err error) {
	s.m.duration[method].Observe(time.Since(start).Seconds())
	if err == nil || errors.Is(err, store.ErrNotFound) {
		return
	}
	kind := kindOther
	switch {
	case errors.Is(err, store.ErrUnavailable):
		kind = kindUnavailable
	case errors.Is(err, context.Canceled):
		kind = kindCanceled
	}
	s.m.errors[method][kind].Inc()
}

func (s *instrumented) Put(ctx context.Context, c store.Contact) error {
	start := time.Now()
	err := s.next.Put(ctx, c)
	s.done(methodPut, start, err)
	return err
}

func (s *instrumented) Get(ctx context.Context, id string) (store.Contact, error) {
	start := time.Now()
	c, err := s.next.Get(ctx, id)
	s.done(methodGet, start, err)
	return c, err
}

func (s *instrumented) Update(ctx context.Context, id string, change func(store.Contact) (store.Contact, error)) (store.Contact, error) {
	start := time.Now()
	c, err := s.next.Update(ctx, id, change)
	s.done(methodUpdate, start, err)
	return c, err
}

func (s *instrumented) Delete(ctx context.Context, id string) (store.Contact, error) {
	start := time.Now()
	c, err := s.next.Delete(ctx, id)
	s.done(methodDelete, start, err)
	return c, err
}

func (s *instrumented) Ping(ctx context.Context) error {
	start := time.Now()
	err := s.next.Ping(ctx)
	s.done(methodPing, start, err)
	return err
}

func (s *instrumented) Close() error { return s.next.Close() }
