package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/binding/soap"
)

// Limits bound what one request may cost and how many run at once. The spec sets none (§8); the
// defaults are far above any legitimate request of this contract (the largest is a few hundred bytes)
// and far below what could hurt the server.
type Limits struct {
	// MaxBodyBytes is the largest request body accepted.
	MaxBodyBytes int64
	// MaxXMLDepth is the deepest element nesting accepted in a SOAP request (and in a JSON request).
	MaxXMLDepth int
	// MaxXMLElements is the most elements accepted in one SOAP request.
	MaxXMLElements int
	// MaxConcurrent is how many operation requests run at once; more wait up to QueueTimeout, then
	// are refused with 503 and Retry-After, so overload never builds an unbounded backlog (admission).
	MaxConcurrent int
	// MaxHeaderBytes bounds the request line and headers (net/http answers 431 beyond it).
	MaxHeaderBytes int
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout and IdleTimeout bound each connection's phases, so
	// a slow or stalled client (slowloris) cannot hold a connection open.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// XMLBudget bounds attributes, namespaces, names and comments of a SOAP request (soap.XMLBudget).
	XMLBudget soap.XMLBudget
	// AdmissionLimits bound what requests may hold before they run (admission.Limits).
	AdmissionLimits admission.Limits
}

// DefaultLimits returns the limits used when none are configured.
func DefaultLimits() Limits {
	xml := soap.DefaultLimits()
	return Limits{
		MaxBodyBytes:      1 << 20,
		MaxXMLDepth:       xml.MaxDepth,
		MaxXMLElements:    xml.MaxElements,
		MaxConcurrent:     admission.DefaultMaxConcurrent(),
		MaxHeaderBytes:    64 << 10,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		XMLBudget:         xml.XMLBudget,
		AdmissionLimits:   admission.DefaultLimits(),
	}
}

// withDefaults fills every zero field of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = d.MaxBodyBytes
	}
	if l.MaxXMLDepth <= 0 {
		l.MaxXMLDepth = d.MaxXMLDepth
	}
	if l.MaxXMLElements <= 0 {
		l.MaxXMLElements = d.MaxXMLElements
	}
	if l.MaxConcurrent <= 0 {
		l.MaxConcurrent = d.MaxConcurrent
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if l.ReadHeaderTimeout <= 0 {
		l.ReadHeaderTimeout = d.ReadHeaderTimeout
	}
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = d.ReadTimeout
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = d.WriteTimeout
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = d.IdleTimeout
	}
	l.XMLBudget = l.XMLBudget.WithDefaults()
	l.AdmissionLimits = l.AdmissionLimits.WithDefaults()
	return l
}

// soap returns the SOAP bindings' share of l.
func (l Limits) soap() soap.Limits {
	return soap.Limits{MaxDepth: l.MaxXMLDepth, MaxElements: l.MaxXMLElements, XMLBudget: l.XMLBudget}
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
