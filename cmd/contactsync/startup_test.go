package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/store/storetest/fulldisk"
	"github.com/contactsync/contactsync/wsdl"
)

// discard is a logger for serves whose log a test does not read.
func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// dirEntries lists a directory's names, for checking that a failed command left nothing behind.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestSecondServeOnOneSQLiteFileRefuses: a second serve of the database file another serve holds
// refuses at start, naming the file and the holder; backup, export and import still work beside the
// first; once it stops, the file can be served again. Before the lock, both started without a word and
// contended for SQLite's write lock on every request.
func TestSecondServeOnOneSQLiteFileRefuses(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "contacts.db")
	spec := "sqlite:" + db
	endpoint, stop := startServe(t, spec)

	err := runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL}, discard())
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, db+" is already served by another contactsync serve")
	assert.Contains(t, msg, "pid "+strconv.Itoa(os.Getpid()))
	assert.Contains(t, msg, "lock file "+db+".lock")
	assert.Contains(t, msg, "One serve per SQLite file")
	assert.Contains(t, msg, "PostgreSQL")

	// The same file through another spelling of its path is the same database.
	rel, err := filepath.Rel(mustGetwd(t), db)
	require.NoError(t, err)
	err = runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + rel, baseURL: wsdl.DefaultBaseURL}, discard())
	require.ErrorContains(t, err, "already served")

	// The data commands run beside serve, as docs/data.md says.
	r := runData(t, `{"Id":"beside-1","FirstName":"A"}`+"\n", "import", "--store", spec)
	require.NoError(t, r.err, r.stderr)
	r = runData(t, "", "export", "--store", spec)
	require.NoError(t, r.err, r.stderr)
	assert.Contains(t, r.stdout, `"beside-1"`)
	r = runData(t, "", "backup", "--store", spec, "--to", filepath.Join(dir, "backup.db"))
	require.NoError(t, r.err, r.stderr)
	out, err := runCLI(t, "call", "ReadContact", "--id", "beside-1", "--url", endpoint)
	require.NoError(t, err, out)

	stop()
	_, err = os.Stat(db + ".lock")
	assert.True(t, os.IsNotExist(err), "a stopped serve removes its lock file: %v", err)
	startServe(t, spec)
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	return wd
}

// TestFailedStartLeavesNoFile: a serve that cannot listen (the port is taken, on --addr or
// --admin-addr) says so and leaves no database or lock file behind; before, it created an empty
// database first.
func TestFailedStartLeavesNoFile(t *testing.T) {
	clearSettingsEnv(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	dir := t.TempDir()
	spec := "sqlite:" + filepath.Join(dir, "contacts.db")

	err = runServe(context.Background(), serveOptions{addr: taken.Addr().String(), store: spec, baseURL: wsdl.DefaultBaseURL}, discard())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--addr "+taken.Addr().String())
	assert.Contains(t, err.Error(), "another process listens there (another contactsync serve?)")
	assert.Empty(t, dirEntries(t, dir))

	err = runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL,
		obs: obsOptions{adminAddr: taken.Addr().String()}}, discard())
	require.ErrorContains(t, err, "--admin-addr "+taken.Addr().String())
	assert.Empty(t, dirEntries(t, dir))
}

// TestStorePathMessages: SQLite says "unable to open database file (14)" for a missing directory and
// an unwritable one alike, and a read-only database file used to open and fail a second later; each
// is now refused at start with the cause and what to do, and leaves nothing behind.
func TestStorePathMessages(t *testing.T) {
	clearSettingsEnv(t)
	missing := filepath.Join(t.TempDir(), "no", "such")
	err := runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(missing, "c.db"), baseURL: wsdl.DefaultBaseURL}, discard())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the directory "+missing+" does not exist: create it (mkdir -p "+missing+")")

	// A read-only directory and a read-only file: a read-only mount for root, whom permissions do
	// not stop, and permissions otherwise.
	dir := readOnlyDir(t, func(dir string) {
		_, stop := startServe(t, "sqlite:"+filepath.Join(dir, "old.db"))
		stop()
	})
	before := dirEntries(t, dir)
	err = runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(dir, "new.db"), baseURL: wsdl.DefaultBaseURL}, discard())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the directory "+dir+" is not writable for this user")
	assert.Contains(t, err.Error(), "new.db-wal")

	err = runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(dir, "old.db"), baseURL: wsdl.DefaultBaseURL}, discard())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the database file "+filepath.Join(dir, "old.db")+" is read-only for this user")
	assert.Equal(t, before, dirEntries(t, dir))
}

// readOnlyDir returns a directory that this process cannot write, after fill has put files in it.
func readOnlyDir(t *testing.T, fill func(dir string)) string {
	t.Helper()
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		fill(dir)
		entries := dirEntries(t, dir)
		for _, e := range entries {
			require.NoError(t, os.Chmod(filepath.Join(dir, e), 0o444))
		}
		require.NoError(t, os.Chmod(dir, 0o555))
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		return dir
	}
	dir := fulldisk.Mount(t, 16<<20)
	fill(dir)
	out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return dir
}

