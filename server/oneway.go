package server

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/wire"
)

// oneWays are the one-way operations (wire.Operation.OneWay) a handler runs after acknowledging
// them: each holds its request's admission ticket (its operation slot, its body) until it returns, so
// they count against the same limits as every request, and Drain waits for them on shutdown.
type oneWays struct {
	timeout time.Duration
	// stop ends the runs' contexts when Drain gives up waiting for them.
	stop   context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	running int
	// idle is closed when running falls to zero; a new one is made when it leaves zero.
	idle chan struct{}
}

func newOneWays(timeout time.Duration) *oneWays {
	stop, cancel := context.WithCancel(context.Background())
	return &oneWays{timeout: timeout, stop: stop, cancel: cancel}
}

func (o *oneWays) started() {
	o.mu.Lock()
	if o.running == 0 {
		o.idle = make(chan struct{})
	}
	o.running++
	o.mu.Unlock()
}

func (o *oneWays) finished() {
	o.mu.Lock()
	o.running--
	if o.running == 0 {
		close(o.idle)
	}
	o.mu.Unlock()
}

// acknowledge serves a one-way request the binding acknowledges (SOAP): it was authenticated,
// decoded and admitted to an operation slot as every request is, so a malformed or refused one got
// its fault instead. The binding's acknowledgement (202, empty) is written and flushed, so the client
// has it before the operation runs; then the operation runs in the background (runOneWay), holding the
// request's ticket, which serve's deferred Release then no longer finds.
func (h *Handler) acknowledge(w http.ResponseWriter, r *http.Request, ack binding.Acknowledger, req binding.Request, ticket *admission.Ticket) {
	t := *ticket
	*ticket = admission.Ticket{}
	ctx, ow := observe.Detach(r.Context()), observe.OneWayOf(r)
	observe.ExchangeOf(r).Called(nil) // the request's outcome is its acknowledgement; the run's is logged and counted
	h.oneWay.started()
	ack.Acknowledge(w)
	_ = http.NewResponseController(w).Flush()
	go h.runOneWay(ctx, req.Op, req.Msg, t, ow)
}

// runOneWay runs an acknowledged one-way operation on a context detached from its request (its
// values, not its cancellation), bounded by Limits.OneWayTimeout and by Drain giving up. Nobody reads
// its result: an error or a panic is logged with the request's id and counted
// (contactsync_oneway_failures_total), never lost silently. The ticket is released when it returns.
func (h *Handler) runOneWay(ctx context.Context, op *wire.Operation, msg wire.Message, t admission.Ticket, ow observe.OneWay) {
	defer h.oneWay.finished()
	defer t.Release()
	ctx, cancel := context.WithTimeout(ctx, h.oneWay.timeout)
	defer cancel()
	defer context.AfterFunc(h.oneWay.stop, cancel)()
	defer func() {
		if v := recover(); v != nil {
			ow.Failed(op.Name)
			h.log.Error("panic in a one-way operation, after its 202", "request_id", ow.RequestID(), "operation", op.Name,
				"panic", v, "stack", string(debug.Stack()))
		}
	}()
	if _, err := h.call(ctx, msg); err != nil {
		ow.Failed(op.Name)
		h.log.Error("one-way operation failed, after its 202", "request_id", ow.RequestID(), "operation", op.Name, "error", err)
	}
}

// Drain waits until the one-way operations the handler acknowledged and still runs have returned, or
// ctx ends: then it cancels their contexts and says how many were still running. Serve calls it once
// the HTTP server stopped (http.Server.Shutdown returned), within the same grace, before it closes
// the store. It may be called at any time (tests call it to wait for the runs of the requests they
// sent); a Drain that gave up leaves the handler's later one-way runs cancelled from their start.
func (h *Handler) Drain(ctx context.Context) error {
	o := h.oneWay
	o.mu.Lock()
	running, idle := o.running, o.idle
	o.mu.Unlock()
	if running == 0 {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		o.mu.Lock()
		running = o.running
		o.mu.Unlock()
		o.cancel()
		return fmt.Errorf("%d one-way operations still running were cancelled: %w", running, ctx.Err())
	}
}
