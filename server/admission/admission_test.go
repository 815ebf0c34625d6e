package admission

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
)

// limitsWith returns the default limits changed by set.
func limitsWith(set func(*Limits)) Limits {
	l := DefaultLimits()
	if set != nil {
		set(&l)
	}
	return l
}

// post returns a request with body; length is its announced Content-Length (-1: none, chunked).
func post(body string, length int64) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	r.ContentLength = length
	return r
}

// refusal is a PrefixChecker refusing any prefix holding a marker.
type refusal struct{ marker []byte }

func (c refusal) CheckPrefix(prefix []byte) *fault.Error {
	if bytes.Contains(prefix, c.marker) {
		return fault.Errorf(fault.TooLarge, "refused from its prefix")
	}
	return nil
}

// TestAdmitBody: a body is read whole within MaxBodyBytes, announced or not, and one over it is
// refused with TooLarge, the connection asked to close rather than read what is left.
func TestAdmitBody(t *testing.T) {
	const max = 100 << 10
	g := New(limitsWith(func(l *Limits) { l.MaxBodyBytes = max }))
	for _, tc := range []struct {
		name    string
		size    int
		length  int64 // -1: not announced
		refused bool
	}{
		{"empty", 0, 0, false},
		{"small announced", 10, 10, false},
		{"small unannounced", 10, -1, false},
		{"several size classes", 70 << 10, 70 << 10, false},
		{"exactly the limit, unannounced", max, -1, false},
		{"announced over the limit", max + 1, max + 1, true},
		{"unannounced over the limit", max + 1, -1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.Repeat("x", tc.size)
			w := httptest.NewRecorder()
			got, ticket, err := g.Admit(w, post(body, tc.length), nil)
			defer ticket.Release()
			if tc.refused {
				require.NotNil(t, err)
				assert.Equal(t, fault.TooLarge, err.Code)
				assert.Equal(t, "The request body is larger than 102400 bytes.", err.Message)
				assert.Equal(t, "close", w.Header().Get("Connection"))
				return
			}
			require.Nil(t, err)
			assert.Equal(t, body, string(got))
			assert.Empty(t, w.Header().Get("Connection"))
		})
	}
	assert.Zero(t, g.pending.Load(), "every ticket released")
	assert.Zero(t, g.bodyBytes.Load(), "every reserved byte given back")
}

// TestAdmitPrefixCheck: the binding's check refuses a large body from its first bytes, before the rest
// is read; a small body is left to the binding's decoder.
func TestAdmitPrefixCheck(t *testing.T) {
	g := New(DefaultLimits())
	check := refusal{[]byte("<!--")}
	body := "<!--" + strings.Repeat("x", 64<<10)
	_, ticket, err := g.Admit(httptest.NewRecorder(), post(body, int64(len(body))), check)
	ticket.Release()
	require.NotNil(t, err)
	assert.Equal(t, "refused from its prefix", err.Message)

	got, ticket, err := g.Admit(httptest.NewRecorder(), post("<!-- -->", 8), check)
	defer ticket.Release()
	require.Nil(t, err, "a body within the first buffer is never checked here")
	assert.Equal(t, "<!-- -->", string(got))
}

// TestPendingGate: at most MaxPending requests hold a pending place; the next is refused at once with
// Unavailable, and a released place is taken again.
func TestPendingGate(t *testing.T) {
	g := New(limitsWith(func(l *Limits) { l.MaxPending = 2 }))
	var tickets []Ticket
	for range 2 {
		_, ticket, err := g.Admit(httptest.NewRecorder(), post("a", 1), nil)
		require.Nil(t, err)
		tickets = append(tickets, ticket)
	}
	w := httptest.NewRecorder()
	_, refused, err := g.Admit(w, post("a", 1), nil)
	refused.Release()
	require.NotNil(t, err)
	assert.Equal(t, fault.Unavailable, err.Code)
	assert.Equal(t, "The service is busy; retry shortly.", err.Message)
	assert.Equal(t, "close", w.Header().Get("Connection"), "the unread body is not read for a refused request")

	tickets[0].Release()
	_, again, err := g.Admit(httptest.NewRecorder(), post("a", 1), nil)
	require.Nil(t, err, "a released place is free again")
	again.Release()
	tickets[1].Release()
	assert.Zero(t, g.pending.Load())
}

