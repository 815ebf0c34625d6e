package server_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/wsdl"
)

// The handler benchmarks drive server.Handler directly (request bytes in, response bytes out) over a
// real SQLite store on a temporary file, so they measure decode -> store -> encode and nothing of the
// network. Each fixture is first served once and its response compared with the golden file, so a
// benchmark can never time a request that fails; TestBenchFixtures runs that check as an ordinary test.

// benchID is the golden files' id, so every benchmark response can be compared with them byte for byte.
const benchID = "golden-1"

// benchOperations are the operations benchmarked on every binding: the hot read, the durable write and
// the storeless call that shows the cost of the protocol layer alone.
var benchOperations = []string{"ReadContact", "TestCreateContact", "VersionMajor"}

// benchFixture is one binding's request for one operation, replayable without allocating a new request.
type benchFixture struct {
	binding, op string
	req         *http.Request
	body        []byte
	bodyReader  *bytes.Reader
	want        []byte // the golden response
}

func newBenchFixture(tb testing.TB, binding, op string) *benchFixture {
	tb.Helper()
	wr := requestFor(binding, wsdl.DefaultNamespace, op, benchID, op != "VersionMajor")
	f := &benchFixture{binding: binding, op: op, body: []byte(wr.body)}
	f.bodyReader = bytes.NewReader(f.body)
	req, err := http.NewRequest(wr.method, "http://localhost:8080"+wsdl.Path+wr.path, f.bodyReader)
	require.NoError(tb, err)
	if wr.contentType != "" {
		req.Header.Set("Content-Type", wr.contentType)
	}
	if wr.soapAction != "" {
		req.Header.Set("SOAPAction", wr.soapAction)
	}
	// net/http gives every request a cancellable context; so does the fixture, since code below the
	// handler (database/sql, the driver) does more work for a context that can be cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	f.req = req.WithContext(ctx)
	f.want, err = os.ReadFile(filepath.Join("testdata", binding, op+".response.xml"))
	require.NoError(tb, err)
	return f
}

// serve replays the request into w.
func (f *benchFixture) serve(h http.Handler, w *discardWriter) {
	f.bodyReader.Reset(f.body)
	f.req.Body = io.NopCloser(f.bodyReader)
	f.req.ContentLength = int64(len(f.body))
	w.reset()
	h.ServeHTTP(w, f.req)
}

// discardWriter is a reusable http.ResponseWriter that keeps the status and the body (for the
// fixture check) without allocating per request once its buffer has grown.
type discardWriter struct {
	header http.Header
	status int
	body   []byte
}

func (w *discardWriter) reset() {
	clear(w.header)
	w.status = 0
	w.body = w.body[:0]
}

func (w *discardWriter) Header() http.Header { return w.header }

func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.body = append(w.body, p...)
	return len(p), nil
}

// newBenchHandler returns the real handler over a SQLite store on a temporary file holding the
// contact the ReadContact fixtures read.
func newBenchHandler(tb testing.TB) http.Handler {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "contacts.db"))
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = st.Close() })
	require.NoError(tb, st.Put(context.Background(), service.TestRecord(benchID)))
	h, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{
		BaseURL: wsdl.DefaultBaseURL,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	require.NoError(tb, err)
	return h
}

// checkFixture serves f once and fails unless the answer is 200 with the golden bytes.
func checkFixture(tb testing.TB, h http.Handler, f *benchFixture, w *discardWriter) {
	tb.Helper()
	f.serve(h, w)
	require.Equal(tb, http.StatusOK, w.status, "%s %s: %s", f.binding, f.op, w.body)
	require.Equal(tb, string(f.want), string(w.body), "%s %s", f.binding, f.op)
}

// TestBenchFixtures runs every benchmark fixture once, so the fixtures are checked by go test even when
// benchmarks are not run.
func TestBenchFixtures(t *testing.T) {
	h := newBenchHandler(t)
	w := &discardWriter{header: http.Header{}}
	for _, binding := range bindings {
		for _, op := range benchOperations {
			t.Run(binding+"/"+op, func(t *testing.T) {
				f := newBenchFixture(t, binding, op)
				checkFixture(t, h, f, w)
				checkFixture(t, h, f, w) // replaying the same request must work too
			})
		}
	}
}

// BenchmarkHandler measures one request through server.Handler per iteration, per binding and
// operation. TestCreateContact rewrites the same contact, so each iteration is a durable commit.
func BenchmarkHandler(b *testing.B) {
	h := newBenchHandler(b)
	for _, binding := range bindings {
		for _, op := range benchOperations {
			b.Run(binding+"/"+op, func(b *testing.B) {
				f := newBenchFixture(b, binding, op)
				w := &discardWriter{header: http.Header{}}
				checkFixture(b, h, f, w)
				b.ReportAllocs()
				b.SetBytes(int64(len(f.body)))
				b.ResetTimer()
				for b.Loop() {
					f.serve(h, w)
				}
				b.StopTimer()
				if w.status != http.StatusOK {
					b.Fatalf("last response: %d %s", w.status, w.body)
				}
			})
		}
	}
}

// BenchmarkHandlerParallel is BenchmarkHandler's ReadContact with GOMAXPROCS goroutines, the shape
// of the load benchmark (many connections, one store).
func BenchmarkHandlerParallel(b *testing.B) {
	h := newBenchHandler(b)
	for _, binding := range bindings {
		b.Run(binding+"/ReadContact", func(b *testing.B) {
			check := newBenchFixture(b, binding, "ReadContact")
			checkFixture(b, h, check, &discardWriter{header: http.Header{}})
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				f := newBenchFixture(b, binding, "ReadContact")
				w := &discardWriter{header: http.Header{}}
				for pb.Next() {
					f.serve(h, w)
					if w.status != http.StatusOK {
						b.Errorf("status %d: %s", w.status, strings.TrimSpace(string(w.body)))
						return
					}
				}
			})
		})
	}
}
