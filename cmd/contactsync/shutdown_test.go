package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// holdingStore wraps a store so a test can keep a request in flight: Get of the id "hold" waits until
// release is closed. It records how many such calls were running when Close was called.
type holdingStore struct {
	store.Store
	entered  chan struct{} // receives once per held Get, when it starts waiting
	release  chan struct{}
	inFlight atomic.Int32
	closed   atomic.Bool
	// inFlightAtClose is inFlight when Close was called.
	inFlightAtClose atomic.Int32
}

func newHoldingStore() *holdingStore {
	return &holdingStore{entered: make(chan struct{}, 8), release: make(chan struct{})}
}

func (s *holdingStore) Get(ctx context.Context, id string) (store.Record, error) {
	if id == "hold" {
		s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		s.entered <- struct{}{}
		<-s.release
	}
	return s.Store.Get(ctx, id)
}

func (s *holdingStore) Close() error {
	s.inFlightAtClose.Store(s.inFlight.Load())
	s.closed.Store(true)
	return s.Store.Close()
}

// startHeldServe runs serve in-process with a holdingStore, stores the contact "hold" and returns the
// endpoint, the store, the address, a function that stops serve (as SIGTERM would) and the channel
// runServe's result arrives on.
func startHeldServe(t *testing.T, shutdownTimeout time.Duration) (string, *holdingStore, net.Addr, context.CancelFunc, chan error) {
	t.Helper()
	held := newHoldingStore()
	addr, cancel, done := launchServe(t, serveOptions{
		store: "sqlite:" + filepath.Join(t.TempDir(), "c.db"), shutdownTimeout: shutdownTimeout,
		wrapStore: func(st store.Store) store.Store { held.Store = st; return held },
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	endpoint := "http://" + addr.String() + wsdl.Path
	c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace}}
	_, err := c.TestCreateContact(&gen.TestCreateContact{Id: "hold"})
	require.NoError(t, err)
	return endpoint, held, addr, cancel, done
}

// readHeld starts ReadContact("hold") on its own connection and returns where its result arrives.
func readHeld(endpoint string) chan error {
	result := make(chan error, 1)
	go func() {
		c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace, Binding: client.SOAP11,
			HTTP: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 20 * time.Second}}}
		resp, err := c.ReadContact(&gen.ReadContact{Id: "hold"})
		if err == nil && resp.ReadContactResult.Id != "hold" {
			err = fmt.Errorf("read contact %q, want hold", resp.ReadContactResult.Id)
		}
		result <- err
	}()
	return result
}

// TestShutdownLetsRequestsFinish stops serve while a request is in flight: the request completes, new
// connections are refused meanwhile, runServe returns nil, and the store is closed after the request.
func TestShutdownLetsRequestsFinish(t *testing.T) {
	endpoint, held, addr, stop, done := startHeldServe(t, 10*time.Second)
	result := readHeld(endpoint)
	<-held.entered

	stop()
	require.Eventually(t, func() bool {
		conn, err := net.DialTimeout("tcp", addr.String(), time.Second)
		if err == nil {
			conn.Close()
		}
		return err != nil
	}, 5*time.Second, 10*time.Millisecond, "new connections must be refused once shutdown starts")
	select {
	case err := <-done:
		t.Fatalf("runServe returned while a request was in flight: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	assert.False(t, held.closed.Load(), "store closed under a request in flight")

	close(held.release)
	require.NoError(t, <-result, "the request in flight must complete")
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("runServe did not return after the last request finished")
	}
	assert.True(t, held.closed.Load(), "store not closed")
	assert.Equal(t, int32(0), held.inFlightAtClose.Load(), "store closed before the request finished")
}

// TestShutdownTimeout keeps a request running past --shutdown-timeout: runServe says so, cuts it off
// and still closes the store.
func TestShutdownTimeout(t *testing.T) {
	endpoint, held, _, stop, done := startHeldServe(t, 200*time.Millisecond)
	result := readHeld(endpoint)
	<-held.entered
	defer close(held.release) // let the cut-off handler return, so the test leaves no goroutine waiting

	started := time.Now()
	stop()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("runServe did not give up after --shutdown-timeout")
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "requests still in flight after --shutdown-timeout 200ms")
	assert.GreaterOrEqual(t, time.Since(started), 200*time.Millisecond)
	assert.True(t, held.closed.Load(), "store not closed after a shutdown timeout")
	select {
	case err := <-result:
		assert.Error(t, err, "the request cut off by the timeout cannot have succeeded")
	case <-time.After(10 * time.Second):
		t.Fatal("the cut-off request's connection was not closed")
	}
}

// buildBinary builds the contactsync command into dir and returns its path.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "contactsync")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	return bin
}

// syncBuffer is a bytes.Buffer safe for a process writing and a test reading.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestSIGTERMLetsRequestsFinish sends SIGTERM to the real binary while a request is in flight: a client
// that has sent the headers and half the body of an HTTP POST. The server stops accepting, waits for
// the rest, answers 200 and exits 0.
func TestSIGTERMLetsRequestsFinish(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	if testing.Short() {
		t.Skip("builds and signals the real binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	port := freePort(t)
	addr := "127.0.0.1:" + port
	var logs syncBuffer
	proc := exec.Command(bin, "serve", "--addr", addr, "--store", "sqlite:"+filepath.Join(dir, "c.db"), "--shutdown-timeout", "20s")
	proc.Stderr = &logs
	proc.Env = append(os.Environ(), "CONTACTSYNC_CONFIG=")
	require.NoError(t, proc.Start())
	// exited is closed when the process has ended, waitErr then holding how.
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = proc.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = proc.Process.Kill()
		<-exited
	})
	require.Eventually(t, func() bool {
		_, err := getText("http://" + addr + wsdl.Path + "?WSDL")
		return err == nil
	}, 10*time.Second, 20*time.Millisecond, "binary did not start:\n%s", &logs)

	body := "id=sigterm-1"
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	_, err = fmt.Fprintf(conn, "POST %s/TestCreateContact HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\n"+
		"Content-Length: %d\r\nConnection: close\r\n\r\n%s", wsdl.Path, addr, len(body), body[:5])
	require.NoError(t, err)
	// The request is in flight once the handler waits for the rest of the body; give the server a
	// moment to read the headers, as a slow client would.
	time.Sleep(200 * time.Millisecond)

	require.NoError(t, proc.Process.Signal(syscall.SIGTERM))
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "contactsync shutting down") },
		10*time.Second, 10*time.Millisecond, "no shutdown logged:\n%s", &logs)
	require.Eventually(t, func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err != nil
	}, 5*time.Second, 10*time.Millisecond, "new connections must be refused once shutdown starts")
	select {
	case <-exited:
		t.Fatalf("the binary exited with a request in flight: %v\n%s", waitErr, &logs)
	default:
	}

	_, err = io.WriteString(conn, body[5:])
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "logs:\n%s", &logs)
	answer, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode, string(answer))
	assert.Contains(t, string(answer), "<Id>sigterm-1</Id>")

	select {
	case <-exited:
		require.NoError(t, waitErr, "exit status after SIGTERM:\n%s", &logs)
	case <-time.After(10 * time.Second):
		t.Fatalf("the binary did not exit after its last request:\n%s", &logs)
	}
	assert.Contains(t, logs.String(), "contactsync stopped")
}
