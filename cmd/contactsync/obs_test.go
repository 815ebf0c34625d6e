package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/contactsync/contactsync/wsdl"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startObservedServe runs the real serve wiring with obs and returns the main and admin base URLs
// (admin empty when obs has no admin address) and a stop function that waits for serve to end.
func startObservedServe(t *testing.T, obs obsOptions, logs io.Writer) (mainURL, adminURL string, stop func()) {
	t.Helper()
	adminCh := make(chan net.Addr, 1)
	obs.adminReady = func(a net.Addr) { adminCh <- a }
	addr, cancel, done := launchServe(t, serveOptions{
		store: "sqlite:" + filepath.Join(t.TempDir(), "contacts.db"), shutdownTimeout: 5 * time.Second, obs: obs,
	}, slog.New(slog.NewJSONHandler(logs, nil)))
	mainURL = "http://" + addr.String()
	if obs.adminAddr != "" {
		// The admin listener is up before the main one reports ready.
		adminURL = "http://" + (<-adminCh).String()
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			require.NoError(t, <-done)
		})
	}
	t.Cleanup(stop)
	return mainURL, adminURL, stop
}

func httpGet(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	require.NoError(t, err)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

// TestServeAdminAddr checks --admin-addr: /metrics is served there (with the request, store, Go and
// process metrics) and no longer on the main listener, health answers on both, the access log has
// the request, and the admin listener stops with the server.
func TestServeAdminAddr(t *testing.T) {
	logs := &syncBuffer{}
	mainURL, adminURL, stop := startObservedServe(t, obsOptions{adminAddr: "127.0.0.1:0", accessLog: true}, logs)

	resp, body := httpGet(t, mainURL+wsdl.Path+"/VersionMajor", "X-Request-ID", "admin-test-1")
	require.Equal(t, 200, resp.StatusCode, body)
	assert.Equal(t, "admin-test-1", resp.Header.Get("X-Request-ID"))

	resp, body = httpGet(t, adminURL+"/metrics")
	require.Equal(t, 200, resp.StatusCode)
	for _, want := range []string{
		`contactsync_requests_total{binding="get",operation="VersionMajor",outcome="ok"} 1`,
		`contactsync_request_duration_seconds_count{binding="get",operation="VersionMajor"} 1`,
		`contactsync_requests_in_flight 0`,
		`contactsync_store_errors_total{kind="unavailable",method="get"} 0`,
		`contactsync_store_duration_seconds_bucket{method="ping",le="+Inf"}`,
		`go_goroutines `,
		`process_cpu_seconds_total `,
	} {
		assert.Contains(t, body, want)
	}

	resp, body = httpGet(t, mainURL+"/metrics")
	assert.Equal(t, 404, resp.StatusCode, "metrics live on the admin address only: %s", body)
	for _, base := range []string{mainURL, adminURL} {
		for _, path := range []string{"/healthz", "/readyz"} {
			resp, body := httpGet(t, base+path)
			assert.Equal(t, 200, resp.StatusCode, base+path)
			assert.Equal(t, "ok\n", body)
		}
	}
	resp, _ = httpGet(t, adminURL+wsdl.Path+"/VersionMajor")
	assert.Equal(t, 404, resp.StatusCode, "the admin listener serves no operations")

	var line map[string]any
	for _, raw := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var l map[string]any
		require.NoError(t, json.Unmarshal([]byte(raw), &l), raw)
		if l["msg"] == "request" && l["request_id"] == "admin-test-1" {
			line = l
		}
	}
	require.NotNil(t, line, "access line of the request: %s", logs.String())
	assert.Equal(t, "VersionMajor", line["operation"])

	stop()
	_, err := net.DialTimeout("tcp", strings.TrimPrefix(adminURL, "http://"), time.Second)
	assert.Error(t, err, "the admin listener closes with the server")
}

// TestServeMetricsOnMainListener checks that without --admin-addr /metrics is on the main listener,
// and that the access log is off when not asked for.
func TestServeMetricsOnMainListener(t *testing.T) {
	logs := &syncBuffer{}
	mainURL, _, _ := startObservedServe(t, obsOptions{}, logs)
	resp, _ := httpGet(t, mainURL+wsdl.Path+"/VersionMinor")
	require.Equal(t, 200, resp.StatusCode)
	assert.NotEmpty(t, resp.Header.Get("X-Request-ID"), "a request id is generated even without an access log")
	resp, body := httpGet(t, mainURL+"/metrics")
	require.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, body, `contactsync_requests_total{binding="get",operation="VersionMinor",outcome="ok"} 1`)
	assert.NotContains(t, logs.String(), `"msg":"request"`)
}

// TestServeExportsBuildInfo: /metrics has contactsync_build_info, 1, labelled with what --version
// prints.
func TestServeExportsBuildInfo(t *testing.T) {
	mainURL, _, _ := startObservedServe(t, obsOptions{}, &syncBuffer{})
	resp, body := httpGet(t, mainURL+"/metrics")
	require.Equal(t, 200, resp.StatusCode)
	b := currentBuild()
	assert.Contains(t, body, `contactsync_build_info{commit="`+b.Commit+`",go_version="`+runtime.Version()+`",version="`+b.Version+`"} 1`)
	assert.Contains(t, versionTemplate(), b.Version, "the metric's version is the one --version prints")
}

