package main

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHealthSchemeMismatch: health speaking HTTP to a serve with a certificate, or HTTPS to one
// without, says which it is and what to set, rather than only "400 Bad Request" or "server gave HTTP
// response to HTTPS client".
func TestHealthSchemeMismatch(t *testing.T) {
	ready := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	tlsServer := httptest.NewUnstartedServer(ready)
	tlsServer.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake error of the HTTP request is expected
	tlsServer.StartTLS()
	defer tlsServer.Close()
	plainServer := httptest.NewServer(ready)
	defer plainServer.Close()
	hostPort := func(s *httptest.Server) string { return s.Listener.Addr().String() }

	cases := []struct {
		name    string
		addr    string
		tlsCert string
		want    []string // "" for healthy
	}{
		{"http to a TLS serve", hostPort(tlsServer), "", []string{"answered 400 Bad Request", "serve speaks HTTPS on " + hostPort(tlsServer) + ": give health serve's --tls-cert", "CONTACTSYNC_TLS_CERT"}},
		{"https to a plain serve", hostPort(plainServer), "/etc/contactsync/tls.crt", []string{"server gave HTTP response to HTTPS client", "serve speaks plain HTTP on " + hostPort(plainServer) + ", but health has --tls-cert /etc/contactsync/tls.crt"}},
		{"https to a TLS serve", hostPort(tlsServer), "/etc/contactsync/tls.crt", nil},
		{"http to a plain serve", hostPort(plainServer), "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			line, err := checkHealth(t.Context(), healthOptions{addr: tc.addr, tlsCert: tc.tlsCert, timeout: 5 * time.Second})
			if tc.want == nil {
				require.NoError(t, err)
				assert.True(t, strings.HasPrefix(line, "healthy: "), line)
				return
			}
			require.Error(t, err)
			for _, want := range tc.want {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}
