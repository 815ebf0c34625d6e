package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/sqlite/servelock"
	"github.com/spf13/cobra"
)

// serveOptions holds everything serve is configured with.
type serveOptions struct {
	addr    string
	store   string
	baseURL string
	limits  server.Limits
	// db holds the PostgreSQL pool settings; a zero value means the defaults.
	db postgres.Options
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
			"closes the store.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.shutdownTimeout <= 0 { // runServe reads zero as "not configured"; a flag must not
				return errors.New("--shutdown-timeout must be positive")
			}
			// The log is buffered (logbuffer.go): a write per access line costs throughput. Close writes
			// what is left when serve returns, before main prints any error, so the order holds.
			logOut := newLogBuffer(cmd.ErrOrStderr(), logBufferSize, logFlushInterval)
			defer logOut.Close()
			logger, err := newLogger(logOut, opts.log)
			if err != nil {
				return err
			}
			// The access lines go to the same buffer in the same format, written by hand rather than
			// through slog records (server/observe; BENCHMARKS.md has what that saves).
			opts.obs.accessLines = newAccessLog(logOut, opts.log)
			return runServe(cmd.Context(), opts, logger)
		},
	}
	cmd.Flags().StringVar(&opts.addr, "addr", ":8080", "address to listen on")
	cmd.Flags().StringVar(&opts.store, "store", "sqlite:contactsync.db", storeHelp)
	baseURLFlag(cmd, &opts.baseURL)
	addressingFlags(cmd.Flags(), &opts.addressing)
	limitFlags(cmd, &opts.limits)
	dbFlags(cmd, &opts.db)
	obsFlags(cmd, &opts.obs)
	authFlags(cmd, &opts.auth)
	tlsFlags(cmd, &opts.tls)
	logFlags(cmd, &opts.log)
	cmd.Flags().DurationVar(&opts.shutdownTimeout, "shutdown-timeout", defaultShutdownTimeout, "time requests in flight get to finish after SIGTERM or SIGINT")
	cmd.Flags().StringSliceVar(&opts.protocols, "protocols", binding.DefaultProtocols,
		"protocols served, of "+strings.Join(binding.ProtocolNames, ", ")+" (json, the ASP.NET AJAX endpoint, only when listed)")
	return bindSettings(cmd)
}

// storeHelp describes the --store values, shared by serve and migrate.
const storeHelp = "where contacts are kept: sqlite:PATH, or postgres://USER@HOST:PORT/DB?sslmode=… (a PostgreSQL DSN)"

// dbFlags registers the PostgreSQL pool settings (ignored by the SQLite store).
func dbFlags(cmd *cobra.Command, o *postgres.Options) {
	f := cmd.Flags()
	f.Int32Var(&o.MaxConns, "db-max-conns", postgres.DefaultMaxConns, "PostgreSQL: most pooled connections of this instance")
	f.DurationVar(&o.ConnectTimeout, "db-connect-timeout", postgres.DefaultConnectTimeout, "PostgreSQL: time allowed to open one connection")
	f.DurationVar(&o.Timeout, "db-timeout", postgres.DefaultTimeout, "PostgreSQL: time allowed for one operation, waiting for a connection and locks included; beyond it the request gets 503")
}

// validateDB refuses pool settings that cannot work, naming the flag.
func validateDB(o postgres.Options) error {
	switch {
	case o.MaxConns < 1:
		return errors.New("--db-max-conns must be at least 1")
	case o.ConnectTimeout <= 0:
		return errors.New("--db-connect-timeout must be positive")
	case o.Timeout <= 0:
		return errors.New("--db-timeout must be positive")
	}
	return nil
}

// isPostgres reports whether a --store value is a PostgreSQL DSN.
func isPostgres(spec string) bool {
	return strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://")
}

// redactStore returns spec with any password masked, for logs and errors. Only a sqlite: path is
// shown as given: any other value, a mistyped one included, may hold a password, so it is shown only
// as a URL with the password masked, or not at all when it is not such a URL (a key=value DSN).
func redactStore(spec string) string {
	if strings.HasPrefix(spec, "sqlite:") {
		return spec
	}
	u, err := url.Parse(spec)
	if err != nil || u.Scheme == "" || u.Opaque != "" {
		if isPostgres(spec) {
			return "postgres://…"
		}
		return "…"
	}
	return u.Redacted()
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
	}
	if err := validateAdmission(l.Admission); err != nil { // admission_flags.go
		return err
	}
	return validateXMLBudget(l.XML) // admission_flags.go
}

