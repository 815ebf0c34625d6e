// Package pgtest gives tests an isolated PostgreSQL schema and a TCP proxy that can cut the database
// off. Tests find the server through CONTACTSYNC_TEST_POSTGRES, a DSN such as
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable. Without it they skip, except under CI=true,
// where a missing DSN fails the test, so CI can never pass by silently testing nothing.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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
// store and PostgreSQL and cut the database off with Down or Blackhole, without touching the server.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu        sync.Mutex
	listener  net.Listener // nil while down
	conns     map[net.Conn]struct{}
	blackhole bool
	wg        sync.WaitGroup
}

// NewProxy starts a proxy on 127.0.0.1:0 forwarding to target (host:port) and stops it when t ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	p := &Proxy{t: t, target: target, conns: make(map[net.Conn]struct{})}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("pgtest: proxy listen: %v", err)
	}
	p.addr = l.Addr().String()
	p.serve(l)
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's host:port; it stays the same across Down and Up.
func (p *Proxy) Addr() string { return p.addr }

// Down closes the listening socket (new connections are refused) and every proxied connection (the
// store sees them break), as if the database server went away.
func (p *Proxy) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listener != nil {
		_ = p.listener.Close()
		p.listener = nil
	}
	p.dropLocked()
}

// Blackhole keeps accepting connections but forwards nothing in either direction, and drops the
// connections already open, as if the network silently lost every packet: only time-outs can tell.
func (p *Proxy) Blackhole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blackhole = true
	p.dropLocked()
	if p.listener == nil {
		p.listenLocked()
	}
}

// Up restores forwarding, listening again on the same address if Down closed it.
func (p *Proxy) Up() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blackhole = false
	p.dropLocked() // black-holed connections never carried a byte; the store reconnects
	if p.listener == nil {
		p.listenLocked()
	}
}

func (p *Proxy) listenLocked() {
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Errorf("pgtest: proxy listen again on %s: %v", p.addr, err)
		return
	}
	p.serve(l)
}

func (p *Proxy) dropLocked() {
	for c := range p.conns {
		_ = c.Close()
	}
	clear(p.conns)
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
			p.conns[c] = struct{}{}
			hole := p.blackhole
			p.mu.Unlock()
			if hole {
				continue // held open, never read: closed by the next Up, Down or Blackhole
			}
			p.wg.Go(func() { p.forward(c) })
		}
	})
}

// forward connects c to the target and copies both ways until either side closes.
func (p *Proxy) forward(c net.Conn) {
	up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	if _, ok := p.conns[c]; !ok { // dropped while dialing
		p.mu.Unlock()
		_ = c.Close()
		_ = up.Close()
		return
	}
	p.conns[up] = struct{}{}
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done
	_ = c.Close()
	_ = up.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// close stops the proxy and waits for its goroutines.
func (p *Proxy) close() {
	p.mu.Lock()
	if p.listener != nil {
		_ = p.listener.Close()
		p.listener = nil
	}
	p.dropLocked()
	p.mu.Unlock()
	p.wg.Wait()
}
