package main

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/wsdl"
)

// The reload tests send SIGHUP to the test process itself, as systemctl reload does to serve:
// signal.Notify is process-wide, so they do not run in parallel, and each sends the signal only while
// its serve runs (without one, SIGHUP would end the test binary).

// hangUp sends SIGHUP to this process.
func hangUp(t *testing.T) {
	t.Helper()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
}

// countIn counts the lines of logs holding s.
func countIn(logs *syncBuffer, s string) int { return strings.Count(logs.String(), s) }

// metricLine returns the line of the metric name at url/metrics.
func metricLine(t *testing.T, base, name string) string {
	t.Helper()
	body, err := getText(base + "/metrics")
	require.NoError(t, err)
	for line := range strings.Lines(body) {
		if strings.HasPrefix(line, name+" ") {
			return strings.TrimSpace(line)
		}
	}
	t.Fatalf("no metric %s in:\n%s", name, body)
	return ""
}

// TestReloadThroughTheConfigFile runs the serve command with a config file and reloads it with a real
// SIGHUP: a user added to the users file logs in, the log level changes, over a keep-alive connection
// opened before the reload; a config file that does not validate is kept out (metric 0, the old
// configuration serving); a changed setting that needs a restart is logged as such.
func TestReloadThroughTheConfigFile(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	users := filepath.Join(dir, "users")
	_, err := runCLIStdin(t, "alice-password\n", "user", "add", "alice", "--users-file", users, "--password-stdin")
	require.NoError(t, err)
	config := filepath.Join(dir, "contactsync.yaml")
	writeFile := func(content string) { require.NoError(t, os.WriteFile(config, []byte(content), 0o600)) }
	writeFile("users-file: " + users + "\nlog-level: info\n")

	port := freePort(t)
	base := "http://127.0.0.1:" + port
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		cmd := newRootCommand()
		cmd.SetArgs([]string{"serve", "--config", config, "--addr", "127.0.0.1:" + port, "--store", "sqlite:" + filepath.Join(dir, "c.db")})
		cmd.SetErr(&logs)
		done <- cmd.ExecuteContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	require.Eventually(t, func() bool { return countIn(&logs, "contactsync listening") == 1 }, 20*time.Second, 10*time.Millisecond, "%s", &logs)

	// One client, one keep-alive connection: every request says whether it reused it.
	httpClient := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	call := func(user, password, requestID string) (status int, reused bool) {
		req, err := http.NewRequest(http.MethodGet, base+wsdl.Path+"/VersionMajor", nil)
		require.NoError(t, err)
		req.SetBasicAuth(user, password)
		req.Header.Set("X-Request-ID", requestID)
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
		}))
		resp, err := httpClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		require.NoError(t, resp.Body.Close())
		return resp.StatusCode, reused
	}
	status, _ := call("alice", "alice-password", "before-1")
	require.Equal(t, http.StatusOK, status)
	status, _ = call("bob", "bob-password", "before-2")
	require.Equal(t, http.StatusUnauthorized, status, "bob is not a user yet")
	assert.Equal(t, "contactsync_config_last_reload_successful 1", metricLine(t, base, "contactsync_config_last_reload_successful"))

	reloadAndWait := func(outcome string) {
		t.Helper()
		before := countIn(&logs, outcome)
		hangUp(t)
		require.Eventually(t, func() bool { return countIn(&logs, outcome) > before }, 10*time.Second, 10*time.Millisecond,
			"no %q after SIGHUP:\n%s", outcome, &logs)
	}

	t.Run("users file and log level", func(t *testing.T) {
		_, err := runCLIStdin(t, "bob-password\n", "user", "add", "bob", "--users-file", users, "--password-stdin")
		require.NoError(t, err)
		writeFile("users-file: " + users + "\nlog-level: debug\n")
		reloadAndWait("configuration reloaded")

		status, reused := call("bob", "bob-password", "after-1")
		assert.Equal(t, http.StatusOK, status, "a user added to the users file logs in after the reload")
		assert.True(t, reused, "the keep-alive connection opened before the reload still serves")
		assert.Contains(t, logs.String(), "added=bob")
		assert.Contains(t, logs.String(), "msg=\"reload: log level changed\" setting=log-level from=info to=debug")
		debugLine(t, &logs, "after-1")
		assert.Equal(t, "contactsync_config_last_reload_successful 1", metricLine(t, base, "contactsync_config_last_reload_successful"))
	})

	t.Run("a bad config is kept out", func(t *testing.T) {
		writeFile("users-file: " + users + "\nlog-level: loud\n")
		reloadAndWait("reload failed: the running configuration is kept")
		assert.Contains(t, logs.String(), "key log-level (line 2)")
		assert.Equal(t, "contactsync_config_last_reload_successful 0", metricLine(t, base, "contactsync_config_last_reload_successful"))
		status, reused := call("bob", "bob-password", "after-2")
		assert.Equal(t, http.StatusOK, status, "the running configuration still serves")
		assert.True(t, reused)
		debugLine(t, &logs, "after-2")

		writeFile("users-file: " + filepath.Join(dir, "missing") + "\nlog-level: debug\n")
		reloadAndWait("reload failed: the running configuration is kept")
		status, _ = call("alice", "alice-password", "after-3")
		assert.Equal(t, http.StatusOK, status, "a users file that cannot be read is kept out too")
	})

	t.Run("a setting that needs a restart", func(t *testing.T) {
		writeFile("users-file: " + users + "\nlog-level: info\nmax-body-bytes: 2048\n")
		reloadAndWait("configuration reloaded")
		assert.Contains(t, logs.String(), `msg="reload: a setting changed that takes effect only at the next restart; the running value is kept" setting=max-body-bytes running=1048576 configured=2048`)
		assert.Equal(t, "contactsync_config_last_reload_successful 1", metricLine(t, base, "contactsync_config_last_reload_successful"))
		status, reused := call("alice", "alice-password", "after-4")
		assert.Equal(t, http.StatusOK, status)
		assert.True(t, reused)
	})
}

