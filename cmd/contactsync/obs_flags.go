package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/observe"
	"github.com/contactsync/contactsync/server/observe/accesslog"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/instrumented"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
)

// obsOptions configures metrics, health endpoints and the access log of serve.
type obsOptions struct {
	// adminAddr, when set, moves /metrics to a second listener (with /healthz and /readyz, which
	// also stay on the main one), so metrics can be kept off the network clients reach.
	adminAddr string
	// accessLog turns on the access log (on by default; off for deployments that log requests at a
	// proxy). In-process callers that leave it false get none.
	accessLog bool
	// accessLines, set by serve from the log settings, writes the access lines by hand to the log's
	// destination (server/observe); when nil they go through the logger as slog records.
	accessLines *accesslog.Writer
	// adminPprof serves net/http/pprof under /debug/pprof/ on the admin listener, never on the main
	// one: profiles reveal the program's internals and cost CPU, so they stay with the metrics on an
	// address clients do not reach.
	adminPprof bool
	// adminListener is the listener of adminAddr, opened by serve before the store.
	adminListener net.Listener
	// adminReady, when set, is called with the admin listener's address once it accepts
	// connections. Tests use it to learn the port of --admin-addr 127.0.0.1:0.
	adminReady func(addr net.Addr)
}

// obsFlags registers the observability flags of serve.
func obsFlags(cmd *cobra.Command, o *obsOptions) {
	f := cmd.Flags()
	f.StringVar(&o.adminAddr, "admin-addr", "", "address of a separate listener for /metrics, /healthz and /readyz (empty: /metrics on --addr)")
	f.BoolVar(&o.accessLog, "access-log", true, "log one line per request at level info (--access-log=false turns it off)")
	f.BoolVar(&o.adminPprof, "admin-pprof", false, "serve Go's profiler (net/http/pprof) under /debug/pprof/ on --admin-addr (needs --admin-addr)")
}

// validate refuses settings that cannot work together, naming the flags.
func (o obsOptions) validate() error {
	if o.adminPprof && o.adminAddr == "" {
		return errors.New("--admin-pprof needs --admin-addr: the profiler is never served on --addr")
	}
	return nil
}

// pprofPath is where --admin-pprof serves the profiler, the path net/http/pprof's index links assume.
const pprofPath = "/debug/pprof/"

// withPprof serves net/http/pprof's handlers under pprofPath and everything else with next. The
// handlers are registered on a mux of our own rather than http.DefaultServeMux, which importing
// net/http/pprof also fills but which no listener of serve uses. The cmdline handler is left out: it
// would print serve's arguments, which may hold a --store DSN with its password, to anyone who reaches
// the admin listener.
func withPprof(next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(pprofPath, pprof.Index) // the index, and the named profiles (heap, allocs, goroutine, …)
	mux.HandleFunc(pprofPath+"profile", pprof.Profile)
	mux.HandleFunc(pprofPath+"symbol", pprof.Symbol)
	mux.HandleFunc(pprofPath+"trace", pprof.Trace)
	mux.Handle("/", next)
	return mux
}

// observability is what serve builds from obsOptions: the store measured, the handler of the main
// listener, what the admin listener serves if one is configured, and the registry of the metrics.
type observability struct {
	store store.Store
	// wrap wraps the endpoint handler; its metrics count the operations of the contract it serves.
	wrap func(endpoint *server.Handler) http.Handler
	// adminHandler serves the admin listener (nil without --admin-addr); adminPaths says what it
	// serves, for the log.
	adminHandler http.Handler
	adminPaths   string
	// registry holds the metrics; serve adds those of its reloads (reload.go).
	registry *prometheus.Registry
}

// setUpObservability measures st into a fresh registry and prepares the handlers; /readyz also asks
// writes whether the store can write. The caller wraps the endpoint handler with wrap (metrics, access
// log, and the operational endpoints); the admin server, when configured, serves adminHandler.
func setUpObservability(o obsOptions, st store.Store, writes *store.WriteHealth, logger *slog.Logger) *observability {
	reg := observe.NewRegistry()
	b := currentBuild() // version.go: what --version prints
	observe.RegisterBuildInfo(reg, observe.BuildInfo{Version: b.Version, Commit: b.Commit, GoVersion: b.Go})
	storeMetrics := instrumented.NewMetrics(reg)
	measured := instrumented.New(st, storeMetrics)
	if logger.Enabled(context.Background(), slog.LevelDebug) {
		// The debug line's store time (server/observe/trace.go): each store call adds its time to its
		// request's; at info and above nothing is added up.
		measured = instrumented.NewObserved(st, storeMetrics, observe.AddStoreTime)
	}
	metricsHandler := promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		Registry: reg, // also exports promhttp_metric_handler_errors_total
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelError),
	})
	obs := &observability{store: measured, registry: reg}
	mainOps := observe.OpsConfig{Store: measured, Writes: writes}
	if o.adminAddr == "" {
		mainOps.Metrics = metricsHandler
	} else {
		var adminHandler http.Handler = observe.NewOps(observe.OpsConfig{Store: measured, Writes: writes, Metrics: metricsHandler})
		paths := "/metrics /healthz /readyz"
		if o.adminPprof {
			adminHandler = withPprof(adminHandler)
			paths += " " + pprofPath
		}
		obs.adminHandler, obs.adminPaths = adminHandler, paths
	}
	obs.wrap = func(endpoint *server.Handler) http.Handler {
		metrics := observe.NewMetrics(reg, endpoint.MetricLabels())
		observed := observe.Middleware(endpoint, observe.Config{Metrics: metrics, Logger: logger, AccessLog: o.accessLog,
			AccessLines: o.accessLines})
		return observe.WithOps(observe.NewOps(mainOps), observed)
	}
	return obs
}

// adminServer is the optional second listener of --admin-addr. It serves from the start, before the
// store is open, so that /healthz and /readyz answer while serve waits for the store (startup.go);
// use then gives it the admin handler.
type adminServer struct {
	listener net.Listener
	ready    func(net.Addr)
	handler  handlerSwitch
	srv      *http.Server
	served   chan error
}

// newAdminServer returns the admin server of o, or nil without --admin-addr.
func newAdminServer(o obsOptions) *adminServer {
	if o.adminListener == nil {
		return nil
	}
	return &adminServer{listener: o.adminListener, ready: o.adminReady}
}

// start serves on the admin listener in the background, with first until use gives the admin
// handler. A nil adminServer does nothing.
func (a *adminServer) start(first http.Handler, limits server.Limits, logger *slog.Logger) {
	if a == nil {
		return
	}
	a.handler.set(first)
	a.srv = server.NewHTTPServer(&a.handler, limits, logger)
	a.served = make(chan error, 1)
	go func() { a.served <- a.srv.Serve(a.listener) }()
}

// use serves handler, which serves paths, from now on. A nil adminServer does nothing.
func (a *adminServer) use(handler http.Handler, paths string, logger *slog.Logger) {
	if a == nil {
		return
	}
	a.handler.set(handler)
	logger.Info("contactsync admin listening", "addr", a.listener.Addr().String(), "paths", paths)
	if a.ready != nil {
		a.ready(a.listener.Addr())
	}
}

// shutdown stops the admin server, letting running scrapes finish within ctx. A nil, unstarted or
// already stopped adminServer does nothing.
func (a *adminServer) shutdown(ctx context.Context) error {
	if a == nil || a.srv == nil {
		return nil
	}
	srv := a.srv
	a.srv = nil // a second call, such as runServe's deferred one, does nothing
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("admin shutdown: %w", err)
	}
	if err := <-a.served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("admin server: %w", err)
	}
	return nil
}
