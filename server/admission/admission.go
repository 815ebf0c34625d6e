package admission

import (
	"errors"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/fault"
)

// Limits bound what requests may hold before they run and how many run at once. New takes them
// complete: DefaultLimits with any field changed, or the server's limits tree with its defaults filled.
type Limits struct {
	// MaxBodyBytes is the largest request body accepted.
	MaxBodyBytes int64
	// MaxConcurrent is how many operation requests run at once (the operation slots); more wait up to
	// QueueTimeout, then are refused with 503 and Retry-After, so overload never builds an unbounded
	// backlog.
	MaxConcurrent int
	// MaxPending is how many requests may read their body or wait for an operation slot at once.
	MaxPending int
	// MaxBodyBytesInFlight bounds the request bodies held in memory at once, in bytes.
	MaxBodyBytesInFlight int64
	// MinBodyRate is the slowest a request body may arrive, in bytes per second, once BodyReadGrace
	// has passed; a slower one is cut off.
	MinBodyRate int64
	// BodyReadGrace is the time every body gets on top of its size at MinBodyRate: a round trip or two
	// of a slow network and the client's scheduling, so a small body is never cut off by the rate. It
	// is no setting of serve's; tests shorten it.
	BodyReadGrace time.Duration
	// QueueTimeout is how long a request whose body has been read waits for an operation slot
	// before it is refused with 503.
	QueueTimeout time.Duration
}

