package server

import (
	"errors"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
)

// Request admission (issue 14). An operation request passes three gates, each bounded, each refusing
// at once with Unavailable (503 + Retry-After) when full, before it costs more than its headers:
//
//  1. pending: at most MaxPending requests read their body or wait for an operation slot at once.
//  2. body bytes: the bodies held in memory (being read, waiting, being served) total at most
//     MaxBodyBytesInFlight; a request reserves its Content-Length before reading a byte.
//  3. operation slots: at most MaxConcurrent requests decode, call the store and encode at once.
//
// The body is read before a slot is taken, and must arrive at MinBodyRate or faster (after a grace
// of bodyReadGrace), so a client trickling its body holds only a pending place, which it loses
// within seconds, never an operation slot: before, 300 connections sending a byte a second made every
// operation answer 503 for 30 s. A request whose body is read waits for a slot up to QueueTimeout
// (first come, first served) instead of being refused at once: refusing at once makes clients that
// retry at once spin, and at 4x MaxConcurrent connections the spinning took most of the CPU (goodput
// fell to a fifth). Waiting costs a parked goroutine and the body, which gate 2 bounds.

// AdmissionLimits bound what requests may hold before they run; zero fields take their defaults.
type AdmissionLimits struct {
	// MaxPending is how many requests may read their body or wait for an operation slot at once.
	MaxPending int
	// MaxBodyBytesInFlight bounds the request bodies held in memory at once, in bytes.
	MaxBodyBytesInFlight int64
	// MinBodyRate is the slowest a request body may arrive, in bytes per second, once the first
	// bodyReadGrace has passed; a slower one is cut off.
	MinBodyRate int64
	// QueueTimeout is how long a request whose body has been read waits for an operation slot
	// before it is refused with 503.
	QueueTimeout time.Duration
}

// bodyReadGrace is the time every body gets on top of its size at MinBodyRate: a round trip or two
// of a slow network and the client's scheduling, so a small body is never cut off by the rate. A
// variable only so that tests can shorten it; NewHandler reads it.
var bodyReadGrace = 2 * time.Second

// DefaultAdmissionLimits returns the admission limits used when none are configured.
func DefaultAdmissionLimits() AdmissionLimits {
	return AdmissionLimits{
		MaxPending:           1024,
		MaxBodyBytesInFlight: 64 << 20,
		MinBodyRate:          8 << 10,
		QueueTimeout:         100 * time.Millisecond,
	}
}

// DefaultMaxConcurrent is MaxConcurrent's default: 32 per CPU the process may use (GOMAXPROCS,
// which follows a container's CPU limit), at least 16. Operations are CPU-bound (SQLite in process,
// decode, encode) or wait briefly on PostgreSQL, so a few dozen per core keep every core busy and
// feed the SQLite group commit; more running at once only share the same cores, each taking longer
// (at 256 on two cores a request held its slot ~11 ms waiting for CPU).
func DefaultMaxConcurrent() int {
	return max(16, 32*runtime.GOMAXPROCS(0))
}

// withDefaults fills every zero (or negative) field of l from DefaultAdmissionLimits.
func (l AdmissionLimits) withDefaults() AdmissionLimits {
	d := DefaultAdmissionLimits()
	if l.MaxPending <= 0 {
		l.MaxPending = d.MaxPending
	}
	if l.MaxBodyBytesInFlight <= 0 {
		l.MaxBodyBytesInFlight = d.MaxBodyBytesInFlight
	}
	if l.MinBodyRate <= 0 {
		l.MinBodyRate = d.MinBodyRate
	}
	if l.QueueTimeout <= 0 {
		l.QueueTimeout = d.QueueTimeout
	}
	return l
}

// admission holds the three gates of a Handler.
type admission struct {
	limits    AdmissionLimits
	grace     time.Duration
	maxBody   int64
	pending   atomic.Int64
	bodyBytes atomic.Int64
	// slots holds one token per running operation request; its capacity is MaxConcurrent.
	slots chan struct{}
}

func newAdmission(l Limits) *admission {
	return &admission{limits: l.AdmissionLimits, grace: bodyReadGrace, maxBody: l.MaxBodyBytes, slots: make(chan struct{}, l.MaxConcurrent)}
}

// errBusy is the refusal of every gate: the request may be retried as it is.
func errBusy() *Error { return errorf(CodeUnavailable, "The service is busy; retry shortly.") }

