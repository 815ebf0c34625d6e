package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
)

// serve listens and answers before its store is open, so that an orchestrator sees it alive while it
// waits for a database that starts beside it: /healthz answers 200, /readyz 503 saying why, and every
// other request 503 with Retry-After. As soon as the store is open, the service's handler takes over.

// defaultStoreWait is --store-wait's default: long enough for a database started at the same time
// (a PostgreSQL container or unit typically accepts connections within seconds, after crash recovery
// within tens of seconds), short enough that a database that does not come fails the start where an
// operator looks (a failed unit, a restarting pod) rather than leaving an instance unready in silence.
const defaultStoreWait = 60 * time.Second

// The backoff between attempts to open the store: doubling from storeRetryFirst up to storeRetryMax,
// so a database that is nearly up is reached within a second, and one that takes longer is asked
// (and each attempt logged) every few seconds rather than every few milliseconds.
const (
	storeRetryFirst = 500 * time.Millisecond
	storeRetryMax   = 5 * time.Second
)

// handlerSwitch serves with the handler last set: the start-up handler while serve waits for its
// store, the service's afterwards. A request costs one atomic load.
type handlerSwitch struct {
	current atomic.Pointer[http.Handler]
}

func (s *handlerSwitch) set(h http.Handler) { s.current.Store(&h) }

func (s *handlerSwitch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.current.Load()).ServeHTTP(w, r)
}

// storeWait is serve's wait for its store: what /readyz says meanwhile.
type storeWait struct {
	mu       sync.Mutex
	since    time.Time
	attempts int // failed attempts so far
	// serve starts answering, with this handler until the service's is set; runServe sets it, and it
	// does something once only.
	serve func()
}

// failed records a failed attempt, and has serve answer from now on.
func (w *storeWait) failed() {
	w.mu.Lock()
	w.attempts++
	w.mu.Unlock()
	if w.serve != nil {
		w.serve()
	}
}

// reason says why serve is not ready yet, for /readyz and the other paths: no driver text, which may
// name hosts and users; the log has it.
func (w *storeWait) reason() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.attempts == 0 {
		return "opening the store"
	}
	return fmt.Sprintf("waiting for the store (%d attempts failed over %s; the log says why)",
		w.attempts, time.Since(w.since).Round(time.Second))
}

// ServeHTTP answers while serve waits for its store: alive, not ready, and nothing else yet.
func (w *storeWait) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	rw.Header().Set("Retry-After", "1")
	switch r.URL.Path {
	case observe.HealthzPath:
		rw.Header().Del("Retry-After")
		observe.WriteText(rw, http.StatusOK, "ok")
	case observe.ReadyzPath:
		observe.WriteText(rw, http.StatusServiceUnavailable, "not ready: "+w.reason())
	default:
		observe.WriteText(rw, http.StatusServiceUnavailable, "contactsync is starting: "+w.reason())
	}
}

// errStoppedWaiting is openWhenReachable's error when serve was stopped while it waited.
var errStoppedWaiting = errors.New("stopped while waiting for the store")

// openWhenReachable opens the store through the registry, and, while its backend says the error may
// pass (backend.Waiter: a PostgreSQL server not up yet) and --store-wait lasts, tries again with
// capped exponential backoff, logging each failed attempt. An error only a person can fix (a wrong
// password, a missing database) is returned at once.
func openWhenReachable(ctx context.Context, opts serveOptions, wait *storeWait, logger *slog.Logger) (backend.Store, *backend.Created, error) {
	wait.since = time.Now()
	deadline := wait.since.Add(opts.storeWait)
	delay := storeRetryFirst
	for attempt := 1; ; attempt++ {
		opened, created, err := stores.Registry.Open(ctx, opts.store, opts.stores, backend.Write)
		if err == nil {
			if attempt > 1 {
				logger.Info("store reached", "attempts", attempt, "waited", time.Since(wait.since).Round(time.Millisecond).String())
			}
			return opened, created, nil
		}
		if ctx.Err() != nil {
			return nil, nil, errStoppedWaiting
		}
		if !stores.Registry.Transient(opts.store, err) {
			return nil, nil, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			if opts.storeWait <= 0 {
				return nil, nil, fmt.Errorf("%w\n(--store-wait 0: serve does not wait for the store; --store-wait 60s lets it wait for a database that starts beside it)", err)
			}
			return nil, nil, fmt.Errorf("%w\n(still not reachable after --store-wait %s, %d attempts)", err, opts.storeWait, attempt)
		}
		wait.failed()
		delay = min(delay, left)
		logger.Warn("store not reachable yet; serve waits for it (/healthz alive, /readyz not ready)",
			"attempt", attempt, "retry_in", delay.String(), "waited", time.Since(wait.since).Round(time.Millisecond).String(),
			"store_wait", opts.storeWait.String(), "error", err)
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, nil, errStoppedWaiting
		case <-timer.C:
		}
		delay = min(2*delay, storeRetryMax)
	}
}
