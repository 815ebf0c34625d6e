package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/docs"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/spf13/cobra"
)

// serveOptions holds everything serve is configured with.
type serveOptions struct {
	addr    string
	store   string
	baseURL string
	limits  server.Limits
	// stores holds each store backend's options, as their flags fill them (backend.Settings); nil
	// means every backend's defaults.
	stores backend.Settings
	// auth holds the authentication settings (auth_flags.go).
	auth authOptions
	// tls names the certificate and key for HTTPS; empty serves plain HTTP.
	tls tlsOptions
	// log selects the log's format and level; runServe receives the logger built from it.
	log logOptions
	// shutdownTimeout bounds how long in-flight requests may run once a stop is requested.
	shutdownTimeout time.Duration
	// ready, when set, is called with the bound address once the server accepts connections. Tests
	// use it to learn the port of --addr 127.0.0.1:0.
	ready func(addr net.Addr)
	// obs configures metrics, health endpoints, the access log and the admin listener (obs_flags.go).
	obs obsOptions
	// protocols lists the protocols served (binding.ProtocolNames); nil means the default.
	protocols []string
	// addressing holds --public-url and --trusted-proxies (addressing_flags.go).
	addressing addressingOptions
	// wrapStore, when set, wraps the opened store. Tests use it to hold a request in flight and to
	// see when the store is closed.
	wrapStore func(store.Store) store.Store
	// wired, when set, is called with the store as the service gets it, every decorator applied.
	// Tests use it to check that the wired store offers the whole interface.
	wired func(store.Store)
	// writeProbeInterval, when set, replaces store.DefaultWriteProbeInterval. Tests use it to see an
	// instance recover without waiting seconds.
	writeProbeInterval time.Duration
	// storeWait bounds how long serve waits for a store that is not reachable yet (startup.go); 0
	// does not wait.
	storeWait time.Duration
	// logLevel, when set, is the level of the logger runServe receives, which a reload changes;
	// in-process callers with a fixed logger leave it nil.
	logLevel *slog.LevelVar
	// settingValues holds each setting's value as text by flag name, as the command resolved them,
	// so a reload can say which changed; nil for in-process callers.
	settingValues map[string]string
	// reloadSettings re-reads the settings for a reload (SIGHUP) as the command read them at start:
	// the command line as given, the environment, the config file as it is now. Nil: a reload keeps
	// the options and re-reads the files they name.
	reloadSettings func() (serveOptions, error)
	// reloaded, when set, is called after each reload with its error; listening, when set, with the
	// bound address as soon as serve answers, before its store is open. Tests use them to wait.
	reloaded  func(error)
	listening func(addr net.Addr)
}

// defaultShutdownTimeout is --shutdown-timeout's default: long enough for any request within the
// default limits to finish writing, short enough for an orchestrator's usual grace period (30 s).
const defaultShutdownTimeout = 10 * time.Second

func newServeCommand() *cobra.Command {
	var opts serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the service",
		Long: "Run the Contact Synchronization Service on one endpoint, " + "/contactsync/v1/sync.asmx" + ", over SOAP 1.1,\n" +
			"SOAP 1.2, HTTP GET and HTTP POST, with the contract at ?WSDL. SIGTERM or SIGINT stops it\n" +
			"gracefully: it stops accepting, lets requests in flight finish within --shutdown-timeout, then\n" +
			"closes the store. SIGHUP reloads the config file, the users file, the TLS certificate and key\n" +
			"and --log-level without dropping a connection; other changed settings are logged as needing a\n" +
			"restart.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.shutdownTimeout <= 0 { // runServe reads zero as "not configured"; a flag must not
				return errors.New("--shutdown-timeout must be positive")
			}
			// The log is buffered (logbuffer.go): a write per access line costs throughput. Close writes
			// what is left when serve returns, before main prints any error, so the order holds.
			logOut := newLogBuffer(cmd.ErrOrStderr(), logBufferSize, logFlushInterval)
			defer logOut.Close()
			// The level is a variable the logger and the access lines both read, so a reload changes it.
			opts.logLevel = new(slog.LevelVar)
			opts.log.levelVar = opts.logLevel
			logger, err := newLogger(logOut, opts.log)
			if err != nil {
				return err
			}
			// The access lines go to the same buffer in the same format, written by hand rather than
			// through slog records (server/observe; BENCHMARKS.md has what that saves).
			opts.obs.accessLines = newAccessLog(logOut, opts.log)
			opts.settingValues = settingValues(cmd.Flags(), settingNames(cmd))
			opts.reloadSettings = func() (serveOptions, error) { return rereadServeSettings(cmd) }
			return runServe(cmd.Context(), opts, logger)
		},
	}
	serveFlags(cmd, &opts)
	return bindSettings(cmd)
}

