package observe

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/contactsync/contactsync/server/store"
)

// The operational endpoints. They sit outside the service path (/contactsync/v1/…), answer GET and
// HEAD only, and are never behind authentication: probes and scrapers carry no credentials.
const (
	HealthzPath = "/healthz"
	ReadyzPath  = "/readyz"
	MetricsPath = "/metrics"
)

// DefaultReadyTimeout bounds the store ping of one /readyz request. Probes usually time out after one
// second or a few; answering 503 a little before that tells more than a probe timeout does.
const DefaultReadyTimeout = 2 * time.Second

// OpsConfig configures the operational endpoints.
type OpsConfig struct {
	// Store answers /readyz through its Ping; nil makes /readyz fail.
	Store store.Store
	// Writes, when set, also makes /readyz fail while the store cannot write (a full disk, a read-only
	// file system): see store.WriteHealth, which probes the store at most every few seconds, so the
	// instance comes back by itself once the store can write again.
	Writes interface {
		Writable(ctx context.Context) error
	}
	// ReadyTimeout bounds the ping (and a writability probe); zero means DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// Metrics serves /metrics (typically promhttp.HandlerFor); nil leaves /metrics unserved here, for
	// a main listener whose metrics are on the admin address.
	Metrics http.Handler
}

// Ops serves /healthz, /readyz and, when configured, /metrics. They are deliberately not observed
// (no access log line, not counted): probes every few seconds would drown the service's own traffic.
type Ops struct {
	cfg OpsConfig
}

// NewOps returns the operational endpoints of cfg.
func NewOps(cfg OpsConfig) *Ops {
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = DefaultReadyTimeout
	}
	return &Ops{cfg: cfg}
}

// Serves reports whether path is one of the endpoints o answers.
func (o *Ops) Serves(path string) bool {
	switch path {
	case HealthzPath, ReadyzPath:
		return true
	case MetricsPath:
		return o.cfg.Metrics != nil
	}
	return false
}

// ServeHTTP answers the operational endpoints, and 404 for anything else.
func (o *Ops) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !o.Serves(r.URL.Path) {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		WriteText(w, http.StatusMethodNotAllowed, "method not allowed; use GET or HEAD")
		return
	}
	switch r.URL.Path {
	case HealthzPath:
		// Alive means this process answers HTTP; the store is /readyz's business, so a database outage
		// makes instances unready (taken out of the load balancer) rather than restarted.
		WriteText(w, http.StatusOK, "ok")
	case ReadyzPath:
		o.serveReady(w, r)
	case MetricsPath:
		o.cfg.Metrics.ServeHTTP(w, r)
	}
}

func (o *Ops) serveReady(w http.ResponseWriter, r *http.Request) {
	if o.cfg.Store == nil {
		WriteText(w, http.StatusServiceUnavailable, "not ready: no store")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), o.cfg.ReadyTimeout)
	defer cancel()
	if err := o.cfg.Store.Ping(ctx); err != nil {
		// One line naming the kind of failure, not the driver's text, which may name hosts and users.
		reason := "store failed"
		switch {
		case errors.Is(err, store.ErrUnavailable):
			reason = "store unavailable"
		case errors.Is(err, context.DeadlineExceeded):
			reason = "store did not answer within " + o.cfg.ReadyTimeout.String()
		}
		w.Header().Set("Retry-After", "1")
		WriteText(w, http.StatusServiceUnavailable, "not ready: "+reason)
		return
	}
	if o.cfg.Writes != nil && o.cfg.Writes.Writable(ctx) != nil {
		// Reads would still work, but a load balancer cannot send only reads here: every write would
		// fail. The cause is in the log (rate-limited), never here.
		w.Header().Set("Retry-After", "1")
		WriteText(w, http.StatusServiceUnavailable, "not ready: store not writable")
		return
	}
	WriteText(w, http.StatusOK, "ok")
}

// WriteText writes one line of plain text with status, uncached, as the operational endpoints
// (/healthz, /readyz) answer; serve's start-up handler answers the same way while it waits for its store.
func WriteText(w http.ResponseWriter, status int, line string) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(line)+1))
	w.WriteHeader(status)
	_, _ = io.WriteString(w, line+"\n")
}

// WithOps returns a handler that sends the paths ops serves to ops and every other request to next
// (the observed endpoint). It matches exact paths only, rather than using an http.ServeMux, so the
// endpoint keeps seeing every other request unchanged (ServeMux would clean and redirect paths).
func WithOps(ops *Ops, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ops.Serves(r.URL.Path) {
			ops.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
