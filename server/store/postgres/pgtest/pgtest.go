// Package pgtest gives tests an isolated PostgreSQL schema and a TCP proxy that can cut the database
// off. Tests find the server through CONTACTSYNC_TEST_POSTGRES, a DSN such as
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable. Without it they skip, except under CI=true,
// where a missing DSN fails the test, so CI can never pass by silently testing nothing.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvDSN names the environment variable holding the test database's DSN.
const EnvDSN = "CONTACTSYNC_TEST_POSTGRES"

// DSN returns the test database's DSN, skipping t when none is configured (failing it under CI=true).
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		msg := EnvDSN + " is not set; set it to a PostgreSQL DSN (e.g. " +
			"postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the PostgreSQL tests"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true: the PostgreSQL tests must run in CI)")
		}
		t.Skip(msg)
	}
	return dsn
}

// Schema creates a schema with a unique name in the test database, drops it (with everything in it)
// when t ends, and returns the DSN with search_path set to it: every table a store creates through
// that DSN lands in the schema, so parallel tests and packages never see each other's rows.
func Schema(t testing.TB) string {
	t.Helper()
	base := DSN(t)
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "contactsync_test_" + hex.EncodeToString(b[:])

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("pgtest: connect to %s: %v", EnvDSN, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("pgtest: create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("pgtest: drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+name+" CASCADE"); err != nil {
			t.Errorf("pgtest: drop schema %s: %v", name, err)
		}
	})
	return WithParam(t, base, "search_path", name)
}

// WithParam returns dsn with the connection parameter key set to value, for URL and key=value DSNs.
func WithParam(t testing.TB, dsn, key, value string) string {
	t.Helper()
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatalf("pgtest: %s is not a valid URL: %v", EnvDSN, err)
		}
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " " + key + "=" + value
}

// WithHostPort returns dsn with the server address replaced by hostport (a URL DSN, or a key=value
// DSN whose later host and port settings win), to route a connection through a Proxy.
func WithHostPort(t testing.TB, dsn, hostport string) string {
	t.Helper()
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatalf("pgtest: %s is not a valid URL: %v", EnvDSN, err)
		}
		u.Host = hostport
		return u.String()
	}
	return dsn + " host=" + host + " port=" + port
}

// Target returns the host:port of the server dsn names.
func Target(t testing.TB, dsn string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatalf("pgtest: parse %s: %v", EnvDSN, err)
	}
	return net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
}

// Proxy forwards TCP connections from a loopback port to the database server. Tests put it between a
// store and PostgreSQL and cut the database off without touching the server, in each of the ways a
// network or a database host fails:
//
//   - Down: the server is gone. New connections are refused, open ones closed.
//   - Blackhole: every packet is lost for good. New connections are accepted but nothing is forwarded,
//     and the open ones are dropped; only time-outs can tell.
//   - Hold: a partition that heals. Nothing crosses while it lasts, but what either side sends into it
//     (bytes, and the end of its stream) is kept and delivered once Up heals it, as TCP retransmission
//     does. This is what lets a statement sent just before a client gave up reach the server later.
//   - Reset: a middlebox or a restarted host resets every open connection (RST), and new ones too.
//
// Up restores forwarding after any of them.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	changing sync.Mutex // one mode change at a time: Up delivers what a hold kept without holding mu

	mu       sync.Mutex
	listener net.Listener // nil while down
	mode     proxyMode
	held     []*heldChunk // what a hold keeps, in the order it was sent
	holdAt   func(toServer []byte) bool
	resetAt  func(toServer []byte) bool
	pairs    map[*pair]struct{}
	wg       sync.WaitGroup
}

type proxyMode int

const (
	forwarding proxyMode = iota
	down
	blackholed
	holding
	releasing // Up is delivering what a hold kept; what arrives meanwhile queues behind it
	resetting
)

// pair is one proxied connection: the client's side, the server's side (nil until dialed, and for a
// black-holed connection) and what is in flight through it.
type pair struct {
	client, server net.Conn
	dead           chan struct{} // closed when the pair is dropped or reset

	// Guarded by Proxy.mu: inFlight counts chunks read from either side and not yet passed on, and
	// awaitingServer is set when something was sent to the server and nothing has come back since (no
	// answer, no close). Delivered reads both.
	inFlight       int
	awaitingServer bool
	since          time.Time // when awaitingServer was last set
	last           string    // the start of the chunk last sent to the server, for InFlight
	serverDone     bool      // the server's side has ended: nothing sent to it will be answered
	resetOnAnswer  bool      // ResetAt matched: the server's next bytes reset the pair instead of crossing
}

