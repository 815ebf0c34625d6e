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
	"time"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/sqlite"
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
	// shutdownTimeout bounds how long in-flight requests may run once a stop is requested.
	shutdownTimeout time.Duration
	// ready, when set, is called with the bound address once the server accepts connections. Tests
	// use it to learn the port of --addr 127.0.0.1:0.
	ready func(addr net.Addr)
	// obs configures metrics, health endpoints, the access log and the admin listener (obs_flags.go).
	obs obsOptions
}

func newServeCommand() *cobra.Command {
	opts := serveOptions{shutdownTimeout: 10 * time.Second}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the service",
		Long: "Run the Contact Synchronization Service on one endpoint, " + "/contactsync/v1/sync.asmx" + ", over SOAP 1.1,\n" +
			"SOAP 1.2, HTTP GET and HTTP POST, with the contract at ?WSDL.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			logger := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			return runServe(cmd.Context(), opts, logger)
		},
	}
	cmd.Flags().StringVar(&opts.addr, "addr", envOr("CONTACTSYNC_ADDR", ":8080"), "address to listen on [env CONTACTSYNC_ADDR]")
	cmd.Flags().StringVar(&opts.store, "store", envOr("CONTACTSYNC_STORE", "sqlite:contactsync.db"), storeHelp+" [env CONTACTSYNC_STORE]")
	baseURLFlag(cmd, &opts.baseURL)
	limitFlags(cmd, &opts.limits)
	dbFlags(cmd, &opts.db)
	obsFlags(cmd, &opts.obs)
	authFlags(cmd, &opts.auth)
	return cmd
}

// storeHelp describes the --store values, shared by serve and migrate.
const storeHelp = "where contacts are kept: sqlite:PATH, or postgres://USER@HOST:PORT/DB?sslmode=… (a PostgreSQL DSN)"

