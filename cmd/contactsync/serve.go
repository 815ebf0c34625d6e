package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/spf13/cobra"
)

// serveOptions holds everything serve is configured with.
type serveOptions struct {
	addr    string
	store   string
	baseURL string
	// shutdownTimeout bounds how long in-flight requests may run once a stop is requested.
	shutdownTimeout time.Duration
	// ready, when set, is called with the bound address once the server accepts connections. Tests
	// use it to learn the port of --addr 127.0.0.1:0.
	ready func(addr net.Addr)
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
	cmd.Flags().StringVar(&opts.store, "store", envOr("CONTACTSYNC_STORE", "sqlite:contactsync.db"), "where contacts are kept: sqlite:PATH [env CONTACTSYNC_STORE]")
	baseURLFlag(cmd, &opts.baseURL)
	return cmd
}

// openStore opens the store a --store value names.
func openStore(ctx context.Context, spec string) (store.Store, error) {
	if path, ok := strings.CutPrefix(spec, "sqlite:"); ok {
		if path == "" {
			return nil, errors.New("--store sqlite: needs a file path, e.g. sqlite:contactsync.db")
		}
		return sqlite.Open(ctx, path)
	}
	return nil, fmt.Errorf("--store %q: unknown store; use sqlite:PATH", spec)
}

// runServe runs the service until ctx is cancelled, then shuts down gracefully.
func runServe(ctx context.Context, opts serveOptions, logger *slog.Logger) error {
	if _, err := server.Namespace(opts.baseURL); err != nil {
		return fmt.Errorf("--base-url: %w", err)
	}
	st, err := openStore(ctx, opts.store)
	if err != nil {
		return err
	}
	defer st.Close()

	handler, err := server.NewHandler(server.NewService(st), server.Config{BaseURL: opts.baseURL, Logger: logger})
	if err != nil {
		return err
	}
	listener, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ns, _ := server.Namespace(opts.baseURL)
	logger.Info("contactsync listening", "addr", listener.Addr().String(), "endpoint", "/contactsync/v1/sync.asmx",
		"namespace", ns, "store", opts.store)
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
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