// heldChunk is one chunk (or the end of a stream) a pipe keeps during a hold until its turn comes.
type heldChunk struct {
	pr       *pair
	toServer bool
	turn     chan struct{} // closed when the chunk may be written
	passed   chan struct{} // closed once it was written, or lost with its pair
}

// How long Up waits for each kept chunk: for its write (a peer that reads nothing may block it), and
// for the server's answer to a chunk sent to it, before delivering the next one anyway.
const (
	releaseWriteWait  = time.Second
	releaseAnswerWait = 100 * time.Millisecond
)

// NewProxy starts a proxy on 127.0.0.1:0 forwarding to target (host:port) and stops it when t ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	p := &Proxy{t: t, target: target, pairs: make(map[*pair]struct{})}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("pgtest: proxy listen: %v", err)
	}
	p.addr = l.Addr().String()
	p.serve(l)
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's host:port; it stays the same whatever the mode.
func (p *Proxy) Addr() string { return p.addr }

// Down closes the listening socket (new connections are refused) and every proxied connection (the
// store sees them break), as if the database server went away.
func (p *Proxy) Down() {
	p.changing.Lock()
	defer p.changing.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = down
	p.holdAt = nil
	if p.listener != nil {
		_ = p.listener.Close()
		p.listener = nil
	}
	p.dropLocked(false)
}

// Blackhole keeps accepting connections but forwards nothing in either direction, and drops the
// connections already open, as if the network silently lost every packet: only time-outs can tell.
func (p *Proxy) Blackhole() {
	p.changing.Lock()
	defer p.changing.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode, p.holdAt = blackholed, nil
	p.dropLocked(false)
	p.listenLocked()
}

// Hold partitions the database off while keeping what is sent into the partition: open connections
// stay open, new ones are accepted, and what either side sends (bytes, and the end of its stream)
// waits in the proxy until Up delivers it.
func (p *Proxy) Hold() {
	p.changing.Lock()
	defer p.changing.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.mode {
	case holding:
		p.holdAt = nil
		return
	case forwarding:
	default:
		p.dropLocked(false) // a hold after another cut starts from nothing carried over
	}
	p.mode, p.holdAt = holding, nil
	p.listenLocked()
}

// HoldAt arms a hold that starts with the first chunk sent toward the server that match accepts: that
// chunk is the first one kept. Tests use it to partition at an exact point of a protocol exchange, such
// as right before a COMMIT reaches the server. The proxy forwards as usual until then.
func (p *Proxy) HoldAt(match func(toServer []byte) bool) {
	p.changing.Lock()
	defer p.changing.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holdAt = match
}

// ResetAt arms a reset that loses an answer: the first chunk sent toward the server that match accepts
// is delivered, and its connection is reset (an RST to both sides) as soon as the server answers, so
// the server acts on the chunk and the client never learns what it did. Tests use it to lose the
// answer to a COMMIT that the server carried out.
func (p *Proxy) ResetAt(match func(toServer []byte) bool) {
	p.changing.Lock()
	defer p.changing.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.resetAt = match
}

// Reset resets every proxied connection (both sides get an RST, losing whatever was in flight) and
// resets each new one as soon as it is accepted, until Up.
func (p *Proxy) Reset() {
	p.changing.Lock()
	defer p.changing.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode, p.holdAt = resetting, nil
	p.dropLocked(true)
	p.listenLocked()
}

// Up restores forwarding: it listens again if Down closed the listener, drops the connections a
// black hole swallowed (they never carried a byte; the store reconnects), and ends a hold. What the
// hold kept is delivered in the order it was sent, each chunk sent to the server once the server has
// answered the one before (or a moment passed): of the orders in which a healed network may deliver
// it, the one in which a statement sent before a client gave up is sure to run before anything sent
// after, such as the cancel request a client sends when it gives up. Up returns when it has all been
// delivered.
func (p *Proxy) Up() {
	p.changing.Lock()
	defer p.changing.Unlock()
	p.mu.Lock()
	p.holdAt, p.resetAt = nil, nil
	switch p.mode {
	case blackholed:
		p.dropLocked(false)
	case holding:
		p.mode = releasing
		p.mu.Unlock()
		p.release()
		p.mu.Lock()
	}
	p.mode = forwarding
	p.listenLocked()
	p.mu.Unlock()
}