// DefaultLimits returns the admission limits used when none are configured.
func DefaultLimits() Limits {
	return Limits{
		MaxBodyBytes:         1 << 20,
		MaxConcurrent:        DefaultMaxConcurrent(),
		MaxPending:           1024,
		MaxBodyBytesInFlight: 64 << 20,
		MinBodyRate:          8 << 10,
		BodyReadGrace:        2 * time.Second,
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

// Gates are the three gates of one handler. They are safe for concurrent use.
type Gates struct {
	limits    Limits
	pending   atomic.Int64
	bodyBytes atomic.Int64
	// slots holds one token per running operation request; its capacity is MaxConcurrent.
	slots chan struct{}
}

// New returns the gates for l, which must be complete (every field positive).
func New(l Limits) *Gates {
	return &Gates{limits: l, slots: make(chan struct{}, l.MaxConcurrent)}
}

// PrefixChecker refuses a request body from its first bytes, before the rest is read: the SOAP
// binding's parse budget, which a flood breaks within its first kilobytes (binding.Binding has it).
type PrefixChecker interface {
	CheckPrefix(prefix []byte) *fault.Error
}

// Why a gate refused a request: the cause (fault.Error's Err) of its refusal, which the caller sees only
// as "busy" but the debug log names.
var (
	ErrPendingFull  = errors.New("shed: --max-pending requests are reading their body or waiting for an operation slot already")
	ErrBodyBudget   = errors.New("shed: the request bodies held in memory reached --max-body-bytes-in-flight")
	ErrQueueTimeout = errors.New("shed: no operation slot (--max-concurrent) came free within --queue-timeout")
	ErrClientGone   = errors.New("the client went away while the request waited for an operation slot")
)

// errBusy is the refusal of every gate: the request may be retried as it is. cause says which gate.
func errBusy(cause error) *fault.Error {
	return &fault.Error{Code: fault.Unavailable, Message: "The service is busy; retry shortly.", Err: cause}
}

// Ticket is what an admitted (or refused) request holds; Release gives it all back. It is a value,
// not a closure, so admitting a request allocates nothing.
type Ticket struct {
	a        *Gates
	buf      *[]byte // the body's buffer, from a pool
	reserved int64   // bytes taken from the in-flight budget
	pending  bool    // holds a pending place
	slot     bool    // holds an operation slot
	// Queued is how long Enter waited for an operation slot: zero when one was free at once.
	Queued time.Duration
}

// Release gives back the slot, the pending place, the reserved bytes and the buffer. The caller
// calls it once the response is written, also after an error; the body must not be used after.
func (t *Ticket) Release() {
	if t.a == nil {
		return
	}
	if t.pending {
		t.a.pending.Add(-1)
	}
	if t.slot {
		<-t.a.slots
	}
	t.a.bodyBytes.Add(-t.reserved)
	if t.buf != nil {
		putBodyBuffer(t.buf)
	}
	*t = Ticket{}
}

// Admit reads r's body through the first two gates (a pending place, the body bytes); check, when not
// nil, may refuse the body from its first bytes as they arrive. It returns the body and the ticket to
// release once the response is written (also after an error); the request then decodes and
// authenticates, and takes an operation slot with Enter before it runs. On an error that leaves body
// bytes unread on the connection, Admit asks for an HTTP/1 connection to be closed after the response
// (closeAfter), so the server does not read and discard them for a request it refused.
func (a *Gates) Admit(w http.ResponseWriter, r *http.Request, check PrefixChecker) (body []byte, t Ticket, err *fault.Error) {
	if r.ContentLength > a.limits.MaxBodyBytes {
		closeAfter(w, r)
		return nil, t, fault.Errorf(fault.TooLarge, "The request body is larger than %d bytes.", a.limits.MaxBodyBytes)
	}
	if a.pending.Add(1) > int64(a.limits.MaxPending) {
		a.pending.Add(-1)
		closeAfter(w, r)
		return nil, t, errBusy(ErrPendingFull)
	}
	t = Ticket{a: a, pending: true, buf: binding.GetBuffer()}
	if r.ContentLength != 0 {
		if err := a.readBody(w, r, &t, check); err != nil {
			closeAfter(w, r)
			return nil, t, err
		}
	}
	return *t.buf, t, nil
}

// Enter takes an operation slot for an admitted request, waiting up to QueueTimeout (first come,
// first served), and gives up its pending place. The slot is given back by t.Release. A request that
// had to wait has the wait in t.Queued.
func (a *Gates) Enter(t *Ticket, r *http.Request) *fault.Error {
	select {
	case a.slots <- struct{}{}:
	default:
		queued := time.Now()
		timer := time.NewTimer(a.limits.QueueTimeout)
		defer timer.Stop()
		select {
		case a.slots <- struct{}{}:
			t.Queued = max(time.Since(queued), time.Nanosecond)
		case <-timer.C:
			t.Queued = a.limits.QueueTimeout
			return errBusy(ErrQueueTimeout)
		case <-r.Context().Done():
			t.Queued = time.Since(queued)
			return errBusy(ErrClientGone) // nobody reads this answer
		}
	}
	t.slot = true
	a.pending.Add(-1)
	t.pending = false
	return nil
}

// closeAfter asks for the connection to be closed after the response, rather than have net/http read
// and discard a body the request was refused for. Only on HTTP/1: on HTTP/2 the unread stream is
// reset by itself, and Connection: close would shut the client's whole connection down (every
// stream on it) with a GOAWAY.
func closeAfter(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor == 1 {
		w.Header()["Connection"] = headerClose
	}
}

var headerClose = []string{"close"}

// reserve takes n bytes of the in-flight budget for t, or reports that it cannot.
func (a *Gates) reserve(t *Ticket, n int64) bool {
	if a.bodyBytes.Add(n) > a.limits.MaxBodyBytesInFlight {
		a.bodyBytes.Add(-n)
		return false
	}
	t.reserved += n
	return true
}

// Body buffers come from pools by size class: 4 KiB (binding's pool, shared with the responses) and
// then each fourfold larger class, so that large bodies, an attacker's above all, are read into
// recycled memory rather than freshly allocated and zeroed each time (that was a third of the
// server's CPU under a flood of 1 MiB bodies). A buffer of any other size (a class capped at the
// announced length) is allocated and left to the collector.
const (
	smallBuffer  = binding.SmallBuffer
	bodyClasses  = 12 // 16 KiB … 64 GiB, far beyond any --max-body-bytes
	classFactor  = 4
	firstClassAt = smallBuffer * classFactor
)

var bodyPools [bodyClasses]sync.Pool

// bodyClass returns the pool index of a buffer capacity, or -1 when it is not a class size.
func bodyClass(capacity int) int {
	size := firstClassAt
	for i := range bodyClasses {
		if capacity == size {
			return i
		}
		size *= classFactor
	}
	return -1
}

// getBodyBuffer returns an empty buffer of capacity n, from its class pool when n is a class size.
func getBodyBuffer(n int) *[]byte {
	if i := bodyClass(n); i >= 0 {
		if b, ok := bodyPools[i].Get().(*[]byte); ok {
			return b
		}
	}
	b := make([]byte, 0, n)
	return &b
}

// putBodyBuffer recycles a body buffer in the pool of its size, if any.
func putBodyBuffer(b *[]byte) {
	*b = (*b)[:0]
	switch c := cap(*b); {
	case c <= smallBuffer:
		binding.PutBuffer(b)
	case bodyClass(c) >= 0:
		bodyPools[bodyClass(c)].Put(b)
	}
}

// readBody reads the whole body into t's buffer, within MaxBodyBytes, cutting off a body slower than
// MinBodyRate. Memory is reserved from the in-flight budget as the buffer grows, never ahead of the
// bytes: a client announcing a large Content-Length holds only what it has sent (times the growth
// factor), so it cannot fill the budget by announcing alone. The buffer grows fourfold through the
// pooled size classes; a last class more than twice the body's length is replaced by the length.
func (a *Gates) readBody(w http.ResponseWriter, r *http.Request, t *Ticket, check PrefixChecker) *fault.Error {
	ceiling := a.limits.MaxBodyBytes
	if r.ContentLength > 0 {
		ceiling = r.ContentLength // net/http never returns more than announced
	}
	if !a.reserve(t, int64(cap(*t.buf))) {
		return errBusy(ErrBodyBudget)
	}

	// The rate is enforced with the connection's read deadline: before each read, the deadline is
	// the grace plus the time the bytes so far take at MinBodyRate, so a client must keep what it
	// has sent ahead of the rate to be read further. The deadline is cleared after, whatever the
	// outcome, since net/http keeps reading the connection in the background once the body is done
	// (to notice a client hanging up) and an expired deadline there would cancel the request's
	// context. Writers that cannot set deadlines (httptest) leave the body to --read-timeout alone.
	rc := readDeadliner(w)
	start := time.Now()
	deadlines := rc != nil
	defer func() {
		if deadlines {
			_ = rc.SetReadDeadline(time.Time{})
		}
	}()
	rate := a.limits.MinBodyRate
	for {
		buf := *t.buf
		space := buf[len(buf):cap(buf)]
		probing := false
		if len(space) == 0 {
			if int64(len(buf)) >= ceiling {
				// Full at the ceiling: for a known length this read returns io.EOF, which tells
				// net/http the body is done; without one, any byte more is one too many.
				// (Allocated here, not up front: a buffer passed to Read escapes, and this is rare.)
				space, probing = make([]byte, 1), true
			} else {
				// A body whose bytes so far already break the binding's limits (a SOAP envelope
				// over its parse budget) is refused here, before more of it is read: the check reads
				// left to right and stops at the first excess, so its refusal on the bytes so far is
				// the one the whole body would get. A flood is thus refused after its first 4 KiB
				// rather than after 1 MiB.
				if check != nil {
					if err := check.CheckPrefix(buf); err != nil {
						return err
					}
				}
				// The next class, unless it is more than twice what can still arrive: then exactly that.
				next := int64(cap(buf)) * classFactor
				if next > 2*ceiling {
					next = ceiling
				}
				if !a.reserve(t, next-int64(cap(buf))) {
					return errBusy(ErrBodyBudget)
				}
				grown := getBodyBuffer(int(next))
				*grown = append(*grown, buf...)
				putBodyBuffer(t.buf)
				t.buf = grown
				buf = *grown
				space = buf[len(buf):cap(buf)]
			}
		}
		if deadlines {
			expected := float64(len(buf)) / float64(rate)
			if err := rc.SetReadDeadline(start.Add(a.limits.BodyReadGrace + time.Duration(expected*float64(time.Second)))); err != nil {
				deadlines = false
			}
		}
		n, err := r.Body.Read(space)
		if probing {
			if n > 0 {
				return fault.Errorf(fault.TooLarge, "The request body is larger than %d bytes.", a.limits.MaxBodyBytes)
			}
		} else {
			*t.buf = buf[:len(buf)+n]
			if int64(len(*t.buf)) > a.limits.MaxBodyBytes { // a class buffer may hold more than MaxBodyBytes
				return fault.Errorf(fault.TooLarge, "The request body is larger than %d bytes.", a.limits.MaxBodyBytes)
			}
		}
		switch {
		case err == nil:
		case err == io.EOF:
			return nil
		case isTimeout(err):
			return fault.Errorf(fault.MalformedRequest, "The request body arrived slower than %s bytes per second.", strconv.FormatInt(rate, 10))
		default:
			var maxBytes *http.MaxBytesError
			if errors.As(err, &maxBytes) {
				return fault.Errorf(fault.TooLarge, "The request body is larger than %d bytes.", a.limits.MaxBodyBytes)
			}
			return fault.Errorf(fault.MalformedRequest, "The request body could not be read.")
		}
	}
}

// readDeadliner finds the connection's read deadline behind w, through writers that wrap it (Unwrap),
// as http.ResponseController does, but without allocating an error when there is none.
func readDeadliner(w http.ResponseWriter) interface{ SetReadDeadline(time.Time) error } {
	for {
		switch t := w.(type) {
		case interface{ SetReadDeadline(time.Time) error }:
			return t
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return nil
		}
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
