package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/wsdl"
)

// TestServeWaitsForPostgres starts serve before its database: PostgreSQL is behind a proxy that
// refuses connections (as a server not started yet does) until the test brings it up. Meanwhile serve
// is alive (/healthz 200), not ready (/readyz 503 saying it waits), answers other requests 503 with
// Retry-After, and logs its attempts at a modest rate; once the proxy is up it serves at once. It used
// to exit with "connection refused".
func TestServeWaitsForPostgres(t *testing.T) {
	dsn := pgtest.Schema(t)
	proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
	proxy.Down() // the database is not there yet
	var logs syncBuffer
	listening, ready := make(chan net.Addr, 1), make(chan net.Addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, serveOptions{
			addr: "127.0.0.1:0", baseURL: wsdl.DefaultBaseURL, shutdownTimeout: 5 * time.Second,
			store:     pgtest.WithHostPort(t, dsn, proxy.Addr()),
			stores:    backend.Settings{"postgres": &postgres.Options{MaxConns: 4, ConnectTimeout: time.Second, Timeout: 5 * time.Second}},
			storeWait: time.Minute,
			listening: func(a net.Addr) { listening <- a },
			ready:     func(a net.Addr) { ready <- a },
		}, slog.New(slog.NewTextHandler(&logs, nil)))
	}()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	var base string
	select {
	case a := <-listening:
		base = "http://" + a.String()
	case err := <-done:
		t.Fatalf("serve did not wait for the database: %v\n%s", err, &logs)
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not answer while waiting:\n%s", &logs)
	}

	httpClient := &http.Client{Timeout: 5 * time.Second}
	get := func(path string) (int, string, http.Header) {
		resp, err := httpClient.Get(base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(body), resp.Header
	}
	status, _, _ := get("/healthz")
	assert.Equal(t, http.StatusOK, status, "alive while waiting")
	status, body, header := get("/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, status, "not ready while waiting")
	assert.Contains(t, body, "not ready: waiting for the store (")
	assert.Equal(t, "1", header.Get("Retry-After"))
	status, body, _ = get(wsdl.Path + "/VersionMajor")
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Contains(t, body, "contactsync is starting: waiting for the store")

	time.Sleep(2 * time.Second) // a few attempts: 0, 0.5, 1.5 s
	proxy.Up()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, &logs)
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not start serving once the database was up:\n%s", &logs)
	}
	c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: "http://" + addr.String() + wsdl.Path, Namespace: wsdl.DefaultNamespace}}
	created, err := c.TestCreateContact(&gen.TestCreateContact{Id: "waited-1"})
	require.NoError(t, err)
	assert.Equal(t, "waited-1", created.TestCreateContactResult.Id)
	status, _, _ = get("/readyz")
	assert.Equal(t, http.StatusOK, status)

	log := logs.String()
	attempts := strings.Count(log, "store not reachable yet; serve waits for it")
	assert.GreaterOrEqual(t, attempts, 2, log)
	assert.LessOrEqual(t, attempts, 5, "attempts are logged at a modest rate, not every few milliseconds:\n%s", log)
	assert.Contains(t, log, "store reached")
	assert.Contains(t, log, "contactsync listening")
}

// TestServeDoesNotWaitForWhatOnlyAPersonCanFix: a missing database, a role that does not exist and a
// SQLite file in a missing directory fail serve at once, however long --store-wait is.
func TestServeDoesNotWaitForWhatOnlyAPersonCanFix(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store func(t *testing.T) string
		want  string
	}{
		{"missing database (3D000)", func(t *testing.T) string {
			return pgtest.WithParam(t, pgtest.DSN(t), "dbname", "contactsync_no_such_db_31")
		}, "the database named in the DSN does not exist"},
		{"missing role (28000)", func(t *testing.T) string {
			return pgtest.WithParam(t, pgtest.DSN(t), "user", "contactsync_no_such_role_31")
		}, "28000"},
		{"sqlite in a missing directory", func(t *testing.T) string {
			return "sqlite:" + filepath.Join(t.TempDir(), "no", "such", "c.db")
		}, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			err := runServe(context.Background(), serveOptions{
				addr: "127.0.0.1:0", baseURL: wsdl.DefaultBaseURL, store: tc.store(t), storeWait: time.Minute,
				listening: func(net.Addr) { t.Error("serve waited for a store that cannot come") },
			}, discard())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Less(t, time.Since(start), 10*time.Second, "failed at once, not after --store-wait")
		})
	}
}

// TestStoreWaitSetting: --store-wait is a setting with a default of a minute; a negative one is refused.
func TestStoreWaitSetting(t *testing.T) {
	clearSettingsEnv(t)
	cmd, err := resolveSettings(t, "serve")
	require.NoError(t, err)
	assert.Equal(t, "1m0s", cmd.Flags().Lookup("store-wait").Value.String())
	err = runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", baseURL: wsdl.DefaultBaseURL, storeWait: -time.Second}, discard())
	require.ErrorContains(t, err, "--store-wait must be 0 (do not wait) or positive")
}