// serveFlags registers serve's flags, which fill opts: on the command, and on the scratch command a
// reload reads the settings into afresh.
func serveFlags(cmd *cobra.Command, opts *serveOptions) {
	cmd.Flags().StringVar(&opts.addr, "addr", ":8080", "address to listen on")
	storeFlag(cmd, "store", &opts.store, "")
	cmd.Flags().DurationVar(&opts.storeWait, "store-wait", defaultStoreWait, "how long serve waits for a store that is not reachable yet (a database starting beside it), retrying with backoff while /healthz says alive and /readyz not ready; 0: fail at once")
	baseURLFlag(cmd, &opts.baseURL)
	addressingFlags(cmd.Flags(), &opts.addressing)
	limitFlags(cmd, &opts.limits)
	opts.stores, _ = stores.Registry.Flags(cmd.Flags(), backend.Serving)
	obsFlags(cmd, &opts.obs)
	authFlags(cmd, &opts.auth)
	tlsFlags(cmd, &opts.tls)
	logFlags(cmd, &opts.log)
	cmd.Flags().DurationVar(&opts.shutdownTimeout, "shutdown-timeout", defaultShutdownTimeout, "time requests in flight get to finish after SIGTERM or SIGINT")
	cmd.Flags().StringSliceVar(&opts.protocols, "protocols", binding.DefaultProtocols,
		"protocols served, of "+strings.Join(binding.ProtocolNames, ", ")+" (json, the ASP.NET AJAX endpoint, only when listed)")
}

// rereadServeSettings reads serve's settings afresh for a reload (SIGHUP), as cmd read them at start.
func rereadServeSettings(cmd *cobra.Command) (serveOptions, error) {
	var opts serveOptions
	fresh := &cobra.Command{Use: cmd.Use}
	serveFlags(fresh, &opts)
	if err := rereadSettings(cmd, fresh); err != nil {
		return serveOptions{}, err
	}
	if opts.shutdownTimeout <= 0 {
		return serveOptions{}, errors.New("--shutdown-timeout must be positive")
	}
	opts.settingValues = settingValues(fresh.Flags(), settingNames(cmd))
	return opts, nil
}

// limitFlags registers one flag per request and connection limit, defaulting to server.DefaultLimits.
func limitFlags(cmd *cobra.Command, l *server.Limits) {
	d := server.DefaultLimits()
	f := cmd.Flags()
	f.Int64Var(&l.Admission.MaxBodyBytes, "max-body-bytes", d.Admission.MaxBodyBytes, "largest request body accepted, in bytes")
	f.IntVar(&l.XML.MaxDepth, "max-xml-depth", d.XML.MaxDepth, "deepest element nesting accepted in a SOAP request")
	f.IntVar(&l.XML.MaxElements, "max-xml-elements", d.XML.MaxElements, "most elements accepted in one SOAP request")
	f.IntVar(&l.Admission.MaxConcurrent, "max-concurrent", d.Admission.MaxConcurrent, "operation requests served at once (unless set: 32 per CPU, at least 16); more wait up to --queue-timeout, then get 503 with Retry-After")
	f.IntVar(&l.MaxHeaderBytes, "max-header-bytes", d.MaxHeaderBytes, "largest request line and headers, in bytes")
	f.DurationVar(&l.ReadHeaderTimeout, "read-header-timeout", d.ReadHeaderTimeout, "time allowed to read request headers")
	f.DurationVar(&l.ReadTimeout, "read-timeout", d.ReadTimeout, "time allowed to read a whole request")
	f.DurationVar(&l.WriteTimeout, "write-timeout", d.WriteTimeout, "time allowed to write a response")
	f.DurationVar(&l.IdleTimeout, "idle-timeout", d.IdleTimeout, "how long an idle keep-alive connection stays open")
	f.DurationVar(&l.OneWayTimeout, "oneway-timeout", d.OneWayTimeout, "time a one-way operation (a contract's OneWay=true method) may run after its 202")
	xmlBudgetFlags(f, &l.XML, d.XML)             // admission_flags.go
	admissionFlags(f, &l.Admission, d.Admission) // admission_flags.go
}

