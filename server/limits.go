package server

import (
	"log/slog"
	"net/http"
	"reflect"
	"time"

	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/binding/soap"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// Limits bound what one request may cost and how many run at once: one tree, whose branches are the
// limits of the packages that enforce them, each under its own type and field names (admission.Limits,
// xmlwire.Limits), and whose zero or negative leaves take their defaults by one rule (withDefaults). The
// spec sets none (§8); the defaults are far above any legitimate request of this contract (the largest
// is a few hundred bytes) and far below what could hurt the server.
type Limits struct {
	// MaxHeaderBytes bounds the request line and headers (net/http answers 431 beyond it).
	MaxHeaderBytes int
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout bound each connection's phases, so
	// a slow or stalled client (slowloris) cannot hold a connection open.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// OneWayTimeout bounds a one-way operation's run after its 202 (oneway.go): it runs detached from
	// its request, so neither the client nor the connection's timeouts end it.
	OneWayTimeout time.Duration
	// Admission bounds the body, what requests may hold before they run and how many run at once
	// (admission).
	Admission admission.Limits
	// XML bounds every SOAP request: nesting and element count while parsing, the parse budget before
	// (binding/soap). The JSON endpoint takes its MaxDepth too.
	XML xmlwire.Limits
}

// DefaultLimits returns the limits used when none are configured: each package's own defaults for its
// branch, and the connection limits.
func DefaultLimits() Limits {
	return Limits{
		MaxHeaderBytes:    64 << 10,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		OneWayTimeout:     30 * time.Second,
		Admission:         admission.DefaultLimits(),
		XML:               soap.DefaultLimits(),
	}
}

// withDefaults fills every zero (or negative) leaf of l, at any depth, from DefaultLimits. It is the one
// way a limit left unset takes its default, so a limit added to any branch needs no code here; a leaf of
// a kind it cannot judge (neither a struct nor an integer) is a programming error it panics on, which
// TestLimitsDefaults meets first.
func (l Limits) withDefaults() Limits {
	fillDefaults(reflect.ValueOf(&l).Elem(), reflect.ValueOf(DefaultLimits()))
	return l
}

func fillDefaults(v, d reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fillDefaults(v.Field(i), d.Field(i))
		}
	case reflect.Int, reflect.Int64: // int, int64 and time.Duration
		if v.Int() <= 0 {
			v.SetInt(d.Int())
		}
	default:
		panic("server: the limit of type " + v.Type().String() + " has no rule for its default")
	}
}

// NewHTTPServer returns an http.Server for h with the connection limits of l applied.
func NewHTTPServer(h http.Handler, l Limits, logger *slog.Logger) *http.Server {
	l = l.withDefaults()
	if logger == nil {
		logger = slog.Default()
	}
	return &http.Server{
		Handler:           withNosniff(h),
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// headerNosniff is shared and never modified, so setting it allocates nothing.
var headerNosniff = []string{"nosniff"}

// withNosniff sets X-Content-Type-Options: nosniff on every response of next, so no browser reads a
// plain-text error (which may quote the request's path or content type) as HTML.
func withNosniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["X-Content-Type-Options"] = headerNosniff
		next.ServeHTTP(w, r)
	})
}
