// Package testsupport holds the helpers the server packages' tests share, so each has one copy: a log
// destination safe for concurrent writes, the access lines of a JSON log, the samples of a Prometheus
// metric, the body of a response, the sample messages of a help page, the operation names of the
// generated table, a private SQLite store, and values for every operation of a generated table built
// from its descriptors (values.go: the filler, what each binding carries, the comparison) which the
// contract tests and the generated decoders' fuzz target share. Only tests import it (the import-rule
// test in the server root holds every other package to that); it may import the standard library,
// testify, the Prometheus client, server/wire and the SQLite store (OpenSQLite); no contract's package.
package testsupport

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/server/wire"
)

// SyncBuffer is a log destination safe for concurrent writes: a handler's goroutines write while the
// test reads.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p under the lock.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// AccessLines returns the access lines ("msg":"request") of JSON logs, decoded; a line that is not
// JSON fails the test.
func AccessLines(tb testing.TB, logs string) []map[string]any {
	tb.Helper()
	var lines []map[string]any
	for _, raw := range strings.Split(strings.TrimSpace(logs), "\n") {
		if raw == "" {
			continue
		}
		var l map[string]any
		require.NoError(tb, json.Unmarshal([]byte(raw), &l), raw)
		if l["msg"] == "request" {
			lines = append(lines, l)
		}
	}
	return lines
}

// MetricSamples returns the samples of one metric family keyed by its label values joined with "/" in
// label name order: counter and gauge values, or a histogram's sample count. An absent family is empty.
func MetricSamples(tb testing.TB, g prometheus.Gatherer, name string) map[string]float64 {
	tb.Helper()
	families, err := g.Gather()
	require.NoError(tb, err)
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			out[LabelKey(m)] = sampleValue(m)
		}
	}
	return out
}

// LabelKey is a sample's label values joined with "/" in label name order, as MetricSamples keys them.
func LabelKey(m *dto.Metric) string {
	pairs := m.GetLabel()
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].GetName() < pairs[j].GetName() })
	values := make([]string, len(pairs))
	for i, p := range pairs {
		values[i] = p.GetValue()
	}
	return strings.Join(values, "/")
}

// sampleValue is what MetricSamples reports of one sample; -1 marks a kind it does not read (a
// summary), so a test comparing values notices.
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

// ReadAll reads and closes the body of resp.
func ReadAll(tb testing.TB, resp *http.Response) string {
	tb.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(tb, err)
	return string(b)
}

// helpSample is a sample message of a help page, as the page shows it.
var helpSample = regexp.MustCompile(`(?s)<pre tabindex="0">(.*?)</pre>`)

// HelpSamples extracts the sample messages of an operation's help page, unescaped: request and
// response, for each binding the default protocols document and the operation is offered on (all
// four, or the two SOAP ones for an operation offered over SOAP only).
func HelpSamples(tb testing.TB, body string) [][2]string {
	tb.Helper()
	pres := helpSample.FindAllStringSubmatch(body, -1)
	require.True(tb, len(pres) == 4 || len(pres) == 8, "a request and a response sample for two or four bindings, found %d samples", len(pres))
	var out [][2]string
	for i := 0; i < len(pres); i += 2 {
		out = append(out, [2]string{html.UnescapeString(pres[i][1]), html.UnescapeString(pres[i+1][1])})
	}
	return out
}

// OperationNames lists the operations of a generated table, ops, in the contract's order.
func OperationNames(ops []*wire.Operation) []string {
	names := make([]string, 0, len(ops))
	for _, op := range ops {
		names = append(names, op.Name)
	}
	return names
}

// OpenSQLite opens a SQLite store in the test's temporary directory, closed when the test ends: the
// store most tests serve from, real but private to the test.
func OpenSQLite(tb testing.TB) store.Store {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "contacts.db"))
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = st.Close() })
	return st
}
