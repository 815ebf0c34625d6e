package main

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/wsdl"
)

// startServeOpts is startServe with every option given: it runs the real serve wiring in-process on a
// free loopback port and returns the endpoint; the server stops when the test ends.
func startServeOpts(t *testing.T, opts serveOptions) string {
	t.Helper()
	opts.addr, opts.baseURL, opts.shutdownTimeout = "127.0.0.1:0", wsdl.DefaultBaseURL, 5*time.Second
	addr, cancel, done := launchServe(t, opts, slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	return "http://" + addr.String() + wsdl.Path
}

// TestMigrateCommand runs `contactsync migrate` on both stores: it applies the migrations once, reports
// an up-to-date schema after, and, like serve, refuses a schema a newer release migrated.
func TestMigrateCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec func(t *testing.T) string
		// exec runs SQL against the store spec names.
		exec func(t *testing.T, spec, query string)
	}{
		{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "c.db") },
			func(t *testing.T, spec, query string) {
				db, err := sql.Open("sqlite", spec[len("sqlite:"):])
				require.NoError(t, err)
				defer db.Close()
				_, err = db.ExecContext(t.Context(), query)
				require.NoError(t, err)
			}},
		{"postgres", func(t *testing.T) string { return pgtest.Schema(t) },
			func(t *testing.T, spec, query string) {
				conn, err := pgx.Connect(t.Context(), spec)
				require.NoError(t, err)
				defer conn.Close(context.Background())
				_, err = conn.Exec(t.Context(), query)
				require.NoError(t, err)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec(t)
			out, err := runCLI(t, "migrate", "--store", spec)
			require.NoError(t, err)
			assert.Equal(t, "applied 0001_create_contacts.sql\napplied 0002_write_probe.sql\napplied 0003_contacts_id_byte_order.sql\napplied 0004_contacts_doc.sql\napplied 0005_contacts_index_value.sql\napplied 0006_record_fields_types.sql\nschema now at version 6\n", out)
			out, err = runCLI(t, "migrate", "--store", spec)
			require.NoError(t, err)
			assert.Equal(t, "schema already at version 6\n", out)

			tc.exec(t, spec, `INSERT INTO schema_migrations (version, applied_at) VALUES (999, 'future')`)
			_, err = runCLI(t, "migrate", "--store", spec)
			var tooNew *migrate.SchemaTooNewError
			require.ErrorAs(t, err, &tooNew)
			err = runServe(t.Context(), serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL},
				slog.New(slog.NewTextHandler(io.Discard, nil)))
			require.ErrorAs(t, err, &tooNew, "serve must refuse a schema newer than it knows")
			assert.ErrorContains(t, err, "database schema version 999 is newer than this binary knows (6)")
		})
	}
	_, err := runCLI(t, "migrate", "--store", "mysql://x")
	require.ErrorContains(t, err, "unknown store")
}

func TestDBFlags(t *testing.T) {
	clearSettingsEnv(t)
	t.Setenv("CONTACTSYNC_DB_MAX_CONNS", "3")
	t.Setenv("CONTACTSYNC_DB_TIMEOUT", "750ms")
	cmd, err := resolveSettings(t, "serve")
	require.NoError(t, err)
	n, err := cmd.Flags().GetInt32("db-max-conns")
	require.NoError(t, err)
	assert.Equal(t, int32(3), n)
	d, err := cmd.Flags().GetDuration("db-timeout")
	require.NoError(t, err)
	assert.Equal(t, 750*time.Millisecond, d)
	d, err = cmd.Flags().GetDuration("db-connect-timeout")
	require.NoError(t, err)
	assert.Equal(t, postgres.DefaultConnectTimeout, d)

	t.Setenv("CONTACTSYNC_STORE", "sqlite:"+filepath.Join(t.TempDir(), "x.db"))
	t.Setenv("CONTACTSYNC_DB_TIMEOUT", "soon")
	_, err = runCLI(t, "serve", "--addr", "127.0.0.1:0")
	require.ErrorContains(t, err, "--db-timeout")
	_, err = runCLI(t, "serve", "--addr", "127.0.0.1:0", "--db-timeout", "1s", "--db-max-conns", "0")
	require.ErrorContains(t, err, "--db-max-conns")
}

func TestRedactStore(t *testing.T) {
	assert.Equal(t, "postgres://u:xxxxx@h/db", stores.Registry.Redact("postgres://u:secret@h/db"))
	assert.Equal(t, "sqlite:a.db", stores.Registry.Redact("sqlite:a.db"))
}

