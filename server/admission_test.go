package server_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/admission"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
)

// slowBody opens a connection to ts and sends a SOAP 1.1 request whose headers announce length body
// bytes and whose body stops after sent bytes: a client trickling its body, as issue 14's attacker.
func slowBody(t *testing.T, ts *testServer, length, sent int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	body := strings.Repeat(" ", sent)
	_, err = io.WriteString(conn, "POST /contactsync/v1/sync.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\n"+
		"SOAPAction: \""+ns+"ReadContact\"\r\nContent-Length: "+strconv.Itoa(length)+"\r\n\r\n"+body)
	require.NoError(t, err)
	return conn
}

// readResponse reads one response from a raw connection, within a few seconds.
func readResponse(t *testing.T, conn net.Conn) (*http.Response, string) {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

// blockOn returns a store whose Get of id "block" waits for release (signalling entered first).
func blockOn(entered chan<- struct{}, release <-chan struct{}) store.Store {
	return &fakeStore{get: func(ctx context.Context, id string) (store.Record, error) {
		if id == "block" {
			entered <- struct{}{}
			<-release
		}
		return service.TestRecord(id), nil
	}}
}

// TestSlowBodiesHoldNoSlot: clients trickling their bodies must not hold operation slots, so with one
// slot and several such clients an ordinary request is still served. Before admission, the first slow
// body took the only slot and every other request got 503.
func TestSlowBodiesHoldNoSlot(t *testing.T) {
	ts, _ := newFakeServer(t, blockOn(nil, nil), server.Limits{Admission: admission.Limits{MaxConcurrent: 1}})
	for range 5 {
		slowBody(t, ts, 1000, 10)
	}
	time.Sleep(50 * time.Millisecond) // let the server start reading them
	for _, binding := range bindings {
		resp, body := ts.do(t, requestFor(binding, ns, "ReadContact", "x", true))
		assert.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", binding, body)
	}
}

// TestMinBodyRate: a body slower than --min-body-rate (after the grace) is cut off with an error
// saying so, and the connection is closed.
func TestMinBodyRate(t *testing.T) {
	ts, _ := newFakeServer(t, blockOn(nil, nil), server.Limits{Admission: admission.Limits{MinBodyRate: 100, BodyReadGrace: 100 * time.Millisecond}})
	conn := slowBody(t, ts, 1000, 10)
	start := time.Now()
	resp, body := readResponse(t, conn)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.Contains(t, body, "slower than 100 bytes per second")
	assert.True(t, resp.Close, "Connection: close")

	// A body at the rate is read whole. It gets the default grace: with the 100 ms above, a loaded
	// machine that delays the sender's first write by more than that would fail it (seen once).
	ts, _ = newFakeServer(t, blockOn(nil, nil), server.Limits{Admission: admission.Limits{MinBodyRate: 100}})
	req := requestFor("soap11", ns, "ReadContact", "paced", true)
	pr, pw := io.Pipe()
	go func() {
		for chunk := range strings.SplitSeq(req.body, "\n") {
			time.Sleep(10 * time.Millisecond)
			_, _ = io.WriteString(pw, chunk+"\n")
		}
		_ = pw.Close()
	}()
	hr, err := http.NewRequest(http.MethodPost, ts.endpoint, pr)
	require.NoError(t, err)
	hr.Header.Set("Content-Type", req.contentType)
	hr.Header.Set("SOAPAction", req.soapAction)
	presp, err := ts.Client().Do(hr)
	require.NoError(t, err)
	_ = presp.Body.Close()
	assert.Equal(t, http.StatusOK, presp.StatusCode)
}

// TestMaxPending: beyond --max-pending requests reading or waiting, the next is refused at once
// with 503, Retry-After and Connection: close, before its body is read.
func TestMaxPending(t *testing.T) {
	ts, _ := newFakeServer(t, blockOn(nil, nil), server.Limits{Admission: admission.Limits{MaxPending: 2}})
	slowBody(t, ts, 1000, 10)
	slowBody(t, ts, 1000, 10)
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	resp, body := ts.do(t, requestFor("post", ns, "ReadContact", "x", true))
	assert.Less(t, time.Since(start), time.Second)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, body)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	assert.True(t, resp.Close, "Connection: close")
}