// release lets the kept chunks through one at a time, in order, until none is left.
func (p *Proxy) release() {
	for {
		p.mu.Lock()
		if len(p.held) == 0 {
			p.mode = forwarding // under the lock that saw the queue empty: nothing can queue behind it
			p.mu.Unlock()
			return
		}
		hc := p.held[0]
		p.held = p.held[1:]
		p.mu.Unlock()
		close(hc.turn)
		select {
		case <-hc.passed:
		case <-time.After(releaseWriteWait):
			continue
		}
		if !hc.toServer {
			continue
		}
		deadline := time.Now().Add(releaseAnswerWait)
		for time.Now().Before(deadline) {
			p.mu.Lock()
			waiting := hc.pr.awaitingServer
			p.mu.Unlock()
			if !waiting {
				break
			}
			select {
			case <-hc.pr.dead:
				deadline = time.Time{}
			case <-time.After(time.Millisecond):
			}
		}
	}
}

// Delivered waits, up to timeout, until nothing the proxy carries is in flight: every chunk read has
// been passed on, and the server has answered, or closed, whatever was last sent to it. After Up ends
// a hold, it returns once the server has seen and acted on everything the hold kept, so a test can
// look at the database without sleeping. It reports whether that happened in time.
func (p *Proxy) Delivered(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		p.mu.Lock()
		busy := false
		for pr := range p.pairs {
			if pr.inFlight > 0 || pr.awaitingServer {
				busy = true
				break
			}
		}
		p.mu.Unlock()
		if !busy {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// InFlight describes what Delivered waits for, one line per connection, for a test's failure message.
func (p *Proxy) InFlight() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for pr := range p.pairs {
		if pr.inFlight == 0 && !pr.awaitingServer {
			continue
		}
		line := fmt.Sprintf("%s: %d chunks being passed on", pr.client.RemoteAddr(), pr.inFlight)
		if pr.awaitingServer {
			line += fmt.Sprintf(", no answer from the server for %v to %s", time.Since(pr.since).Round(time.Millisecond), pr.last)
		}
		out = append(out, line)
	}
	return out
}

// listenLocked listens again on the proxy's address unless it already does.
func (p *Proxy) listenLocked() {
	if p.listener != nil {
		return
	}
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Errorf("pgtest: proxy listen again on %s: %v", p.addr, err)
		return
	}
	p.serve(l)
}

// dropLocked closes every proxied connection, with an RST when reset is set (SO_LINGER 0) and a plain
// close otherwise, and forgets what a hold kept for them.
func (p *Proxy) dropLocked(reset bool) {
	for pr := range p.pairs {
		pr.close(reset)
	}
	clear(p.pairs)
	p.held = nil
}

func (pr *pair) close(reset bool) {
	select {
	case <-pr.dead:
	default:
		close(pr.dead)
	}
	for _, c := range []net.Conn{pr.client, pr.server} {
		if c == nil {
			continue
		}
		if tc, ok := c.(*net.TCPConn); ok && reset {
			_ = tc.SetLinger(0)
		}
		_ = c.Close()
	}
}

// serve accepts on l until l is closed. Callers hold p.mu or are NewProxy.
func (p *Proxy) serve(l net.Listener) {
	p.listener = l
	p.wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			if p.listener != l {
				p.mu.Unlock()
				_ = c.Close()
				return
			}
			pr := &pair{client: c, dead: make(chan struct{})}
			switch p.mode {
			case resetting:
				pr.close(true)
				p.mu.Unlock()
				continue
			case blackholed:
				p.pairs[pr] = struct{}{} // held open, never read: closed by the next mode change
				p.mu.Unlock()
				continue
			}
			p.pairs[pr] = struct{}{}
			p.mu.Unlock()
			p.wg.Go(func() { p.forward(pr) })
		}
	})
}