// validateLimits refuses limits that cannot work, naming the flag.
func validateLimits(l server.Limits) error {
	switch {
	case l.Admission.MaxBodyBytes < 1:
		return errors.New("--max-body-bytes must be at least 1")
	case l.XML.MaxDepth < 3:
		return errors.New("--max-xml-depth must be at least 3 (Envelope, Body, operation)")
	case l.XML.MaxElements < 3:
		return errors.New("--max-xml-elements must be at least 3")
	case l.Admission.MaxConcurrent < 1:
		return errors.New("--max-concurrent must be at least 1")
	case l.MaxHeaderBytes < 1024:
		return errors.New("--max-header-bytes must be at least 1024")
	case l.ReadHeaderTimeout <= 0:
		return errors.New("--read-header-timeout must be positive")
	case l.ReadTimeout <= 0:
		return errors.New("--read-timeout must be positive")
	case l.WriteTimeout <= 0:
		return errors.New("--write-timeout must be positive")
	case l.IdleTimeout <= 0:
		return errors.New("--idle-timeout must be positive")
	case l.OneWayTimeout <= 0:
		return errors.New("--oneway-timeout must be positive")
	}
	if err := validateAdmission(l.Admission); err != nil { // admission_flags.go
		return err
	}
	return validateXMLBudget(l.XML) // admission_flags.go
}

// runServe runs the service until ctx is cancelled, then shuts down gracefully: it stops accepting,
// lets requests in flight finish within opts.shutdownTimeout, and closes the store last, so no
// request loses its store while it runs. It answers from the moment it listens: while it waits for
// its store (startup.go), /healthz says alive and /readyz says why it is not ready. SIGHUP reloads
// (reload.go). Each step is a function of its own; until serving starts, a failure undoes what the
// steps before it did.
func runServe(ctx context.Context, opts serveOptions, logger *slog.Logger) error {
	// SIGHUP is caught from the start, so a hangup during start-up (a closed terminal, a reload sent
	// early) never kills serve: one that arrives before serving starts is carried out once it has.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	if err := checkServeOptions(&opts); err != nil {
		return err
	}
	front, err := buildFront(opts, logger)
	if err != nil {
		return err
	}
	// Listen before the store is opened: a port in use stops serve before it has created anything.
	listeners, err := listenAll(&opts)
	if err != nil {
		return err
	}
	started := false // set once serving: until then, a failure undoes what serve did
	defer func() { listeners.closeUnless(started) }()
	// The server serves from the first failed attempt to open the store, answering that serve waits
	// for it, or else from the moment the store is open: a store that opens at once is never waited
	// for, and no request meets the start-up handler.
	wait := &storeWait{}
	srv, handlers, served := newServer(opts, front, listeners.main, wait, logger)
	admin := newAdminServer(opts.obs)
	wait.serve = serveOnce(srv, admin, wait, listeners.main.Addr(), opts, logger)
	defer func() { stopUnless(started, srv, admin) }()
	st, err := openServeStore(ctx, opts, wait, logger)
	if errors.Is(err, errStoppedWaiting) {
		logger.Info("contactsync stopped while waiting for the store")
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { st.close(started) }()
	obs := setUpObservability(opts.obs, st.store, st.writes, logger)
	handler, endpoint, err := buildHandler(opts, front, obs, logger)
	if err != nil {
		return err
	}
	reload := newReloader(opts, front, logger)
	reload.register(obs.registry)
	handlers.set(handler)
	wait.serve()
	admin.use(obs.adminHandler, obs.adminPaths, logger)
	defer admin.shutdown(context.Background()) // when the main server fails; a no-op after a graceful shutdown
	announce(opts, front, listeners.main.Addr(), logger)
	started = true
	if opts.ready != nil {
		opts.ready(listeners.main.Addr())
	}
	return serveUntilStopped(ctx, srv.Server, served, admin, endpoint.Drain, opts.shutdownTimeout, hup, reload, logger)
}