// TestReloadRenewsTheCertificate replaces the certificate and key files on disk and reloads: the next
// handshake presents the new certificate, a connection made before keeps working, and a pair that does
// not load is refused with the renewed certificate kept.
func TestReloadRenewsTheCertificate(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, first := testCertificate(t, dir, "server")
	reloaded := make(chan error, 1)
	addr, cancel, done := launchServe(t, serveOptions{
		store: "sqlite:" + filepath.Join(dir, "c.db"), tls: tlsOptions{certFile: certFile, keyFile: keyFile},
		shutdownTimeout: 5 * time.Second, reloaded: func(err error) { reloaded <- err },
	}, discard())
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })

	// presented returns the serial number of the certificate a new handshake gets.
	presented := func() string {
		conn, err := tls.Dial("tcp", addr.String(), &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // the test reads the certificate, it trusts nothing
		require.NoError(t, err)
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].SerialNumber.String()
	}
	require.Equal(t, first.SerialNumber.String(), presented())
	keptAlive := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // as above
	get := func() (serial string, reused bool) {
		req, err := http.NewRequest(http.MethodGet, "https://"+addr.String()+"/healthz", nil)
		require.NoError(t, err)
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
		}))
		resp, err := keptAlive.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body) // read to the end, so the connection is kept for the next request
		_ = resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		return resp.TLS.PeerCertificates[0].SerialNumber.String(), reused
	}
	get()

	// The renewal replaces the files (written beside them and renamed over them, as certbot and
	// cert-manager do).
	renewedCert, renewedKey, renewed := testCertificate(t, t.TempDir(), "renewed")
	require.NoError(t, os.Rename(renewedCert, certFile))
	require.NoError(t, os.Rename(renewedKey, keyFile))
	assert.Equal(t, first.SerialNumber.String(), presented(), "nothing changes before the reload")
	hangUp(t)
	require.NoError(t, <-reloaded)
	assert.Equal(t, renewed.SerialNumber.String(), presented(), "the next handshake presents the renewed certificate")
	serial, reused := get()
	assert.True(t, reused, "the connection made before the reload still serves")
	assert.Equal(t, first.SerialNumber.String(), serial, "with the certificate it was made with")

	// A key that does not match its certificate is refused, the renewed pair kept.
	_, otherKey, _ := testCertificate(t, t.TempDir(), "other")
	require.NoError(t, os.Rename(otherKey, keyFile))
	hangUp(t)
	err := <-reloaded
	require.ErrorContains(t, err, "private key does not match public key")
	assert.Equal(t, renewed.SerialNumber.String(), presented())
}

// TestSIGHUPDoesNotEndTheBinary: SIGHUP used to end serve with exit status 129, no log line, and the
// SQLite -wal, -shm and .lock files left behind. The real binary now reloads, keeps serving, and stops
// cleanly on SIGTERM afterwards.
func TestSIGHUPDoesNotEndTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals the real binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	addr := "127.0.0.1:" + freePort(t)
	db := filepath.Join(dir, "c.db")
	var logs syncBuffer
	proc := exec.Command(bin, "serve", "--addr", addr, "--store", "sqlite:"+db)
	proc.Stderr = &logs
	proc.Env = append(os.Environ(), "CONTACTSYNC_CONFIG=")
	require.NoError(t, proc.Start())
	exited := make(chan error, 1)
	go func() { exited <- proc.Wait() }()
	t.Cleanup(func() { _ = proc.Process.Kill() })
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "contactsync listening") },
		20*time.Second, 10*time.Millisecond, "binary did not start:\n%s", &logs)

	for range 2 {
		before := countIn(&logs, "configuration reloaded")
		require.NoError(t, proc.Process.Signal(syscall.SIGHUP))
		require.Eventually(t, func() bool { return countIn(&logs, "configuration reloaded") > before },
			10*time.Second, 10*time.Millisecond, "no reload logged:\n%s", &logs)
	}
	select {
	case err := <-exited:
		t.Fatalf("SIGHUP ended serve: %v\n%s", err, &logs)
	default:
	}
	text, err := getText("http://" + addr + "/healthz")
	require.NoError(t, err)
	assert.Equal(t, "ok\n", text)

	require.NoError(t, proc.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		require.NoError(t, err, "exit status after SIGTERM:\n%s", &logs)
	case <-time.After(15 * time.Second):
		t.Fatalf("serve did not stop:\n%s", &logs)
	}
	assert.NotContains(t, dirEntries(t, dir), "c.db.lock", "a stopped serve removes its lock file")
}