// TestBodyBytesInFlight: bodies held are bounded in bytes. One slow body holds a 4 KiB buffer; with
// a 6,000-byte budget the next body cannot get its buffer and is refused with 503; once the slow
// client leaves, requests are served again.
func TestBodyBytesInFlight(t *testing.T) {
	ts, _ := newFakeServer(t, blockOn(nil, nil), server.Limits{Admission: admission.Limits{MaxBodyBytesInFlight: 6000}})
	conn := slowBody(t, ts, 1000, 10)
	time.Sleep(50 * time.Millisecond)
	resp, body := ts.do(t, requestFor("soap12", ns, "ReadContact", "x", true))
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, body)
	assert.Contains(t, body, "cs:Unavailable")
	require.NoError(t, conn.Close())
	assert.Eventually(t, func() bool {
		resp, _ := ts.do(t, requestFor("soap12", ns, "ReadContact", "x", true))
		return resp.StatusCode == http.StatusOK
	}, 2*time.Second, 10*time.Millisecond)
}

// TestQueueTimeout: a request finding every slot taken waits for one up to --queue-timeout, and is
// served if one frees in time; otherwise it gets 503.
func TestQueueTimeout(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	ts, _ := newFakeServer(t, blockOn(entered, release), server.Limits{Admission: admission.Limits{MaxConcurrent: 1,
		QueueTimeout: 300 * time.Millisecond}})
	var wg sync.WaitGroup
	block := func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := ts.do(t, requestFor("get", ns, "ReadContact", "block", true))
			assert.Equal(t, http.StatusOK, resp.StatusCode)
		}()
		<-entered
	}

	block()
	time.AfterFunc(50*time.Millisecond, func() { release <- struct{}{} })
	resp, body := ts.do(t, requestFor("soap11", ns, "ReadContact", "x", true))
	assert.Equal(t, http.StatusOK, resp.StatusCode, "served once the slot freed: %s", body)

	block()
	start := time.Now()
	resp, body = ts.do(t, requestFor("soap11", ns, "ReadContact", "x", true))
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, body)
	assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
	release <- struct{}{}
	wg.Wait()
}

// TestBodyLengths: bodies without a Content-Length (chunked) are read whole up to --max-body-bytes
// and refused beyond it, as are announced lengths beyond it, before their body is read; with a limit
// that is a buffer size class and one that is not.
func TestBodyLengths(t *testing.T) {
	for _, limit := range []int{64 << 10, 100_000} {
		ts, _ := newFakeServer(t, blockOn(nil, nil), server.Limits{Admission: admission.Limits{MaxBodyBytes: int64(limit)}})
		post := func(body string, chunked bool) *http.Response {
			var r io.Reader = strings.NewReader(body)
			if chunked {
				r = io.MultiReader(r) // hides the length: net/http sends it chunked
			}
			req, err := http.NewRequest(http.MethodPost, ts.endpoint+"/ReadContact", r)
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := ts.Client().Do(req)
			require.NoError(t, err)
			_ = resp.Body.Close()
			return resp
		}
		pad := func(n int) string { return "id=x&pad=" + strings.Repeat("a", n-len("id=x&pad=")) }
		for _, chunked := range []bool{false, true} {
			name := map[bool]string{false: "length", true: "chunked"}[chunked]
			t.Run(strconv.Itoa(limit)+"/"+name, func(t *testing.T) {
				for _, n := range []int{limit, limit - 1, 5000, 16 << 10, 16<<10 + 1} {
					assert.Equal(t, http.StatusOK, post(pad(n), chunked).StatusCode, n)
				}
				assert.Equal(t, http.StatusRequestEntityTooLarge, post(pad(limit+1), chunked).StatusCode)
				assert.Equal(t, http.StatusRequestEntityTooLarge, post(pad(4*limit), chunked).StatusCode)
			})
		}
	}
}

// TestHostileBodyRefusedWhileStreaming: a SOAP body that breaks the parse budget is refused from
// the bytes that arrived, before the rest is read, and its connection is closed. The client here
// announces 1 MiB and sends 8 KiB of an attribute flood: without the check while streaming, the
// server would wait for the remaining bytes.
func TestHostileBodyRefusedWhileStreaming(t *testing.T) {
	ts, _ := newFakeServer(t, blockOn(nil, nil), server.Limits{})
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	var flood strings.Builder
	flood.WriteString(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReadContact xmlns="` + ns + `"`)
	for i := 0; flood.Len() < 8<<10; i++ {
		flood.WriteString(` a` + strconv.Itoa(i) + `="1"`)
	}
	_, err = io.WriteString(conn, "POST /contactsync/v1/sync.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\n"+
		"SOAPAction: \""+ns+"ReadContact\"\r\nContent-Length: 1048576\r\n\r\n"+flood.String())
	require.NoError(t, err)
	resp, body := readResponse(t, conn)
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.Contains(t, body, ">TooLarge</ErrorCode>")
	assert.Contains(t, body, "more than 32 attributes")
	assert.True(t, resp.Close, "Connection: close")
}