// serveOnce returns the function that starts serving (the main server, the admin server, and the
// listening hook) the first time it is called and does nothing after: the store wait calls it at its
// first failed attempt, runServe once the store is open, whichever comes first.
func serveOnce(srv *earlyServer, admin *adminServer, wait *storeWait, addr net.Addr, opts serveOptions, logger *slog.Logger) func() {
	var serving sync.Once
	return func() {
		serving.Do(func() {
			go srv.serve()
			admin.start(wait, opts.limits, logger)
			if opts.listening != nil {
				opts.listening(addr)
			}
		})
	}
}

// stopUnless closes the servers of a serve that failed before it started serving for good.
func stopUnless(started bool, srv *earlyServer, admin *adminServer) {
	if !started {
		_ = srv.Close()
		_ = admin.shutdown(context.Background())
	}
}

// checkServeOptions gives what in-process callers (tests) leave zero its default, then refuses
// settings that cannot work, naming the flag.
func checkServeOptions(opts *serveOptions) error {
	if _, err := server.Namespace(opts.baseURL); err != nil {
		return fmt.Errorf("--base-url: %w", err)
	}
	if opts.limits == (server.Limits{}) {
		opts.limits = server.DefaultLimits()
	}
	if err := validateLimits(opts.limits); err != nil {
		return err
	}
	if err := opts.stores.Validate(); err != nil { // nil: each backend's defaults
		return err
	}
	if opts.storeWait < 0 {
		return errors.New("--store-wait must be 0 (do not wait) or positive")
	}
	if opts.shutdownTimeout == 0 {
		opts.shutdownTimeout = defaultShutdownTimeout
	}
	if opts.shutdownTimeout < 0 {
		return errors.New("--shutdown-timeout must be positive")
	}
	if opts.protocols != nil {
		if _, err := binding.ParseProtocols(opts.protocols); err != nil {
			return fmt.Errorf("--protocols: %w", err)
		}
	}
	return opts.obs.validate()
}

// serveFront is what serve's clients meet before the service: TLS, the addresses the documents name,
// and authentication.
type serveFront struct {
	tls         *tls.Config        // nil: plain HTTP
	cert        *servedCertificate // the certificate tls presents, which a reload swaps; nil: plain HTTP
	addressing  docs.Addressing
	auth        *auth.Authenticator // nil: authentication off
	protectDocs bool
}

// buildFront loads the certificate, the addressing settings and the users file.
func buildFront(opts serveOptions, logger *slog.Logger) (f serveFront, err error) {
	pair, err := opts.tls.loadKeyPair()
	if err != nil {
		return f, err
	}
	if pair != nil {
		f.cert = &servedCertificate{}
		f.cert.current.Store(pair)
		f.tls = newTLSConfig(f.cert)
	}
	if f.addressing, err = opts.addressing.build(); err != nil {
		return f, err
	}
	f.auth, f.protectDocs, err = opts.auth.build(logger)
	return f, err
}

// serveListeners are the listeners serve opened: --addr's, and --admin-addr's when set (kept in
// opts.obs.adminListener, where the admin server takes it).
type serveListeners struct {
	main, admin net.Listener
}

// listenAll listens on --addr and, when set, --admin-addr.
func listenAll(opts *serveOptions) (*serveListeners, error) {
	main, err := listen(opts.addr, "--addr")
	if err != nil {
		return nil, err
	}
	l := &serveListeners{main: main}
	if opts.obs.adminAddr != "" {
		if l.admin, err = listen(opts.obs.adminAddr, "--admin-addr"); err != nil {
			_ = main.Close()
			return nil, err
		}
		opts.obs.adminListener = l.admin
	}
	return l, nil
}

