package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// launchServe runs the real serve wiring (runServe) in-process with opts and waits until it listens:
// on a free loopback port unless opts.addr is set, with the default base URL unless opts.baseURL is.
// It returns the bound address, the function that stops serve (as SIGTERM would) and the channel
// runServe's result arrives on. A serve that stops, or does not listen within 20 s, fails t.
func launchServe(t *testing.T, opts serveOptions, logger *slog.Logger) (net.Addr, context.CancelFunc, chan error) {
	t.Helper()
	if opts.addr == "" {
		opts.addr = "127.0.0.1:0"
	}
	if opts.baseURL == "" {
		opts.baseURL = wsdl.DefaultBaseURL
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	addrCh := make(chan net.Addr, 1)
	done := make(chan error, 1)
	opts.ready = func(a net.Addr) { addrCh <- a }
	go func() { done <- runServe(ctx, opts, logger) }()
	select {
	case a := <-addrCh:
		return a, cancel, done
	case err := <-done:
		t.Fatalf("serve stopped before listening: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start listening within 20s")
	}
	return nil, nil, nil
}

// startServe runs the real serve wiring in-process on a free loopback port and returns the endpoint
// and a function that stops it (as SIGTERM would) and waits for it to finish.
func startServe(t *testing.T, storeSpec string) (endpoint string, stop func()) {
	t.Helper()
	addr, cancel, done := launchServe(t, serveOptions{store: storeSpec, shutdownTimeout: 5 * time.Second},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	endpoint = "http://" + addr.String() + wsdl.Path
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			require.NoError(t, <-done)
		})
	}
	t.Cleanup(stop)
	return endpoint, stop
}

// TestServeRestartKeepsContacts creates a contact through the real wiring, stops the server, starts a
// new one on the same database file and reads the contact back.
func TestServeRestartKeepsContacts(t *testing.T) {
	storeSpec := "sqlite:" + filepath.Join(t.TempDir(), "contacts.db")
	endpoint, stop := startServe(t, storeSpec)
	c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace}}
	created, err := c.TestCreateContact(&gen.TestCreateContact{Id: "restart-1"})
	require.NoError(t, err)
	stop()

	endpoint, _ = startServe(t, storeSpec)
	c = &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace, Binding: client.SOAP11, HTTP: nil}}
	read, err := c.ReadContact(&gen.ReadContact{Id: "restart-1"})
	require.NoError(t, err)
	assert.Equal(t, created.TestCreateContactResult, read.ReadContactResult)
}

func TestServeRejectsBadConfiguration(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		opts serveOptions
		want string
	}{
		{"unknown store", serveOptions{addr: "127.0.0.1:0", store: "mysql://x", baseURL: wsdl.DefaultBaseURL}, "unknown store"},
		{"empty sqlite path", serveOptions{addr: "127.0.0.1:0", store: "sqlite:", baseURL: wsdl.DefaultBaseURL}, "--store sqlite:: a SQLite store needs a file path after sqlite:"},
		{"bad base url", serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(dir, "a.db"), baseURL: "localhost:8080"}, "--base-url"},
		{"bad addr", serveOptions{addr: "nonsense", store: "sqlite:" + filepath.Join(dir, "b.db"), baseURL: wsdl.DefaultBaseURL}, "--addr"},
		{"zero concurrency", serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(dir, "c.db"), baseURL: wsdl.DefaultBaseURL,
			limits: func() server.Limits { l := server.DefaultLimits(); l.Admission.MaxConcurrent = 0; return l }()}, "--max-concurrent"},
		{"negative timeout", serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(dir, "d.db"), baseURL: wsdl.DefaultBaseURL,
			limits: func() server.Limits { l := server.DefaultLimits(); l.ReadTimeout = -1; return l }()}, "--read-timeout"},
		{"negative shutdown timeout", serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(dir, "e.db"), baseURL: wsdl.DefaultBaseURL,
			shutdownTimeout: -time.Second}, "--shutdown-timeout must be positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := runServe(context.Background(), tc.opts, slog.New(slog.NewTextHandler(io.Discard, nil)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// runCLI runs the command tree in-process with args and returns its output and error.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// TestCallCommand runs `contactsync call` against a running server over every binding.
