package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testCertificate writes a self-signed certificate for 127.0.0.1 and its key as PEM files in dir and
// returns their paths and the certificate, for a client to trust.
func testCertificate(t *testing.T, dir, name string) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "contactsync test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err = x509.ParseCertificate(der)
	require.NoError(t, err)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600))
	return certFile, keyFile, cert
}

// TestServeTLS serves HTTPS with a certificate made here and calls SOAP operations through a client
// that trusts only it, over HTTP/2.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, cert := testCertificate(t, dir, "server")
	addr, cancel, done := launchServe(t, serveOptions{
		store: "sqlite:" + filepath.Join(dir, "c.db"), tls: tlsOptions{certFile: certFile, keyFile: keyFile},
		shutdownTimeout: 5 * time.Second,
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })

	roots := x509.NewCertPool()
	roots.AddCert(cert)
	httpsClient := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2: true,
	}}
	endpoint := "https://" + addr.String() + wsdl.Path

	t.Run("SOAP over HTTP/2", func(t *testing.T) {
		envelope := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
			`<TestCreateContact xmlns="` + wsdl.DefaultNamespace + `"><id>tls-1</id></TestCreateContact></soap:Body></soap:Envelope>`
		req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(envelope))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		req.Header.Set("SOAPAction", `"`+wsdl.DefaultNamespace+`TestCreateContact"`)
		resp, err := httpsClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode, string(body))
		assert.Equal(t, "HTTP/2.0", resp.Proto, "HTTP/2 must be negotiated over TLS")
		assert.Contains(t, string(body), "<Id>tls-1</Id>")
	})

	t.Run("bundled client", func(t *testing.T) {
		c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: wsdl.DefaultNamespace, HTTP: httpsClient}}
		got, err := c.ReadContact(&gen.ReadContact{Id: "tls-1"})
		require.NoError(t, err)
		assert.Equal(t, "tls-1", got.ReadContactResult.Id)
	})

	t.Run("WSDL addresses are https", func(t *testing.T) {
		resp, err := httpsClient.Get(endpoint + "?WSDL")
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Contains(t, string(body), `location="`+endpoint+`"`)
	})

	t.Run("a client that does not trust the certificate is refused", func(t *testing.T) {
		_, err := http.Get(endpoint + "?WSDL")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "certificate")
	})

	t.Run("plain HTTP gets no service", func(t *testing.T) {
		resp, err := http.Get("http://" + addr.String() + wsdl.Path + "?WSDL")
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "Go answers plain HTTP on a TLS port with 400")
	})
}

// TestServeTLSBadConfiguration checks that TLS settings that cannot work stop serve before it listens.
func TestServeTLSBadConfiguration(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := testCertificate(t, dir, "a")
	_, otherKey, _ := testCertificate(t, dir, "b")
	garbage := filepath.Join(dir, "garbage.pem")
	require.NoError(t, os.WriteFile(garbage, []byte("not a certificate"), 0o600))
	cases := []struct {
		name      string
		cert, key string
		want      string
	}{
		{"cert without key", certFile, "", "--tls-cert needs --tls-key"},
		{"key without cert", "", keyFile, "--tls-key needs --tls-cert"},
		{"missing cert file", filepath.Join(dir, "none.crt"), keyFile, "no such file or directory"},
		{"missing key file", certFile, filepath.Join(dir, "none.key"), "no such file or directory"},
		{"cert file not PEM", garbage, keyFile, "failed to find any PEM data in certificate input"},
		{"key of another certificate", certFile, otherKey, "private key does not match public key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := runServe(context.Background(), serveOptions{
				addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(t.TempDir(), "c.db"), baseURL: wsdl.DefaultBaseURL,
				tls: tlsOptions{certFile: tc.cert, keyFile: tc.key}, shutdownTimeout: time.Second,
				ready: func(net.Addr) { t.Error("serve listened despite bad TLS settings") },
			}, slog.New(slog.NewTextHandler(io.Discard, nil)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "--tls-")
		})
	}
}