// admit reads r's body and takes an operation slot, through the gates above. It returns the body and
// release, which the caller must call once the response is written (also after an error): it gives
// back the slot, the pending place, the reserved bytes and the buffer. On an error that leaves body
// bytes unread on the connection, admit asks for the connection to be closed after the response,
// so the server does not read and discard them for a request it refused.
func (a *admission) admit(w http.ResponseWriter, r *http.Request) (body []byte, release func(), err *Error) {
	if r.ContentLength > a.maxBody {
		w.Header().Set("Connection", "close")
		return nil, func() {}, errorf(CodeTooLarge, "The request body is larger than %d bytes.", a.maxBody)
	}
	if a.pending.Add(1) > int64(a.limits.MaxPending) {
		a.pending.Add(-1)
		w.Header().Set("Connection", "close")
		return nil, func() {}, errBusy()
	}
	var reserved int64
	buf := getBuffer()
	holdsSlot := false
	pendingHeld := true
	release = func() {
		if pendingHeld {
			a.pending.Add(-1)
		}
		if holdsSlot {
			<-a.slots
		}
		a.bodyBytes.Add(-reserved)
		if cap(*buf) <= 64<<10 {
			*buf = (*buf)[:0]
			putBuffer(buf)
		}
	}
	if r.ContentLength != 0 {
		*buf, reserved, err = a.readBody(w, r, *buf)
		if err != nil {
			w.Header().Set("Connection", "close")
			return nil, release, err
		}
	}
	select {
	case a.slots <- struct{}{}:
	default:
		t := time.NewTimer(a.limits.QueueTimeout)
		defer t.Stop()
		select {
		case a.slots <- struct{}{}:
		case <-t.C:
			return nil, release, errBusy()
		case <-r.Context().Done():
			return nil, release, errBusy() // the client is gone; nobody reads this answer
		}
	}
	holdsSlot = true
	a.pending.Add(-1)
	pendingHeld = false
	return *buf, release, nil
}

// reserve takes n bytes of the in-flight body budget, or reports that it cannot.
func (a *admission) reserve(n int64) bool {
	if a.bodyBytes.Add(n) > a.limits.MaxBodyBytesInFlight {
		a.bodyBytes.Add(-n)
		return false
	}
	return true
}

// readBody reads the whole body into buf, within maxBody, cutting off a body slower than
// MinBodyRate. Memory is reserved from the in-flight budget as the buffer grows, never ahead of the
// bytes: a client announcing a large Content-Length holds only what it has sent (times the growth
// factor), so it cannot fill the budget by announcing alone. The buffer grows fourfold, capped at the
// announced length, so a body of n bytes costs at most about 1.33 n of allocation when it arrives
// whole (a 1 MiB body: 16, 64, 256 KiB, then 1 MiB). It returns the bytes reserved, which the caller
// gives back, also on an error.
func (a *admission) readBody(w http.ResponseWriter, r *http.Request, buf []byte) (_ []byte, reserved int64, _ *Error) {
	ceiling := a.maxBody + 1 // one byte more than allowed, to see that a body is too large
	if r.ContentLength > 0 {
		ceiling = r.ContentLength // net/http never returns more than announced
	}
	if !a.reserve(int64(cap(buf))) {
		return buf, 0, errBusy()
	}
	reserved = int64(cap(buf))

	// The rate is enforced with the connection's read deadline: before each read, the deadline is
	// the grace plus the time the bytes so far take at MinBodyRate, so a client must keep what it
	// has sent ahead of the rate to be read further. The deadline is
	// cleared after, whatever the outcome, since net/http keeps reading the connection in the
	// background once the body is done (to notice a client hanging up) and an expired deadline there
	// would cancel the request's context. Writers that cannot set deadlines (httptest) leave the
	// body to --read-timeout alone.
	rc := http.NewResponseController(w)
	start := time.Now()
	deadlines := true
	defer func() {
		if deadlines {
			_ = rc.SetReadDeadline(time.Time{})
		}
	}()
	rate := a.limits.MinBodyRate
	tooLarge := func() *Error { return errorf(CodeTooLarge, "The request body is larger than %d bytes.", a.maxBody) }
	for {
		if len(buf) == cap(buf) && int64(cap(buf)) < ceiling {
			grow := min(int64(cap(buf))*3, ceiling-int64(cap(buf)))
			if !a.reserve(grow) {
				return buf, reserved, errBusy()
			}
			reserved += grow
			next := make([]byte, len(buf), int64(cap(buf))+grow)
			copy(next, buf)
			buf = next
		}
		if deadlines {
			expected := float64(len(buf)) / float64(rate)
			if err := rc.SetReadDeadline(start.Add(a.grace + time.Duration(expected*float64(time.Second)))); err != nil {
				deadlines = false
			}
		}
		// When a known length has arrived whole, this is a read of nothing, which returns io.EOF:
		// net/http then knows the body is done.
		n, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > a.maxBody {
			return buf, reserved, tooLarge()
		}
		switch {
		case err == nil:
		case err == io.EOF:
			return buf, reserved, nil
		case isTimeout(err):
			return buf, reserved, errorf(CodeMalformedRequest, "The request body arrived slower than %s bytes per second.", strconv.FormatInt(rate, 10))
		default:
			var maxBytes *http.MaxBytesError
			if errors.As(err, &maxBytes) {
				return buf, reserved, tooLarge()
			}
			return buf, reserved, errorf(CodeMalformedRequest, "The request body could not be read.")
		}
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
