package observe

import (
	"net/http"
	"os"
	"regexp"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
)

// TestOutcomes checks the outcome label of every way a request can end: the code reported wins, a
// success is ok, a status without a code maps back to its code, and nothing unknown becomes "ok".
func TestOutcomes(t *testing.T) {
	cases := []struct {
		code   fault.Code
		status int
		want   string
	}{
		{"", 200, "ok"},
		{"", 304, "ok"},
		{fault.NotFound, 404, "NotFound"},
		{fault.NotFound, 500, "NotFound"}, // a SOAP fault: the code, not the status
		{"", 400, "MalformedRequest"},
		{"", 401, "Unauthenticated"},
		{"", 404, "UnknownOperation"},
		{"", 405, "MethodNotAllowed"},
		{"", 413, "TooLarge"},
		{"", 415, "UnsupportedMediaType"},
		{"", 500, "Internal"},
		{"", 503, "Unavailable"},
		{"", http.StatusTeapot, "other"},
	}
	for _, tc := range cases {
		got := outcomeOf(tc.code, tc.status)
		assert.Equal(t, tc.want, got, "%q %d", tc.code, tc.status)
		assert.Equal(t, got, metricOutcomes[outcomeIndex(got)], "%s has its own series", got)
	}
	assert.Equal(t, "other", metricOutcomes[outcomeIndex("SomeNewCode")], "a code missing from the list is never ok")
	for _, code := range fault.Codes {
		assert.Equal(t, string(code), metricOutcomes[outcomeIndex(string(code))])
	}
	m := NewMetrics(NewRegistry(), contactsyncLabels())
	for _, op := range gen.Operations {
		assert.Equal(t, op.Name, m.operations[indexOf(m.operations, op.Name)])
	}
	assert.Equal(t, "unknown", m.operations[indexOf(m.operations, "NotAnOperation")], "a name outside the contract is unknown")
}

// contactsyncLabels are the label sets of the handler serving this service's contract with its five
// bindings (server.Handler.MetricLabels, which this package cannot import).
func contactsyncLabels() Labels {
	l := Labels{Bindings: []string{"soap11", "soap12", "get", "post", "json"}}
	for _, op := range gen.Operations {
		l.Operations = append(l.Operations, op.Name)
	}
	return l
}

// TestBindingLabelsDocumented: the requests counter's HELP text and the metric docs used to list four
// bindings and leave out json; both now name every binding label.
func TestBindingLabelsDocumented(t *testing.T) {
	m := NewMetrics(NewRegistry(), contactsyncLabels())
	descs := make(chan *prometheus.Desc, 1)
	m.requests.Describe(descs)
	help := (<-descs).String() // Desc{fqName: …, help: "…", …}
	docs, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	bullet := regexp.MustCompile("(?m)^- `binding`:.*(\n  .*)*").Find(docs)
	for _, label := range m.bindings {
		assert.Contains(t, help, label)
		assert.Contains(t, string(bullet), "`"+label+"`", "docs/operations.md's binding label list")
	}
	assert.Contains(t, help, "json")
}