// closeUnless closes the listeners unless serving started, after which the servers own them.
func (l *serveListeners) closeUnless(started bool) {
	if started {
		return
	}
	_ = l.main.Close()
	if l.admin != nil {
		_ = l.admin.Close()
	}
}

// servedStore is the store serve opened, as the service gets it, and what closing it involves.
type servedStore struct {
	// store is the opened store with every decorator but the observing one applied (wrapStore, the
	// write health's).
	store store.Store
	// writes is the store's write health, which /readyz asks.
	writes *store.WriteHealth
	// close closes the store, removes what opening created unless serving started, and releases the
	// single-writer lock, in that order.
	close func(started bool)
}

// openServeStore takes the store's single-writer lock where its backend has one (one serve per SQLite
// file), opens it through the registry (migrating it), waiting for it while --store-wait allows and
// its backend says it may come, and checks the contract's fields against those
// its records may hold. Every --store value in its errors is redacted.
func openServeStore(ctx context.Context, opts serveOptions, wait *storeWait, logger *slog.Logger) (*servedStore, error) {
	name := stores.Registry.Redact(opts.store)
	release, err := stores.Registry.Lock(opts.store)
	if err != nil {
		return nil, fmt.Errorf("--store %s: %w", name, err)
	}
	opened, created, err := openWhenReachable(ctx, opts, wait, logger) // startup.go
	if errors.Is(err, errStoppedWaiting) {
		_ = release()
		return nil, err
	}
	if err != nil {
		_ = release()
		return nil, fmt.Errorf("--store %s: %w", name, err)
	}
	// The store's write health: failed writes that are not the caller's fault (a full disk) make
	// /readyz fail until a probe of the store's own finds it writable again (server/store/writehealth.go).
	writes := store.NewWriteHealth(opened, store.WriteHealthOptions{Logger: logger, ProbeInterval: opts.writeProbeInterval})
	var st store.Store = opened
	if opts.wrapStore != nil {
		st = opts.wrapStore(st)
	}
	served := &servedStore{store: writes.Wrap(st), writes: writes, close: func(started bool) {
		_ = st.Close()
		if !started {
			created.Remove() // a database serve created and never served is not left behind
		}
		_ = release()
	}}
	// The contract's fields against those the stored records may hold (record_fields), without
	// reading a record: a field whose type the contract changed stops serve here, before a read
	// fails; a field the contract lacks is carried by every write, with a warning naming it.
	warn := func(msg, fields, check string) { logger.Warn(msg, "fields", fields, "check", check) }
	if _, err := checkFields(ctx, opened, opts.store, nil, warn); err != nil {
		served.close(false)
		return nil, fmt.Errorf("--store %s: %w", name, err)
	}
	return served, nil
}

// earlyServer is the HTTP server of the service, built before the store is opened, so it can answer
// while serve waits for the store (with wait, until the service's handler is set on the switch).
type earlyServer struct {
	*http.Server
	listener net.Listener
	served   chan error // Serve's result
}

// newServer builds the HTTP server of the service on listener, answering with wait until a handler
// is set on the returned switch. serve starts it.
func newServer(opts serveOptions, front serveFront, listener net.Listener, wait *storeWait, logger *slog.Logger) (*earlyServer, *handlerSwitch, chan error) {
	handlers := &handlerSwitch{}
	handlers.set(wait)
	srv := &earlyServer{Server: server.NewHTTPServer(handlers, opts.limits, logger), listener: listener, served: make(chan error, 1)}
	srv.TLSConfig = front.tls
	return srv, handlers, srv.served
}

// serve serves on the listener until the server is shut down.
func (s *earlyServer) serve() {
	if s.TLSConfig != nil {
		// The certificate is in TLSConfig; ServeTLS adds HTTP/2 to the protocols offered.
		s.served <- s.ServeTLS(s.listener, "", "")
		return
	}
	s.served <- s.Serve(s.listener)
}