// TestStartupLogLine: the line serve logs when it listens names the version, the address, the
// protocols, the store's kind and the store (never its password), and the authentication mode.
func TestStartupLogLine(t *testing.T) {
	clearSettingsEnv(t)
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	addr, cancel, done := launchServe(t, serveOptions{store: "sqlite:" + filepath.Join(t.TempDir(), "c.db"),
		protocols: []string{"soap11", "json", "docs"}}, logger)
	cancel()
	require.NoError(t, <-done)
	var line string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "contactsync listening") {
			line = l
		}
	}
	require.NotEmpty(t, line, logs.String())
	for _, want := range []string{"version=devel", "addr=" + addr.String(), "scheme=http", "protocols=soap11,json,docs",
		"store_kind=sqlite", "store=sqlite:", "auth=off"} {
		assert.Contains(t, line, want)
	}

	// A PostgreSQL store is named without its password, even when it cannot be reached.
	var pgLogs syncBuffer
	err := runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", baseURL: wsdl.DefaultBaseURL,
		store: "postgres://u:s3cret@127.0.0.1:1/db?sslmode=disable&connect_timeout=1"}, slog.New(slog.NewTextHandler(&pgLogs, nil)))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "s3cret")
	assert.NotContains(t, pgLogs.String(), "s3cret")
	assert.Equal(t, "postgres", stores.Registry.Kind("postgres://u:s3cret@h/db"))
}

// TestHealthCommand: health answers 0 and "healthy" while serve is ready, and fails once it stops.
func TestHealthCommand(t *testing.T) {
	clearSettingsEnv(t)
	addr, cancel, done := launchServe(t, serveOptions{store: "sqlite:" + filepath.Join(t.TempDir(), "c.db")}, discard())
	_, port, err := net.SplitHostPort(addr.String())
	require.NoError(t, err)

	out, err := runCLI(t, "health", "--addr", ":"+port)
	require.NoError(t, err, out)
	assert.Equal(t, "healthy: http://127.0.0.1:"+port+"/readyz answered 200 OK: ok\n", out)
	t.Setenv("CONTACTSYNC_ADDR", "0.0.0.0:"+port) // the setting serve reads, from the environment
	out, err = runCLI(t, "health", "--liveness")
	require.NoError(t, err, out)
	assert.Contains(t, out, "/healthz answered 200 OK")

	cancel()
	require.NoError(t, <-done)
	_, err = runCLI(t, "health", "--timeout", "2s")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unhealthy: ")

	// With serve's certificate set, health speaks HTTPS to it.
	dir := t.TempDir()
	certFile, keyFile, _ := testCertificate(t, dir, "server")
	addr, cancel, done = launchServe(t, serveOptions{store: "sqlite:" + filepath.Join(dir, "c.db"),
		tls: tlsOptions{certFile: certFile, keyFile: keyFile}}, discard())
	defer func() { cancel(); require.NoError(t, <-done) }()
	out, err = runCLI(t, "health", "--addr", addr.String(), "--tls-cert", certFile)
	require.NoError(t, err, out)
	assert.Contains(t, out, "healthy: https://"+addr.String()+"/readyz answered 200 OK")
	// Without it, health is told why serve refuses its plain HTTP (TestHealthSchemeMismatch has the
	// other cases).
	_, err = runCLI(t, "health", "--addr", addr.String())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "serve speaks HTTPS on "+addr.String()+": give health serve's --tls-cert")
}

// TestArgumentErrors: a missing or extra positional argument says what the command wants, not
// cobra's "accepts 1 arg(s), received 0".
func TestArgumentErrors(t *testing.T) {
	clearSettingsEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"user", "add", "--users-file", "u"}, "contactsync user add needs NAME, the user's name: contactsync user add NAME"},
		{[]string{"user", "remove"}, "contactsync user remove needs NAME, the user's name"},
		{[]string{"user", "add", "a", "b"}, "contactsync user add takes one NAME, the user's name, but was given 2: \"a b\""},
		{[]string{"call"}, "contactsync call needs OPERATION, the name of the operation to call (TestCreateContact,"},
		{[]string{"serve", "now"}, "contactsync serve takes no arguments, but was given \"now\"; its inputs are flags"},
		{[]string{"export", "contacts.jsonl"}, "contactsync export takes no arguments"},
	} {
		_, err := runCLI(t, tc.args...)
		require.Error(t, err, "%v", tc.args)
		assert.Contains(t, err.Error(), tc.want)
		assert.NotContains(t, err.Error(), "arg(s)")
	}
}

// TestVersionFlag: --version prints what the version command prints.
func TestVersionFlag(t *testing.T) {
	flag, err := runCLI(t, "--version")
	require.NoError(t, err)
	cmd, err := runCLI(t, "version")
	require.NoError(t, err)
	assert.Equal(t, cmd, flag)
	assert.Regexp(t, `^contactsync devel \(go[0-9.]+, [a-z0-9]+/[a-z0-9]+\)\nservice contract version 1\.0\n$`, flag)

	version, commit, date = "1.4.0", "0123456789ab", "2026-11-25T10:00:00Z"
	defer func() { version, commit, date = "", "", "" }()
	assert.Equal(t, "contactsync 1.4.0 (commit 0123456789ab, built 2026-11-25T10:00:00Z, "+currentBuild().Go+", "+currentBuild().Platform+")",
		currentBuild().String())
}