// runServe runs the service until ctx is cancelled, then shuts down gracefully: it stops accepting,
// lets requests in flight finish within opts.shutdownTimeout, and closes the store last, so no
// request loses its store while it runs.
func runServe(ctx context.Context, opts serveOptions, logger *slog.Logger) error {
	if _, err := server.Namespace(opts.baseURL); err != nil {
		return fmt.Errorf("--base-url: %w", err)
	}
	if opts.limits == (server.Limits{}) {
		opts.limits = server.DefaultLimits() // not configured at all: in-process callers such as tests
	}
	if err := validateLimits(opts.limits); err != nil {
		return err
	}
	if opts.db != (postgres.Options{}) { // zero: not configured at all (in-process callers), the defaults
		if err := validateDB(opts.db); err != nil {
			return err
		}
	}
	if opts.shutdownTimeout == 0 {
		opts.shutdownTimeout = defaultShutdownTimeout // not configured at all: in-process callers such as tests
	}
	if opts.shutdownTimeout < 0 {
		return errors.New("--shutdown-timeout must be positive")
	}
	if opts.protocols != nil {
		if _, err := binding.ParseProtocols(opts.protocols); err != nil {
			return fmt.Errorf("--protocols: %w", err)
		}
	}
	if err := opts.obs.validate(); err != nil {
		return err
	}
	tlsConfig, err := opts.tls.tlsConfig()
	if err != nil {
		return err
	}
	addressing, err := opts.addressing.build()
	if err != nil {
		return err
	}
	authenticator, protectDocs, err := opts.auth.build(logger)
	if err != nil {
		return err
	}
	// Listen before the store is opened: a port in use stops serve before it has created anything.
	listener, err := listen(opts.addr, "--addr")
	if err != nil {
		return err
	}
	started := false // set once serving: until then, a failure undoes what serve did
	defer func() {
		if !started {
			_ = listener.Close()
		}
	}()
	if opts.obs.adminAddr != "" {
		if opts.obs.adminListener, err = listen(opts.obs.adminAddr, "--admin-addr"); err != nil {
			return err
		}
		defer func() {
			if !started {
				_ = opts.obs.adminListener.Close()
			}
		}()
	}
	// One serve per SQLite file (server/store/sqlite/servelock): the lock is taken after the path is
	// checked, so a mistyped directory is reported as such, and before the store opens.
	var lock *servelock.Lock
	if path, ok := strings.CutPrefix(opts.store, "sqlite:"); ok && path != "" {
		if _, err := checkSQLitePath(path, writeStore); err != nil {
			return fmt.Errorf("--store %s: %w", opts.store, err)
		}
		if lock, err = servelock.Acquire(path); err != nil {
			return fmt.Errorf("--store %s: %w%s", opts.store, err, lockHint(err))
		}
		defer func() { _ = lock.Release() }() // after the store is closed: defers run last first
	}
	opened, files, err := openStoreFor(ctx, opts.store, opts.db, writeStore)
	if err != nil {
		return fmt.Errorf("--store %s: %w", redactStore(opts.store), err)
	}
	var st store.Store = opened
	// The store's write health: failed writes that are not the caller's fault (a full disk) make
	// /readyz fail until a probe of the store's own finds it writable again (server/store/writehealth.go).
	writes := store.NewWriteHealth(st, store.WriteHealthOptions{Logger: logger, ProbeInterval: opts.writeProbeInterval})
	if opts.wrapStore != nil {
		st = opts.wrapStore(st)
	}
	defer func(st store.Store) {
		_ = st.Close()
		if !started {
			files.removeCreated() // a database serve created and never served is not left behind
		}
	}(st)
	// The contract's fields against those the stored records may hold (record_fields), without
	// reading a record: a field the contract lost stops serve here, before any write could drop it.
	if err := checkFields(ctx, opened, opts.store); err != nil {
		return fmt.Errorf("--store %s: %w", redactStore(opts.store), err)
	}
	st = writes.Wrap(st)
	obs := setUpObservability(opts.obs, st, writes, logger)
	st = obs.store

	if opts.wired != nil {
		opts.wired(st)
	}
	handler, err := server.NewHandler(gen.Bind(service.New(st)), server.Config{BaseURL: opts.baseURL, Limits: opts.limits, Logger: logger,
		Auth: authenticator, ProtectDocs: protectDocs, Protocols: opts.protocols, Addressing: addressing})
	if err != nil {
		return err
	}
	obs.admin.start(opts.limits, logger)
	defer obs.admin.shutdown(context.Background()) // when the main server fails; a no-op after the shutdown below
	srv := server.NewHTTPServer(obs.wrap(handler), opts.limits, logger)
	srv.TLSConfig = tlsConfig
	scheme := "http"
	if tlsConfig != nil {
		scheme = "https"
	}
	ns, _ := server.Namespace(opts.baseURL)
	protocols := opts.protocols
	if protocols == nil {
		protocols = binding.DefaultProtocols
	}
	b := currentBuild()
	logger.Info("contactsync listening", "version", b.Version, "commit", b.Commit, "addr", listener.Addr().String(), "scheme", scheme,
		"endpoint", "/contactsync/v1/sync.asmx", "namespace", ns, "protocols", strings.Join(protocols, ","),
		"store_kind", storeKind(opts.store), "store", redactStore(opts.store), "auth", authMode(authenticator, protectDocs))
	warnIfUnauthenticated(logger, listener.Addr(), authenticator)
	started = true
	if opts.ready != nil {
		opts.ready(listener.Addr())
	}

	served := make(chan error, 1)
	go func() {
		if tlsConfig != nil {
			// The certificate is in srv.TLSConfig; ServeTLS adds HTTP/2 to the protocols offered.
			served <- srv.ServeTLS(listener, "", "")
			return
		}
		served <- srv.Serve(listener)
	}()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("contactsync shutting down", "timeout", opts.shutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), opts.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Requests are still running: cut their connections, which cancels their contexts, so the
		// store closes under as few of them as possible.
		_ = srv.Close()
		return fmt.Errorf("shutdown: requests still in flight after --shutdown-timeout %s were cut off: %w", opts.shutdownTimeout, err)
	}
	if err := obs.admin.shutdown(shutdownCtx); err != nil {
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

// lockHint says what to do when another serve holds a SQLite file.
func lockHint(err error) string {
	var held *servelock.HeldError
	if !errors.As(err, &held) {
		return ""
	}
	return ". One serve per SQLite file: stop the other one first; to run several instances, keep the contacts in PostgreSQL " +
		"(contactsync copy moves them; docs/operations.md, \"Running several instances\"). backup, export and import may run beside serve."
}

// storeKind names the kind of store a --store value is, for the start-up log.
func storeKind(spec string) string {
	switch {
	case strings.HasPrefix(spec, "sqlite:"):
		return "sqlite"
	case isPostgres(spec):
		return "postgres"
	}
	return "unknown"
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
