package observe

import (
	"context"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
)

// OneWay is what a one-way operation (wire.Operation.OneWay), which runs after its request was
// answered, keeps of the request's observation: its id, for the log lines of the run, and the
// metrics, which count the runs that failed. The request's Exchange itself is handed to the observers
// when the request is answered, so the run reports nothing into it.
type OneWay struct {
	requestID string
	metrics   *Metrics
}

// OneWayOf returns the OneWay of request r; without Middleware it has no id and counts nothing.
func OneWayOf(r *http.Request) OneWay {
	e := ExchangeOf(r)
	if e == nil {
		return OneWay{}
	}
	return OneWay{requestID: e.ev.RequestID, metrics: e.metrics}
}

// RequestID is the id of the request that carried the one-way call, "" when it was not observed.
func (o OneWay) RequestID() string { return o.requestID }

// Failed counts a one-way run of operation that returned an error or panicked
// (contactsync_oneway_failures_total{operation}); an operation outside the label set counts as
// "unknown".
func (o OneWay) Failed(operation string) {
	if o.metrics == nil {
		return
	}
	o.metrics.oneWayFailures.WithLabelValues(o.metrics.operations[indexOf(o.metrics.operations, operation)]).Inc()
}

// newOneWayFailures is the counter of failed one-way runs, registered by NewMetrics.
func newOneWayFailures() *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "contactsync_oneway_failures_total",
		Help: "One-way operations that returned an error or panicked after their request was acknowledged (202), by operation. " +
			"The caller never learns of these failures; the log has each, with its request id.",
	}, []string{"operation"})
}

// Detach returns a context for work that outlives the request whose context ctx is: its values
// without its cancellation and deadline (context.WithoutCancel), and without its Exchange, so nothing
// the work does (AddStoreTime) reports into a record the observers have already read.
func Detach(ctx context.Context) context.Context {
	return detached{context.WithoutCancel(ctx)}
}

type detached struct{ context.Context }

func (d detached) Value(key any) any {
	if _, ok := key.(exchangeKey); ok {
		return nil
	}
	return d.Context.Value(key)
}