// TestServeNeverLogsTheDSNPassword runs serve on PostgreSQL with a password in the DSN and checks that
// neither its log (startup, shutdown) nor the error of a store that cannot be reached shows it.
func TestServeNeverLogsTheDSNPassword(t *testing.T) {
	const password = "pw-must-not-leak"
	withPassword := func(dsn string) string {
		u, err := url.Parse(dsn)
		require.NoError(t, err)
		u.User = url.UserPassword(u.User.Username(), password)
		return u.String()
	}
	t.Run("running", func(t *testing.T) {
		// The test database trusts its clients, so the password is sent nowhere and refused by nobody.
		dsn := withPassword(pgtest.Schema(t))
		var logs syncBuffer
		_, cancel, done := launchServe(t, serveOptions{store: dsn, shutdownTimeout: 5 * time.Second},
			slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
		cancel()
		require.NoError(t, <-done)
		assert.Contains(t, logs.String(), "contactsync listening")
		assert.Contains(t, logs.String(), strconv.Quote(stores.Registry.Redact(dsn)), "the log names the store, password masked")
		assert.NotContains(t, logs.String(), password)
	})
	t.Run("unreachable", func(t *testing.T) {
		var logs syncBuffer
		err := runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", baseURL: wsdl.DefaultBaseURL,
			store: withPassword("postgres://app@127.0.0.1:1/contacts?sslmode=disable&connect_timeout=2"), shutdownTimeout: time.Second},
			slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
		require.Error(t, err)
		assert.NotContains(t, err.Error(), password)
		assert.NotContains(t, logs.String(), password)
	})
}

// TestServePostgresOutage puts a TCP proxy between a real server and PostgreSQL and cuts it: while the
// database is refused, black-holed, partitioned or resetting connections, every operation answers quickly with a Server/Receiver fault
// (Unavailable) or HTTP 503 with Retry-After, never hangs, and /readyz reports the instance not ready
// (while /healthz keeps saying it is alive); once the proxy is back the same server is ready and
// serves again by itself, with the data intact.
func TestServePostgresOutage(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	dsn := pgtest.Schema(t)
	proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
	const dbTimeout = 500 * time.Millisecond
	endpoint := startServeOpts(t, serveOptions{
		store:  pgtest.WithHostPort(t, dsn, proxy.Addr()),
		stores: backend.Settings{"postgres": &postgres.Options{MaxConns: 4, ConnectTimeout: dbTimeout, Timeout: dbTimeout}},
	})
	base := strings.TrimSuffix(endpoint, wsdl.Path)
	httpClient := &http.Client{Timeout: 10 * time.Second}
	clientFor := func(b client.Binding) gen.SyncServiceSoap {
		return &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace, Binding: b, HTTP: httpClient}}
	}
	created, err := clientFor(client.SOAP11).TestCreateContact(&gen.TestCreateContact{Id: "outage-1"})
	require.NoError(t, err)

	bound := 2*dbTimeout + time.Second
	for _, cut := range []struct {
		name string
		do   func()
	}{{"Down", proxy.Down}, {"Blackhole", proxy.Blackhole}, {"Hold", proxy.Hold}, {"Reset", proxy.Reset}} {
		t.Run(cut.name, func(t *testing.T) {
			cut.do()
			// Every binding and operation at once: each is bounded by --db-timeout on its own, and
			// one after the other they would take the cut's time sixteen times over.
			var calls sync.WaitGroup
			for _, b := range client.Bindings {
				for _, op := range []string{"ReadContact", "TestCreateContact", "TestUpdateContact", "DeleteContact"} {
					calls.Go(func() {
						start := time.Now()
						_, err := client.Invoke(t.Context(), gen.Bind(clientFor(b)), op, map[string]string{"id": "outage-1"})
						took := time.Since(start)
						assert.Less(t, took, bound, "%s %s took %v", b, op, took)
						var fault *client.Fault
						var status *client.StatusError
						switch {
						case errors.As(err, &fault):
							assert.Contains(t, []string{"Server", "Receiver"}, fault.Code, "%s %s", b, op)
							assert.Equal(t, "Unavailable", fault.ErrorCode, "%s %s", b, op)
						case errors.As(err, &status):
							assert.Equal(t, http.StatusServiceUnavailable, status.StatusCode, "%s %s", b, op)
						default:
							t.Errorf("%s %s: want Unavailable, got %v", b, op, err)
						}
					})
				}
			}
			calls.Wait()
			resp, err := httpClient.Get(endpoint + "/ReadContact?id=outage-1")
			require.NoError(t, err)
			_ = resp.Body.Close()
			assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
			assert.NotEmpty(t, resp.Header.Get("Retry-After"))
			assert.Equal(t, http.StatusServiceUnavailable, statusOf(httpClient, base+"/readyz"), "readyz during the outage")
			assert.Equal(t, http.StatusOK, statusOf(httpClient, base+"/healthz"), "healthz during the outage")

			proxy.Up()
			require.Eventually(t, func() bool { return statusOf(httpClient, base+"/readyz") == http.StatusOK },
				15*time.Second, 20*time.Millisecond, "readyz did not recover after the database came back")
			var read *gen.ReadContactResponse
			require.Eventually(t, func() bool {
				read, err = clientFor(client.SOAP12).ReadContact(&gen.ReadContact{Id: "outage-1"})
				return err == nil
			}, 15*time.Second, 20*time.Millisecond, "service did not resume after the database came back")
			assert.Equal(t, created.TestCreateContactResult, read.ReadContactResult)
		})
	}
}

