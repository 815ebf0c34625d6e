package main

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/spf13/cobra"
)

// tlsOptions names the certificate and key serve uses for HTTPS; both empty means plain HTTP.
type tlsOptions struct {
	certFile string
	keyFile  string
}

// tlsFlags registers --tls-cert and --tls-key.
func tlsFlags(cmd *cobra.Command, o *tlsOptions) {
	cmd.Flags().StringVar(&o.certFile, "tls-cert", "", "PEM certificate (chain) file; with --tls-key, serve HTTPS (HTTP/2 included) instead of HTTP; re-read on reload (SIGHUP)")
	cmd.Flags().StringVar(&o.keyFile, "tls-key", "", "PEM private key file of --tls-cert; re-read on reload (SIGHUP)")
}

// enabled reports whether o asks for HTTPS.
func (o tlsOptions) enabled() bool { return o.certFile != "" || o.keyFile != "" }

// loadKeyPair loads the key pair o names, or returns nil for plain HTTP. It runs before the server
// listens, and again on every reload, so a missing, unreadable or mismatched file stops serve at start
// (or is refused by the reload, the running certificate kept) rather than failing every handshake.
func (o tlsOptions) loadKeyPair() (*tls.Certificate, error) {
	switch {
	case !o.enabled():
		return nil, nil
	case o.certFile == "":
		return nil, errors.New("--tls-key needs --tls-cert: give both to serve HTTPS, or neither")
	case o.keyFile == "":
		return nil, errors.New("--tls-cert needs --tls-key: give both to serve HTTPS, or neither")
	}
	pair, err := tls.LoadX509KeyPair(o.certFile, o.keyFile)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert %s / --tls-key %s: %w", o.certFile, o.keyFile, err)
	}
	return &pair, nil
}

// servedCertificate is the certificate serve presents, swapped whole by a reload: each handshake
// loads it once (tls.Config.GetCertificate), so a renewed certificate is served from the first
// handshake after the reload, and connections already open keep the one they were made with.
type servedCertificate struct {
	current atomic.Pointer[tls.Certificate]
}

// newTLSConfig returns the server's TLS configuration presenting cert's current certificate.
func newTLSConfig(cert *servedCertificate) *tls.Config {
	// TLS 1.2 is the oldest version without known protocol weaknesses that .NET Framework 4.6+, Java 8
	// and every current client speak; Go's defaults choose the cipher suites.
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
			return cert.current.Load(), nil
		},
	}
}

// describeCertificate names a certificate for the log: its subject, its expiry and the start of its
// SHA-256 fingerprint, which tells a renewed certificate from the one it replaces.
func describeCertificate(c *tls.Certificate) []any {
	if c == nil || len(c.Certificate) == 0 {
		return nil
	}
	sum := sha256.Sum256(c.Certificate[0])
	attrs := []any{"sha256", fmt.Sprintf("%x", sum[:8])}
	if leaf, err := x509.ParseCertificate(c.Certificate[0]); err == nil {
		attrs = append(attrs, "subject", leaf.Subject.String(), "not_after", leaf.NotAfter.UTC().Format("2006-01-02T15:04:05Z"))
	}
	return attrs
}
