package server_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/wsdl"
)

// fakeStore is a store.Store whose behaviour each test sets through function fields; an unset
// method fails the test loudly.
type fakeStore struct {
	get func(ctx context.Context, id string) (store.Record, error)
	put func(ctx context.Context, c store.Record) error
}

func (f *fakeStore) Put(ctx context.Context, c store.Record) error {
	if f.put == nil {
		panic("Put not expected")
	}
	return f.put(ctx, c)
}
func (f *fakeStore) Get(ctx context.Context, id string) (store.Record, error) {
	return f.get(ctx, id)
}
func (f *fakeStore) Update(context.Context, string, func(store.Record) (store.Record, error)) (store.Record, error) {
	panic("Update not expected")
}
func (f *fakeStore) Delete(context.Context, string) (store.Record, error) {
	panic("Delete not expected")
}
func (f *fakeStore) ListByIndex(context.Context, string, string, int) ([]store.Record, error) {
	panic("ListByIndex not expected")
}
func (f *fakeStore) Scan(context.Context, func(store.Record) error) error { panic("Scan not expected") }
func (f *fakeStore) Count(context.Context) (int64, error)                 { panic("Count not expected") }
func (f *fakeStore) WriteBatch(context.Context, []store.Record, store.WriteMode) (store.BatchResult, error) {
	panic("WriteBatch not expected")
}
func (f *fakeStore) Ping(context.Context) error       { return nil }
func (f *fakeStore) ProbeWrite(context.Context) error { return nil }
func (f *fakeStore) Close() error                     { return nil }

// newFakeServer serves a handler over st and returns it with the log it writes. protocols, when
// given, are the protocols served (binding.ProtocolNames); none means the default.
func newFakeServer(t *testing.T, st store.Store, limits server.Limits, protocols ...string) (*testServer, *testsupport.SyncBuffer) {
	t.Helper()
	logs := &testsupport.SyncBuffer{}
	h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{
		BaseURL: wsdl.DefaultBaseURL, Limits: limits, Logger: slog.New(slog.NewTextHandler(logs, nil)),
		Protocols: protocols,
	})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, endpoint: srv.URL + wsdl.Path}, logs
}

// internalFault is the generic answer of each binding to an internal failure.
var internalFault = map[string]struct {
	status   int
	contains []string
}{
	"soap11": {500, []string{"<faultcode>soap:Server</faultcode>", "The service failed to process the request.", ">Internal</ErrorCode>"}},
	"soap12": {500, []string{"<soap12:Value>soap12:Receiver</soap12:Value>", "cs:Internal", "The service failed to process the request."}},
	"get":    {500, []string{"The service failed to process the request."}},
	"post":   {500, []string{"The service failed to process the request."}},
}

// TestInternalErrorIsHidden checks that a store failure reaches the caller only as a generic message
// in each binding's form, while the log keeps the detail.
func TestInternalErrorIsHidden(t *testing.T) {
	const secret = "disk on fire at /var/lib/secret.db"
	ts, logs := newFakeServer(t, &fakeStore{get: func(context.Context, string) (store.Record, error) {
		return store.Record{}, errors.New(secret)
	}}, server.Limits{})
	for _, binding := range bindings {
		t.Run(binding, func(t *testing.T) {
			resp, body := ts.do(t, requestFor(binding, ns, "ReadContact", "x", true))
			want := internalFault[binding]
			assert.Equal(t, want.status, resp.StatusCode)
			for _, s := range want.contains {
				assert.Contains(t, body, s)
			}
			assert.NotContains(t, body, "disk on fire")
		})
	}
	assert.Contains(t, logs.String(), secret, "the cause must be logged")
}

// TestPanicBecomesServerFault checks a panic inside an operation becomes an internal error in each
// binding's form, is logged with its stack, and the server keeps serving.
func TestPanicBecomesServerFault(t *testing.T) {
	ts, logs := newFakeServer(t, &fakeStore{get: func(context.Context, string) (store.Record, error) {
		panic("boom")
	}}, server.Limits{})
	for _, binding := range bindings {
		t.Run(binding, func(t *testing.T) {
			resp, body := ts.do(t, requestFor(binding, ns, "ReadContact", "x", true))
			want := internalFault[binding]
			assert.Equal(t, want.status, resp.StatusCode)
			for _, s := range want.contains {
				assert.Contains(t, body, s)
			}
			assert.NotContains(t, body, "boom")
			requireStillServing(t, ts)
		})
	}
	assert.Contains(t, logs.String(), "boom")
	assert.Contains(t, logs.String(), "stack")
}

// TestLoadShedding fills every request slot with requests that block in the store, then checks each
// binding refuses the next request, once it has waited --queue-timeout for a slot, with 503 and
// Retry-After (a fault body for SOAP), and serves again once the slots free up.
func TestLoadShedding(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 2)
	ts, _ := newFakeServer(t, &fakeStore{get: func(ctx context.Context, id string) (store.Record, error) {
		if id == "block" {
			entered <- struct{}{}
			<-release
		}
		return service.TestRecord(id), nil
	}}, server.Limits{Admission: admission.Limits{MaxConcurrent: 2}})

	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := ts.do(t, requestFor("get", ns, "ReadContact", "block", true))
			assert.Equal(t, 200, resp.StatusCode)
		}()
	}
	<-entered
	<-entered

	shed := map[string][]string{
		"soap11": {"<faultcode>soap:Server</faultcode>", ">Unavailable</ErrorCode>"},
		"soap12": {"soap12:Receiver", "cs:Unavailable"},
		"get":    {"busy"},
		"post":   {"busy"},
	}
	for _, binding := range bindings {
		resp, body := ts.do(t, requestFor(binding, ns, "ReadContact", "x", true))
		assert.Equal(t, 503, resp.StatusCode, binding)
		assert.Equal(t, "1", resp.Header.Get("Retry-After"), binding)
		for _, s := range shed[binding] {
			assert.Contains(t, body, s, binding)
		}
	}
	close(release)
	wg.Wait()
	resp, _ := ts.do(t, requestFor("soap11", ns, "ReadContact", "x", true))
	assert.Equal(t, 200, resp.StatusCode)
}
