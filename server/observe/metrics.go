package observe

import (
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/contactsync/contactsync/server/fault"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// LatencyBuckets are the histogram buckets of every latency metric, in seconds: a request served from
// memory takes tens of microseconds, one waiting on a slow database seconds, and the default timeouts
// end at 5 s (--db-timeout) and 30 s (--write-timeout).
var LatencyBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Label values for requests that never reached a binding (documents, help pages, refused methods and
// media types) or whose operation could not be decoded. Every label value comes from a closed set
// written in this package, never from the request, so the number of series stays bounded.
const (
	bindingNone      = "none"
	operationUnknown = "unknown"
	outcomeOK        = "ok"
	// outcomeOther is the outcome of a failed response whose status maps to no code (for example a
	// 401 written by a layer that does not report its code).
	outcomeOther = "other"
	// outcomeClientGone is the outcome of a request whose client hung up before it was answered: the
	// store call it abandoned reports Unavailable, which must not read as the service failing.
	outcomeClientGone = "ClientGone"
)

// Labels are the closed label sets of the bindings and operations of what a handler serves: the names
// of its bindings and of its contract's operations (server.Handler.MetricLabels makes them from the
// bound contract). observe adds "none" and "unknown" to them.
type Labels struct {
	Bindings, Operations []string
}

// metricOutcomes lists ok, other, every code's outcome from fault's table, and ClientGone. Its
// positions, and those of a Metrics' bindings and operations, index the series caches.
var (
	metricOutcomes = func() []string {
		outcomes := []string{outcomeOK, outcomeOther}
		for _, c := range fault.Codes {
			outcomes = append(outcomes, c.Mapping().Outcome)
		}
		return append(outcomes, outcomeClientGone)
	}()
)

// outcomeUnauthenticated is the outcome of a 401: a request without valid credentials.
const outcomeUnauthenticated = string(fault.Unauthenticated)

// indexOf returns the position of s in names, or 0 (the "none"/"unknown" entry) when absent. The sets
// hold a handful to a few dozen short strings, so a scan is as fast as a map and allocates nothing.
func indexOf(names []string, s string) int {
	for i, n := range names {
		if n == s {
			return i
		}
	}
	return 0
}

// outcomeIndex returns the position of outcome in metricOutcomes, or that of "other" for an outcome
// the list lacks, so a code added to fault's table but missing here is never counted as "ok".
func outcomeIndex(outcome string) int {
	if i := indexOf(metricOutcomes, outcome); i != 0 || outcome == outcomeOK {
		return i
	}
	return 1 // outcomeOther
}

// Metrics holds the request metrics of the endpoint. Create it with NewMetrics and give it to
// Middleware; it is safe for concurrent use.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	// oneWayFailures counts failed one-way runs (oneway.go).
	oneWayFailures *prometheus.CounterVec
	// bindings and operations are the label values: "none" and "unknown" first (the index of a name
	// not in the set), then those of Labels.
	bindings, operations []string

	// The caches hold the child series by label index (binding, operation[, outcome]), created on
	// first use. Looking a child up in a Vec hashes the label values on every call; an indexed load
	// costs a few nanoseconds. Series are created lazily so /metrics lists only the combinations that
	// happened, not every combination.
	requestSeries  []atomic.Pointer[prometheus.Counter]
	durationSeries []atomic.Pointer[prometheus.Observer]
}

// NewMetrics creates the request metrics of a handler whose bindings and operations are labels, and
// registers them with reg:
//
//	contactsync_requests_total{binding,operation,outcome}     counter
//	contactsync_request_duration_seconds{binding,operation}   histogram
//	contactsync_requests_in_flight                           gauge
//	contactsync_oneway_failures_total{operation}              counter (oneway.go)
//
// It panics if they are already registered with reg, as prometheus.MustRegister does. A process
// serving several contracts gives each handler its Metrics, registered with a registerer that tells
// them apart (prometheus.WrapRegistererWith and a constant label naming the contract).
func NewMetrics(reg prometheus.Registerer, labels Labels) *Metrics {
	bindings := append([]string{bindingNone}, labels.Bindings...)
	operations := append([]string{operationUnknown}, labels.Operations...)
	m := &Metrics{
		bindings:   bindings,
		operations: operations,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "contactsync_requests_total",
			Help: "Requests answered, by binding (" + strings.Join(bindings[1:], ", ") + "; " + bindingNone +
				" for documents and requests refused before a binding was chosen), operation (unknown when none was decoded) and outcome (ok, or the error code).",
		}, []string{"binding", "operation", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "contactsync_request_duration_seconds",
			Help:    "Time from receiving a request's headers to writing its response, by binding and operation.",
			Buckets: LatencyBuckets,
		}, []string{"binding", "operation"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "contactsync_requests_in_flight",
			Help: "Requests being served now.",
		}),
	}
	m.requestSeries = make([]atomic.Pointer[prometheus.Counter], len(bindings)*len(operations)*len(metricOutcomes))
	m.durationSeries = make([]atomic.Pointer[prometheus.Observer], len(bindings)*len(operations))
	m.oneWayFailures = newOneWayFailures()
	reg.MustRegister(m.requests, m.duration, m.inFlight, m.oneWayFailures)
	return m
}

// Finished counts a request once it is answered: Metrics is the Observer of the request metrics.
func (m *Metrics) Finished(_ *http.Request, ev *Events) {
	outcome := 0 // ok, the common case, known without making and looking up its label
	if ev.Err != nil || ev.clientGone || ev.Status >= http.StatusBadRequest {
		outcome = outcomeIndex(ev.Outcome())
	}
	m.observe(ev.BindingLabel(), ev.OperationLabel(), outcome, ev.Duration.Seconds())
}

// observe counts one finished request, by the names of its binding and operation (a name outside
// the label sets counts as "none" or "unknown") and the index of its outcome.
func (m *Metrics) observe(bindingName, opName string, outcome int, seconds float64) {
	binding, operation := indexOf(m.bindings, bindingName), indexOf(m.operations, opName)
	pair := binding*len(m.operations) + operation
	slot := &m.requestSeries[pair*len(metricOutcomes)+outcome]
	c := slot.Load()
	if c == nil {
		// Two requests racing here get the same child from the Vec; storing it twice is harmless.
		child := m.requests.WithLabelValues(m.bindings[binding], m.operations[operation], metricOutcomes[outcome])
		c = &child
		slot.Store(c)
	}
	(*c).Inc()
	dslot := &m.durationSeries[pair]
	o := dslot.Load()
	if o == nil {
		child := m.duration.WithLabelValues(m.bindings[binding], m.operations[operation])
		o = &child
		dslot.Store(o)
	}
	(*o).Observe(seconds)
}

// NewRegistry returns a registry of our own (not Prometheus' global default, so tests and several
// handlers in one process never collide) holding the Go runtime and process collectors.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}
