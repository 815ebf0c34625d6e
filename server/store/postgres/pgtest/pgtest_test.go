package pgtest_test

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/postgres/pgtest"
)

// echoServer accepts connections on loopback and writes back every line it reads, until the client
// closes; it records the lines it received, in order, on got.
func echoServer(t *testing.T) (addr string, got chan string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	got = make(chan string, 100)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					got <- line
					if _, err := c.Write([]byte(line)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return l.Addr().String(), got
}

// TestProxyModes checks each way the proxy cuts the server off, against an echo server: a hold
// delivers what was sent into it once healed, even from a client that has closed meanwhile; a black
// hole and a reset lose it; Down refuses new connections.
func TestProxyModes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cut       func(*pgtest.Proxy)
		delivered bool
	}{
		{"Hold", (*pgtest.Proxy).Hold, true},
		{"Blackhole", (*pgtest.Proxy).Blackhole, false},
		{"Reset", (*pgtest.Proxy).Reset, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target, got := echoServer(t)
			p := pgtest.NewProxy(t, target)
			c, err := net.Dial("tcp", p.Addr())
			require.NoError(t, err)
			defer c.Close()
			_, err = c.Write([]byte("before\n"))
			require.NoError(t, err)
			assert.Equal(t, "before\n", <-got)
			line, err := bufio.NewReader(c).ReadString('\n')
			require.NoError(t, err)
			assert.Equal(t, "before\n", line)

			tc.cut(p)
			_, _ = c.Write([]byte("during\n")) // a reset connection may already refuse it
			_ = c.Close()                      // the client gives up; its bytes and its close are in flight
			select {
			case l := <-got:
				t.Fatalf("%q crossed the cut", l)
			case <-time.After(100 * time.Millisecond): // nothing may cross within a generous moment
			}
			p.Up()
			require.True(t, p.Delivered(5*time.Second), "the proxy still carries bytes")
			if tc.delivered {
				assert.Equal(t, "during\n", <-got, "a hold delivers what it kept once healed")
			} else {
				assert.Empty(t, got, "the bytes sent into the cut are lost")
			}

			// After Up, new connections are forwarded again.
			c2, err := net.Dial("tcp", p.Addr())
			require.NoError(t, err)
			defer c2.Close()
			_, err = c2.Write([]byte("after\n"))
			require.NoError(t, err)
			line, err = bufio.NewReader(c2).ReadString('\n')
			require.NoError(t, err)
			assert.Equal(t, "after\n", line)
		})
	}
}

// TestProxyHoldAcceptsNewConnections: a connection opened during a hold is accepted, and what it sent
// arrives once the hold ends; a connection during Down is refused.
func TestProxyHoldAcceptsNewConnections(t *testing.T) {
	target, got := echoServer(t)
	p := pgtest.NewProxy(t, target)
	p.Hold()
	c, err := net.Dial("tcp", p.Addr())
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write([]byte("held\n"))
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(100*time.Millisecond)))
	_, err = c.Read(make([]byte, 1))
	require.Error(t, err, "nothing comes back during the hold")
	p.Up()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	line, err := bufio.NewReader(c).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "held\n", line)
	assert.Equal(t, "held\n", <-got)

	p.Down()
	_, err = net.Dial("tcp", p.Addr())
	require.Error(t, err, "Down refuses connections")
	_, err = c.Read(make([]byte, 1))
	assert.ErrorIs(t, err, io.EOF, "Down closes the open ones")
}

// TestProxyHoldAt: an armed hold lets everything through until the first chunk toward the server that
// matches, then keeps that chunk and what follows until Up.
func TestProxyHoldAt(t *testing.T) {
	target, got := echoServer(t)
	p := pgtest.NewProxy(t, target)
	p.HoldAt(func(b []byte) bool { return strings.HasPrefix(string(b), "second") })
	c, err := net.Dial("tcp", p.Addr())
	require.NoError(t, err)
	defer c.Close()
	r := bufio.NewReader(c)
	_, err = c.Write([]byte("first\n"))
	require.NoError(t, err)
	line, err := r.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "first\n", line, "before the match, the proxy forwards")
	assert.Equal(t, "first\n", <-got)

	_, err = c.Write([]byte("second\n"))
	require.NoError(t, err)
	select {
	case l := <-got:
		t.Fatalf("%q crossed the hold", l)
	case <-time.After(100 * time.Millisecond):
	}
	p.Up()
	assert.Equal(t, "second\n", <-got)
	line, err = r.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "second\n", line)
}

// TestProxyResetAt: an armed reset delivers the matching chunk to the server, then resets the
// connection when the server answers, so the client never gets the answer.
func TestProxyResetAt(t *testing.T) {
	target, got := echoServer(t)
	p := pgtest.NewProxy(t, target)
	p.ResetAt(func(b []byte) bool { return strings.HasPrefix(string(b), "second") })
	c, err := net.Dial("tcp", p.Addr())
	require.NoError(t, err)
	defer c.Close()
	r := bufio.NewReader(c)
	_, err = c.Write([]byte("first\n"))
	require.NoError(t, err)
	line, err := r.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "first\n", line)
	assert.Equal(t, "first\n", <-got)

	_, err = c.Write([]byte("second\n"))
	require.NoError(t, err)
	assert.Equal(t, "second\n", <-got, "the server gets the chunk")
	_, err = r.ReadString('\n')
	require.Error(t, err, "the client never gets the answer")
	assert.NotErrorIs(t, err, io.EOF, "the connection was reset, not closed")
}