// buildHandler builds the handler of the service over the observed store: what serve serves, and the
// endpoint's own handler within it, whose one-way operations shutdown drains.
func buildHandler(opts serveOptions, front serveFront, obs *observability, logger *slog.Logger) (http.Handler, *server.Handler, error) {
	if opts.wired != nil {
		opts.wired(obs.store)
	}
	handler, err := server.NewHandler(gen.Bind(service.New(obs.store)), server.Config{BaseURL: opts.baseURL, Limits: opts.limits, Logger: logger,
		Auth: front.auth, ProtectDocs: front.protectDocs, Protocols: opts.protocols, Addressing: front.addressing})
	if err != nil {
		return nil, nil, err
	}
	return obs.wrap(handler), handler, nil
}

// announce logs what serve serves, where and how, and warns when anyone may call it.
func announce(opts serveOptions, front serveFront, addr net.Addr, logger *slog.Logger) {
	scheme := "http"
	if front.tls != nil {
		scheme = "https"
	}
	ns, _ := server.Namespace(opts.baseURL)
	protocols := opts.protocols
	if protocols == nil {
		protocols = binding.DefaultProtocols
	}
	b := currentBuild()
	logger.Info("contactsync listening", "version", b.Version, "commit", b.Commit, "addr", addr.String(), "scheme", scheme,
		"endpoint", "/contactsync/v1/sync.asmx", "namespace", ns, "protocols", strings.Join(protocols, ","),
		"store_kind", stores.Registry.Kind(opts.store), "store", stores.Registry.Redact(opts.store), "auth", authMode(front.auth, front.protectDocs))
	warnIfUnauthenticated(logger, addr, front.auth)
}

// serveUntilStopped serves until ctx is cancelled, reloading on every SIGHUP, then shuts the server
// and the admin server down, letting requests in flight finish within timeout, and then the one-way
// operations acknowledged before (drain, server.Handler.Drain) within what is left of it.
func serveUntilStopped(ctx context.Context, srv *http.Server, served chan error, admin *adminServer, drain func(context.Context) error, timeout time.Duration,
	hup <-chan os.Signal, reload *reloader, logger *slog.Logger) error {
	for stopping := false; !stopping; {
		select {
		case err := <-served:
			return err
		case <-hup:
			reload.reload()
		case <-ctx.Done():
			stopping = true
		}
	}
	logger.Info("contactsync shutting down", "timeout", timeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Requests are still running: cut their connections, which cancels their contexts, so the
		// store closes under as few of them as possible.
		_ = srv.Close()
		_ = drain(shutdownCtx) // past the grace: cancels the one-way runs too
		return fmt.Errorf("shutdown: requests still in flight after --shutdown-timeout %s were cut off: %w", timeout, err)
	}
	// One-way operations answered 202 before the shutdown run on after their requests: they finish
	// within the same grace, before the store closes; past it they are cancelled.
	if err := drain(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: after --shutdown-timeout %s: %w", timeout, err)
	}
	if err := admin.shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("contactsync stopped")
	return nil
}

// listen listens on addr for the flag named flag, saying what to do about the usual failures.
func listen(addr, flag string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("%s %s: %w: another process listens there (another contactsync serve?); stop it, or choose another address with %s", flag, addr, err, flag)
	case errors.Is(err, syscall.EACCES):
		return nil, fmt.Errorf("%s %s: %w: ports below 1024 need privileges; use a port above 1023 (e.g. :8080) behind a proxy, or grant CAP_NET_BIND_SERVICE", flag, addr, err)
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", flag, addr, err)
	}
	return l, nil
}

// authMode describes serve's authentication for the start-up log: off, or the schemes it accepts.
func authMode(a *auth.Authenticator, protectDocs bool) string {
	if a == nil {
		return "off"
	}
	mode := "basic,ws-security-text"
	if a.Users().DigestUsers() > 0 {
		mode += ",ws-security-digest"
	}
	if protectDocs {
		mode += " (documents protected)"
	}
	return mode
}
