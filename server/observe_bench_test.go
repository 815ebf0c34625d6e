package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/observe/accesslog"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/instrumented"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/prometheus/client_golang/prometheus"
)

// memoryStore is the cheapest possible store, so the benchmarks below measure the handler and what
// Observe adds to it rather than a database.
type memoryStore struct {
	store.Store // nil: the methods the benchmarks do not use
	mu          sync.RWMutex
	contacts    map[string]store.Record
}

func (m *memoryStore) Put(_ context.Context, c store.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.contacts[c.Key] = c
	return nil
}

func (m *memoryStore) Get(_ context.Context, id string) (store.Record, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	c, ok := m.contacts[id]
	if !ok {
		return store.Record{}, store.ErrNotFound
	}
	return c, nil
}

func (m *memoryStore) Update(context.Context, string, func(store.Record) (store.Record, error)) (store.Record, error) {
	panic("not used")
}
func (m *memoryStore) Delete(context.Context, string) (store.Record, error) { panic("not used") }
func (m *memoryStore) Ping(context.Context) error                           { return nil }
func (m *memoryStore) Close() error                                         { return nil }

// nullResponseWriter is a ResponseWriter that keeps nothing, so the benchmark measures the server side.
type nullResponseWriter struct{ h http.Header }

func (w *nullResponseWriter) Header() http.Header         { return w.h }
func (w *nullResponseWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nullResponseWriter) WriteHeader(int)             {}

// BenchmarkObservedReadContact measures ReadContact over HTTP GET and SOAP 1.1 through the bare
// handler, and through Observe with metrics only, and with metrics, a measured store and a JSON access
// log (written to io.Discard, so the cost is building and formatting the line, not the disk): through
// a slog.Logger ("accesslog", what Observe does without AccessLines) and written by hand
// ("accesslines", what serve uses). The difference between "bare" and the others is the per-request
// cost of observability.
func BenchmarkObservedReadContact(b *testing.B) {
	st := &memoryStore{contacts: map[string]store.Record{"bench-1": service.TestRecord("bench-1")}}
	newHandler := func(st store.Store) *server.Handler {
		h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{BaseURL: wsdl.DefaultBaseURL,
			Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
		if err != nil {
			b.Fatal(err)
		}
		return h
	}
	variants := []struct {
		name    string
		handler func() http.Handler
	}{
		{"bare", func() http.Handler { return newHandler(st) }},
		{"metrics", func() http.Handler {
			h := newHandler(st)
			return observe.Middleware(h, observe.Config{Metrics: observe.NewMetrics(prometheus.NewRegistry(), h.MetricLabels())})
		}},
		{"metrics+store", func() http.Handler {
			reg := prometheus.NewRegistry()
			h := newHandler(instrumented.New(st, instrumented.NewMetrics(reg)))
			return observe.Middleware(h, observe.Config{Metrics: observe.NewMetrics(reg, h.MetricLabels())})
		}},
		{"metrics+store+accesslog", func() http.Handler {
			reg := prometheus.NewRegistry()
			h := newHandler(instrumented.New(st, instrumented.NewMetrics(reg)))
			return observe.Middleware(h, observe.Config{
				Metrics: observe.NewMetrics(reg, h.MetricLabels()), Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), AccessLog: true})
		}},
		{"metrics+store+accesslines", func() http.Handler {
			reg := prometheus.NewRegistry()
			h := newHandler(instrumented.New(st, instrumented.NewMetrics(reg)))
			return observe.Middleware(h, observe.Config{
				Metrics: observe.NewMetrics(reg, h.MetricLabels()), AccessLog: true, AccessLines: accesslog.New(io.Discard, accesslog.JSON, nil)})
		}},
	}
	soapBody := soapEnvelope(false, ns, "ReadContact", "<id>bench-1</id>")
	requests := []struct {
		name string
		new  func() *http.Request
	}{
		{"get", func() *http.Request {
			return httptest.NewRequest("GET", wsdl.Path+"/ReadContact?id=bench-1", nil)
		}},
		{"soap11", func() *http.Request {
			r := httptest.NewRequest("POST", wsdl.Path, strings.NewReader(soapBody))
			r.Header.Set("Content-Type", "text/xml; charset=utf-8")
			r.Header.Set("SOAPAction", `"`+ns+`ReadContact"`)
			return r
		}},
	}
	for _, req := range requests {
		for _, v := range variants {
			b.Run(req.name+"/"+v.name, func(b *testing.B) {
				h := v.handler()
				w := &nullResponseWriter{h: http.Header{}}
				r := req.new()
				body := strings.NewReader(soapBody)
				b.ReportAllocs()
				for b.Loop() {
					if r.Method == "POST" {
						body.Reset(soapBody)
						r.Body = io.NopCloser(body)
					}
					clear(w.h)
					h.ServeHTTP(w, r)
				}
			})
		}
	}
}