// forward connects the pair to the target and copies both ways until both sides have closed.
func (p *Proxy) forward(pr *pair) {
	up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		_ = pr.client.Close()
		return
	}
	p.mu.Lock()
	if _, ok := p.pairs[pr]; !ok { // dropped while dialing
		p.mu.Unlock()
		_ = pr.client.Close()
		_ = up.Close()
		return
	}
	pr.server = up
	p.mu.Unlock()
	var both sync.WaitGroup
	both.Go(func() { p.pipe(pr, up, pr.client, true) })
	both.Go(func() { p.pipe(pr, pr.client, up, false) })
	both.Wait()
	p.mu.Lock()
	delete(p.pairs, pr)
	p.mu.Unlock()
	_ = pr.client.Close()
	_ = up.Close()
}

// pipe copies src to dst one chunk at a time, each passed on as the mode allows. A failed write does
// not stop the reading: the rest of src is drained and discarded, as a network drops what a dead host
// no longer takes, so the other direction is still delivered. When src ends, dst is half-closed (a
// FIN after the data), in its turn like a chunk.
func (p *Proxy) pipe(pr *pair, dst, src net.Conn, toServer bool) {
	buf := make([]byte, 32<<10)
	writable := true
	for {
		n, err := src.Read(buf)
		p.mu.Lock()
		if !toServer {
			pr.awaitingServer = false // the server answered or closed
		}
		if n > 0 {
			pr.inFlight++
		}
		p.mu.Unlock()
		if n > 0 {
			p.pass(pr, toServer, buf[:n], func() bool {
				if writable {
					if _, werr := dst.Write(buf[:n]); werr != nil {
						writable = false
					}
				}
				return writable
			})
		}
		if err != nil {
			break
		}
	}
	p.mu.Lock()
	if !toServer {
		pr.serverDone, pr.awaitingServer = true, false
	}
	pr.inFlight++
	p.mu.Unlock()
	p.pass(pr, toServer, nil, func() bool {
		if tc, ok := dst.(*net.TCPConn); ok {
			return tc.CloseWrite() == nil
		}
		return dst.Close() == nil
	})
}

// pass calls write, which passes one chunk read from a pair on (nil: the end of the stream), at once
// while forwarding, or in its turn once a hold is over; never if the pair is dropped meanwhile.
func (p *Proxy) pass(pr *pair, toServer bool, chunk []byte, write func() bool) {
	var hc *heldChunk
	p.mu.Lock()
	if p.mode == forwarding && toServer && chunk != nil && p.holdAt != nil && p.holdAt(chunk) {
		p.mode, p.holdAt = holding, nil
	}
	if p.mode == forwarding && toServer && chunk != nil && p.resetAt != nil && p.resetAt(chunk) {
		pr.resetOnAnswer, p.resetAt = true, nil
	}
	if !toServer && pr.resetOnAnswer {
		pr.close(true)
		delete(p.pairs, pr)
	}
	if p.mode == holding || p.mode == releasing {
		hc = &heldChunk{pr: pr, toServer: toServer, turn: make(chan struct{}), passed: make(chan struct{})}
		p.held = append(p.held, hc)
	}
	p.mu.Unlock()
	live := true
	if hc != nil {
		select {
		case <-hc.turn:
		case <-pr.dead:
			live = false
		}
	}
	wrote := false
	if live {
		if toServer {
			// Marked before the write: the server may answer before write returns, and the answer
			// must find the mark to clear it.
			p.mu.Lock()
			if !pr.serverDone {
				pr.awaitingServer, pr.since = true, time.Now()
				pr.last = fmt.Sprintf("%q (%d bytes)", chunk[:min(len(chunk), 24)], len(chunk))
			}
			p.mu.Unlock()
		}
		wrote = write()
	}
	p.mu.Lock()
	pr.inFlight--
	if toServer && live && !wrote {
		pr.awaitingServer = false // the server will not answer what it never got
	}
	p.mu.Unlock()
	if hc != nil {
		close(hc.passed)
	}
}

// close stops the proxy and waits for its goroutines.
func (p *Proxy) close() {
	p.changing.Lock()
	defer p.changing.Unlock()
	p.mu.Lock()
	p.mode = down
	if p.listener != nil {
		_ = p.listener.Close()
		p.listener = nil
	}
	p.dropLocked(false)
	p.mu.Unlock()
	p.wg.Wait()
}