func TestCallCommand(t *testing.T) {
	endpoint, _ := startServe(t, "sqlite:"+filepath.Join(t.TempDir(), "contacts.db"))
	for _, b := range client.Bindings {
		t.Run(string(b), func(t *testing.T) {
			id := "cli-" + string(b)
			out, err := runCLI(t, "call", "TestCreateContact", "--id", id, "--binding", string(b), "--url", endpoint)
			require.NoError(t, err)
			assert.Contains(t, out, "<TestCreateContactResponse")
			assert.Contains(t, out, "<Id>"+id+"</Id>")

			out, err = runCLI(t, "call", "ReadContact", "--id", id, "--binding", string(b), "--url", endpoint)
			require.NoError(t, err)
			assert.Contains(t, out, "<FirstName>Test</FirstName>")

			out, err = runCLI(t, "call", "VersionMinor", "--binding", string(b), "--url", endpoint)
			require.NoError(t, err)
			assert.Contains(t, out, "<VersionMinorResult>0</VersionMinorResult>")

			_, err = runCLI(t, "call", "ReadContact", "--id", "missing-"+id, "--binding", string(b), "--url", endpoint)
			require.Error(t, err, "a fault must make call fail")
			assert.Contains(t, err.Error(), "does not exist")
		})
	}
	_, err := runCLI(t, "call", "Nope", "--url", endpoint)
	require.ErrorContains(t, err, "unknown operation")
}

func TestWSDLAndVersionCommands(t *testing.T) {
	out, err := runCLI(t, "wsdl", "--base-url", "https://contacts.example.com")
	require.NoError(t, err)
	assert.Contains(t, out, `targetNamespace="https://contacts.example.com/contactsync/v1/"`)
	assert.Contains(t, out, `location="https://contacts.example.com/contactsync/v1/sync.asmx"`)
	assert.NotContains(t, out, wsdl.DefaultNamespace)

	out, err = runCLI(t, "version")
	require.NoError(t, err)
	assert.Contains(t, out, "service contract version "+service.Version)
	assert.Contains(t, out, "contactsync devel (go", "a build without -ldflags stamps says devel")
}

// TestKillNineLosesNothing builds the real binary, has several clients create contacts, kills the
// process with SIGKILL while they are writing, restarts it on the same file and checks that every
// create the server acknowledged is there.
func TestKillNineLosesNothing(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	if testing.Short() {
		t.Skip("builds and kills the real binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	storeSpec := "sqlite:" + filepath.Join(dir, "contacts.db")

	start := func() (*exec.Cmd, string) {
		port := freePort(t)
		cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:"+port, "--store", storeSpec)
		cmd.Stderr = io.Discard
		require.NoError(t, cmd.Start())
		endpoint := "http://127.0.0.1:" + port + wsdl.Path
		c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace}}
		require.Eventually(t, func() bool {
			_, err := c.VersionMajor(&gen.VersionMajor{})
			return err == nil
		}, 10*time.Second, 20*time.Millisecond, "binary did not start")
		return cmd, endpoint
	}

	proc, endpoint := start()
	var (
		mu    sync.Mutex
		acked []string
		wg    sync.WaitGroup
	)
	stopWriting := make(chan struct{})
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace}}
			for i := 0; ; i++ {
				select {
				case <-stopWriting:
					return
				default:
				}
				id := fmt.Sprintf("kill-%d-%d", w, i)
				if _, err := c.TestCreateContact(&gen.TestCreateContact{Id: id}); err != nil {
					return // the server died mid-request: this write was not acknowledged
				}
				mu.Lock()
				acked = append(acked, id)
				mu.Unlock()
			}
		}()
	}
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) >= 100 },
		30*time.Second, 5*time.Millisecond, "clients made no progress")
	require.NoError(t, proc.Process.Kill())
	_ = proc.Wait()
	close(stopWriting)
	wg.Wait()

	proc, endpoint = start()
	defer func() { _ = proc.Process.Kill(); _ = proc.Wait() }()
	c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace}}
	var missing []string
	for _, id := range acked {
		if _, err := c.ReadContact(&gen.ReadContact{Id: id}); err != nil {
			missing = append(missing, id+": "+err.Error())
		}
	}
	assert.Empty(t, missing, "acknowledged writes lost after kill -9 (%d acknowledged)", len(acked))
	t.Logf("%d acknowledged creates, all present after kill -9", len(acked))
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return strings.TrimPrefix(l.Addr().String(), "127.0.0.1:")
}