func TestServeRejectsBadAdminAddr(t *testing.T) {
	err := runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(t.TempDir(), "a.db"),
		baseURL: wsdl.DefaultBaseURL, obs: obsOptions{adminAddr: "nonsense"}}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.ErrorContains(t, err, "--admin-addr")
}

// TestObsFlags checks the flags' defaults and that they reach obsOptions.
func TestObsFlags(t *testing.T) {
	cmd := newServeCommand()
	admin, err := cmd.Flags().GetString("admin-addr")
	require.NoError(t, err)
	assert.Empty(t, admin, "no admin listener unless asked for")
	accessLog, err := cmd.Flags().GetBool("access-log")
	require.NoError(t, err)
	assert.True(t, accessLog, "the access log is on by default")

	var o obsOptions
	cmd = &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	obsFlags(cmd, &o)
	cmd.SetArgs([]string{"--admin-addr", "127.0.0.1:9090", "--access-log=false"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, "127.0.0.1:9090", o.adminAddr)
	assert.False(t, o.accessLog)
}

// TestBinaryAdminAddr runs the real binary with --admin-addr and checks metrics and health there,
// the access line on stderr, and a clean exit on SIGTERM.
func TestBinaryAdminAddr(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	if testing.Short() {
		t.Skip("builds the real binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "contactsync")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())

	port, adminPort := freePort(t), freePort(t)
	stderr := &syncBuffer{}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:"+port, "--admin-addr", "127.0.0.1:"+adminPort,
		"--store", "sqlite:"+filepath.Join(dir, "contacts.db"))
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill() }()
	adminURL := "http://127.0.0.1:" + adminPort
	require.Eventually(t, func() bool {
		resp, err := http.Get(adminURL + "/readyz")
		if err != nil {
			return false
		}
		_ = resp.Body.Close()
		return resp.StatusCode == 200
	}, 10*time.Second, 20*time.Millisecond, "admin listener did not become ready: %s", stderr)

	resp, _ := httpGet(t, "http://127.0.0.1:"+port+wsdl.Path+"/ReadContact?id=nobody", "Authorization", "Basic c2VjcmV0OnNlY3JldA==")
	require.Equal(t, 404, resp.StatusCode)
	id := resp.Header.Get("X-Request-ID")
	require.NotEmpty(t, id)
	_, body := httpGet(t, adminURL+"/metrics")
	assert.Contains(t, body, `contactsync_requests_total{binding="get",operation="ReadContact",outcome="NotFound"} 1`)
	assert.Contains(t, body, `contactsync_store_duration_seconds_count{method="get"} 1`)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), "serve exits cleanly on SIGTERM: %s", stderr)
	logs := stderr.String()
	assert.Contains(t, logs, "request_id="+id)
	assert.Contains(t, logs, "outcome=NotFound")
	assert.Contains(t, logs, "contactsync admin listening")
	assert.NotContains(t, logs, "c2VjcmV0OnNlY3JldA==", "the Authorization header is never logged")
}

// TestServeAdminPprof checks --admin-pprof: the profiler answers on the admin listener when on, is
// 404 there when off, and is never on the main listener.
func TestServeAdminPprof(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pprof bool
		want  int
	}{
		{"on", true, http.StatusOK},
		{"off", false, http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mainURL, adminURL, _ := startObservedServe(t, obsOptions{adminAddr: "127.0.0.1:0", adminPprof: tc.pprof}, io.Discard)
			for _, path := range []string{"/debug/pprof/", "/debug/pprof/heap?debug=1", "/debug/pprof/symbol"} {
				resp, body := httpGet(t, adminURL+path)
				assert.Equal(t, tc.want, resp.StatusCode, "admin %s: %s", path, body)
				resp, body = httpGet(t, mainURL+path)
				assert.Equal(t, http.StatusNotFound, resp.StatusCode, "main %s: the profiler is never on --addr: %s", path, body)
			}
			// The command line is never served: it may carry a DSN with its password.
			resp, _ := httpGet(t, adminURL+"/debug/pprof/cmdline")
			assert.Equal(t, http.StatusNotFound, resp.StatusCode, "admin /debug/pprof/cmdline")
			if tc.pprof {
				_, body := httpGet(t, adminURL+"/debug/pprof/")
				assert.Contains(t, body, "goroutine", "the index lists the profiles")
				resp, body := httpGet(t, adminURL+"/debug/pprof/profile?seconds=1")
				require.Equal(t, http.StatusOK, resp.StatusCode, body)
				assert.NotEmpty(t, body, "a CPU profile")
			}
			// The admin listener keeps its other endpoints either way.
			resp, _ = httpGet(t, adminURL+"/metrics")
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			resp, _ = httpGet(t, adminURL+"/healthz")
			assert.Equal(t, http.StatusOK, resp.StatusCode)
		})
	}
}

// TestServeAdminPprofNeedsAdminAddr checks that --admin-pprof without --admin-addr is refused, naming
// both, rather than silently serving no profiler (or serving it on the main listener).
func TestServeAdminPprofNeedsAdminAddr(t *testing.T) {
	err := runServe(context.Background(), serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(t.TempDir(), "a.db"),
		baseURL: wsdl.DefaultBaseURL, obs: obsOptions{adminPprof: true}}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--admin-pprof")
	assert.Contains(t, err.Error(), "--admin-addr")

	cmd := newServeCommand()
	pprofOn, err := cmd.Flags().GetBool("admin-pprof")
	require.NoError(t, err)
	assert.False(t, pprofOn, "the profiler is off by default")
}