// TestBodyBytesGate: the bodies held at once stay within MaxBodyBytesInFlight, counted as the buffers
// grow, so a body that would take the total over it is refused, and released bytes are free again.
func TestBodyBytesGate(t *testing.T) {
	g := New(limitsWith(func(l *Limits) { l.MaxBodyBytesInFlight = 4 * smallBuffer }))
	_, held, err := g.Admit(httptest.NewRecorder(), post("a", 1), nil)
	require.Nil(t, err)
	assert.EqualValues(t, smallBuffer, g.bodyBytes.Load(), "a small body holds one small buffer")

	big := strings.Repeat("x", 2*smallBuffer)
	_, refused, err := g.Admit(httptest.NewRecorder(), post(big, int64(len(big))), nil)
	refused.Release()
	require.NotNil(t, err, "growing to the next size class (16 KiB) would pass the budget")
	assert.Equal(t, fault.Unavailable, err.Code)

	held.Release()
	got, ticket, err := g.Admit(httptest.NewRecorder(), post(big, int64(len(big))), nil)
	require.Nil(t, err)
	assert.Len(t, got, len(big))
	ticket.Release()
	assert.Zero(t, g.bodyBytes.Load())
}

// TestOperationSlots: at most MaxConcurrent admitted requests hold a slot; the next waits up to
// QueueTimeout and is refused with Unavailable, or takes a slot freed meanwhile; one whose client is
// gone stops waiting. Entering gives up the pending place.
func TestOperationSlots(t *testing.T) {
	g := New(limitsWith(func(l *Limits) { l.MaxConcurrent = 1; l.QueueTimeout = 50 * time.Millisecond }))
	admit := func() Ticket {
		_, ticket, err := g.Admit(httptest.NewRecorder(), post("", 0), nil)
		require.Nil(t, err)
		return ticket
	}
	running := admit()
	require.Nil(t, g.Enter(&running, post("", 0)))
	assert.Zero(t, g.pending.Load(), "a running request holds no pending place")

	waiting := admit()
	start := time.Now()
	err := g.Enter(&waiting, post("", 0))
	require.NotNil(t, err)
	assert.Equal(t, fault.Unavailable, err.Code)
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "it waited QueueTimeout")
	waiting.Release()

	waiting = admit()
	go func() {
		time.Sleep(10 * time.Millisecond)
		running.Release()
	}()
	require.Nil(t, g.Enter(&waiting, post("", 0)), "a slot freed while it waits is taken")

	gone := admit()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = g.Enter(&gone, post("", 0).WithContext(ctx))
	require.NotNil(t, err)
	assert.Equal(t, fault.Unavailable, err.Code)
	gone.Release()
	waiting.Release()
	waiting.Release() // a second release gives back nothing twice
	var zero Ticket
	zero.Release()
	assert.Zero(t, g.pending.Load())
	assert.Zero(t, len(g.slots))
}

// TestMinBodyRate: over a real connection, a body that stalls after the grace is cut off with an error
// saying so, while one that keeps to the rate is read whole.
func TestMinBodyRate(t *testing.T) {
	g := New(limitsWith(func(l *Limits) { l.MinBodyRate = 1000; l.BodyReadGrace = 100 * time.Millisecond }))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ticket, err := g.Admit(w, r, nil)
		defer ticket.Release()
		if err != nil {
			http.Error(w, err.Message, http.StatusBadRequest)
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nonly a few bytes")
	require.NoError(t, err)
	start := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), "The request body arrived slower than 1000 bytes per second.")
	assert.Less(t, time.Since(start), 5*time.Second)

	paced := strings.Repeat("y", 100)
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < len(paced); i += 10 {
			time.Sleep(5 * time.Millisecond) // 2000 bytes per second
			_, _ = io.WriteString(pw, paced[i:i+10])
		}
		_ = pw.Close()
	}()
	req, err := http.NewRequest(http.MethodPost, srv.URL, pr)
	require.NoError(t, err)
	req.ContentLength = int64(len(paced))
	resp, err = srv.Client().Do(req)
	require.NoError(t, err)
	got, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, paced, string(got))
}

// TestBodyBufferClasses: buffers are recycled by size class, and a buffer of another size is not.
func TestBodyBufferClasses(t *testing.T) {
	assert.Equal(t, 0, bodyClass(firstClassAt))
	assert.Equal(t, 1, bodyClass(firstClassAt*classFactor))
	assert.Equal(t, -1, bodyClass(firstClassAt+1))
	assert.Equal(t, -1, bodyClass(smallBuffer))
	b := getBodyBuffer(firstClassAt)
	assert.Equal(t, firstClassAt, cap(*b))
	*b = append(*b, "used"...)
	putBodyBuffer(b)
	assert.Empty(t, *b, "a recycled buffer is emptied")
	odd := getBodyBuffer(firstClassAt + 1)
	assert.Equal(t, firstClassAt+1, cap(*odd))
}