// TestNoLateWriteAfterUnavailable reproduces the late write of issue 21 deterministically. Instance A
// reaches PostgreSQL through a proxy that holds bytes during a partition and delivers them when it
// heals, as TCP retransmission does; instance B reaches it directly. A write through A while the
// partition lasts is answered Unavailable (503: not applied) once --db-timeout passes; B then writes
// the same contact; the partition heals and whatever A had sent reaches the server. The write
// answered 503 must never take effect: B's record is the one read afterwards.
func TestNoLateWriteAfterUnavailable(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	for _, tc := range []struct {
		name string
		// setup prepares the contact through B before the partition.
		setup []string
		// throughA is the write A is asked for during the partition; throughB what B then does.
		throughA string
		throughB []string
		// want is the record B must read once the partition healed: created, updated or absent.
		want int
	}{
		{"a DeleteContact answered 503 never removes a later create", []string{"TestCreateContact"},
			"DeleteContact", []string{"TestCreateContact"}, created},
		{"a TestCreateContact answered 503 never overwrites a later update", nil,
			"TestCreateContact", []string{"TestCreateContact", "TestUpdateContact"}, updated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := pgtest.Schema(t)
			proxy := pgtest.NewProxy(t, pgtest.Target(t, dsn))
			const dbTimeout = 500 * time.Millisecond
			endpointA := startServeOpts(t, serveOptions{
				store:  pgtest.WithHostPort(t, dsn, proxy.Addr()),
				stores: backend.Settings{"postgres": &postgres.Options{MaxConns: 1, ConnectTimeout: dbTimeout, Timeout: dbTimeout}},
			})
			endpointB := startServeOpts(t, serveOptions{store: dsn})
			httpClient := &http.Client{Timeout: 10 * time.Second}
			a := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpointA, Namespace: wsdl.DefaultNamespace, Binding: client.SOAP11, HTTP: httpClient}}
			b := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpointB, Namespace: wsdl.DefaultNamespace, Binding: client.SOAP11, HTTP: httpClient}}
			const id = "late-1"
			for _, op := range tc.setup {
				_, err := client.Invoke(t.Context(), gen.Bind(b), op, map[string]string{"id": id})
				require.NoError(t, err, op)
			}
			// The same write through A on another id right before the partition prepares its statement
			// on A's one pooled connection and leaves that connection idle for less than a second, so
			// that during the partition A sends the write itself on it (no ping, no Parse first): the
			// statement is what the partition holds and delivers.
			_, _ = client.Invoke(t.Context(), gen.Bind(a), tc.throughA, map[string]string{"id": "warm-up"})

			proxy.Hold()
			_, err := client.Invoke(t.Context(), gen.Bind(a), tc.throughA, map[string]string{"id": id})
			var fault *client.Fault
			require.ErrorAs(t, err, &fault, "%s through the partitioned instance", tc.throughA)
			require.Equal(t, "Unavailable", fault.ErrorCode, "%s through the partitioned instance", tc.throughA)
			for _, op := range tc.throughB {
				_, err := client.Invoke(t.Context(), gen.Bind(b), op, map[string]string{"id": id})
				require.NoError(t, err, op)
			}
			proxy.Up()
			require.True(t, proxy.Delivered(15*time.Second), "the partition's bytes were not delivered")

			got := absent
			read, err := b.ReadContact(&gen.ReadContact{Id: id})
			if !errors.As(err, &fault) || fault.ErrorCode != "NotFound" {
				require.NoError(t, err)
				got = recordOf(id, read.ReadContactResult)
				require.NotEqual(t, absent, got, "torn record: %+v", read.ReadContactResult)
			}
			assert.Equal(t, stateNames[tc.want], stateNames[got],
				"the record read is not B's last write: the %s answered 503 took effect after all", tc.throughA)
		})
	}
}

// statusOf returns the status of GET url, or 0 when the request fails. It does not fail the test
// itself, so require.Eventually can poll with it.
func statusOf(c *http.Client, url string) int {
	resp, err := c.Get(url)
	if err != nil {
		return 0
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}