// dbFlags registers the PostgreSQL pool settings (ignored by the SQLite store).
func dbFlags(cmd *cobra.Command, o *postgres.Options) {
	f := cmd.Flags()
	f.Int32Var(&o.MaxConns, "db-max-conns", int32(envInt64("CONTACTSYNC_DB_MAX_CONNS", postgres.DefaultMaxConns)), "PostgreSQL: most pooled connections of this instance [env CONTACTSYNC_DB_MAX_CONNS]")
	f.DurationVar(&o.ConnectTimeout, "db-connect-timeout", envDuration("CONTACTSYNC_DB_CONNECT_TIMEOUT", postgres.DefaultConnectTimeout), "PostgreSQL: time allowed to open one connection [env CONTACTSYNC_DB_CONNECT_TIMEOUT]")
	f.DurationVar(&o.Timeout, "db-timeout", envDuration("CONTACTSYNC_DB_TIMEOUT", postgres.DefaultTimeout), "PostgreSQL: time allowed for one operation, waiting for a connection and locks included; beyond it the request gets 503 [env CONTACTSYNC_DB_TIMEOUT]")
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

// redactStore returns spec with any password masked, for logs.
func redactStore(spec string) string {
	if !isPostgres(spec) {
		return spec
	}
	u, err := url.Parse(spec)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}

// limitFlags registers one flag per request and connection limit, defaulting to server.DefaultLimits.
func limitFlags(cmd *cobra.Command, l *server.Limits) {
	d := server.DefaultLimits()
	f := cmd.Flags()
	f.Int64Var(&l.MaxBodyBytes, "max-body-bytes", envInt64("CONTACTSYNC_MAX_BODY_BYTES", d.MaxBodyBytes), "largest request body accepted, in bytes [env CONTACTSYNC_MAX_BODY_BYTES]")
	f.IntVar(&l.MaxXMLDepth, "max-xml-depth", int(envInt64("CONTACTSYNC_MAX_XML_DEPTH", int64(d.MaxXMLDepth))), "deepest element nesting accepted in a SOAP request [env CONTACTSYNC_MAX_XML_DEPTH]")
	f.IntVar(&l.MaxXMLElements, "max-xml-elements", int(envInt64("CONTACTSYNC_MAX_XML_ELEMENTS", int64(d.MaxXMLElements))), "most elements accepted in one SOAP request [env CONTACTSYNC_MAX_XML_ELEMENTS]")
	f.IntVar(&l.MaxConcurrent, "max-concurrent", int(envInt64("CONTACTSYNC_MAX_CONCURRENT", int64(d.MaxConcurrent))), "operation requests served at once; more get 503 with Retry-After [env CONTACTSYNC_MAX_CONCURRENT]")
	f.IntVar(&l.MaxHeaderBytes, "max-header-bytes", int(envInt64("CONTACTSYNC_MAX_HEADER_BYTES", int64(d.MaxHeaderBytes))), "largest request line and headers, in bytes [env CONTACTSYNC_MAX_HEADER_BYTES]")
	f.DurationVar(&l.ReadHeaderTimeout, "read-header-timeout", envDuration("CONTACTSYNC_READ_HEADER_TIMEOUT", d.ReadHeaderTimeout), "time allowed to read request headers [env CONTACTSYNC_READ_HEADER_TIMEOUT]")
	f.DurationVar(&l.ReadTimeout, "read-timeout", envDuration("CONTACTSYNC_READ_TIMEOUT", d.ReadTimeout), "time allowed to read a whole request [env CONTACTSYNC_READ_TIMEOUT]")
	f.DurationVar(&l.WriteTimeout, "write-timeout", envDuration("CONTACTSYNC_WRITE_TIMEOUT", d.WriteTimeout), "time allowed to write a response [env CONTACTSYNC_WRITE_TIMEOUT]")
	f.DurationVar(&l.IdleTimeout, "idle-timeout", envDuration("CONTACTSYNC_IDLE_TIMEOUT", d.IdleTimeout), "how long an idle keep-alive connection stays open [env CONTACTSYNC_IDLE_TIMEOUT]")
}

// validateLimits refuses limits that cannot work, naming the flag.
func validateLimits(l server.Limits) error {
	switch {
	case l.MaxBodyBytes < 1:
		return errors.New("--max-body-bytes must be at least 1")
	case l.MaxXMLDepth < 3:
		return errors.New("--max-xml-depth must be at least 3 (Envelope, Body, operation)")
	case l.MaxXMLElements < 3:
		return errors.New("--max-xml-elements must be at least 3")
	case l.MaxConcurrent < 1:
		return errors.New("--max-concurrent must be at least 1")
	case l.MaxHeaderBytes < 1024:
		return errors.New("--max-header-bytes must be at least 1024")
	case l.ReadHeaderTimeout <= 0 || l.ReadTimeout <= 0 || l.WriteTimeout <= 0 || l.IdleTimeout <= 0:
		return errors.New("--read-header-timeout, --read-timeout, --write-timeout and --idle-timeout must be positive")
	}
	return nil
}

// openStore opens the store a --store value names.
// A database migrated by a newer release is refused (*migrate.SchemaTooNewError).
func openStore(ctx context.Context, spec string, db postgres.Options) (store.Store, error) {
	if path, ok := strings.CutPrefix(spec, "sqlite:"); ok {
		if path == "" {
			return nil, errors.New("--store sqlite: needs a file path, e.g. sqlite:contactsync.db")
		}
		return sqlite.Open(ctx, path)
	}
	if isPostgres(spec) {
		return postgres.Open(ctx, spec, db)
	}
	return nil, fmt.Errorf("--store %q: unknown store; use sqlite:PATH or postgres://…", redactStore(spec))
}

// runServe runs the service until ctx is cancelled, then shuts down gracefully.
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
	authenticator, protectDocs, err := opts.auth.build(logger)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, opts.store, opts.db)
	if err != nil {
		return err
	}
	defer st.Close()
	obs := setUpObservability(opts.obs, st, logger)
	st = obs.store

	handler, err := server.NewHandler(server.NewService(st), server.Config{BaseURL: opts.baseURL, Limits: opts.limits, Logger: logger,
		Auth: authenticator, ProtectDocs: protectDocs})
	if err != nil {
		return err
	}
	listener, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if err := obs.admin.start(opts.limits, logger); err != nil {
		_ = listener.Close()
		return err
	}
	defer obs.admin.shutdown(context.Background()) // when the main server fails; a no-op after the shutdown below
	srv := server.NewHTTPServer(obs.wrap(handler), opts.limits, logger)
	ns, _ := server.Namespace(opts.baseURL)
	logger.Info("contactsync listening", "addr", listener.Addr().String(), "endpoint", "/contactsync/v1/sync.asmx",
		"namespace", ns, "store", redactStore(opts.store))
	warnIfUnauthenticated(logger, listener.Addr(), authenticator)
	if opts.ready != nil {
		opts.ready(listener.Addr())
	}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(listener) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("contactsync shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), opts.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := obs.admin.shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
