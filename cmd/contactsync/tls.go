package main

import (
	"crypto/tls"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// tlsOptions names the certificate and key serve uses for HTTPS; both empty means plain HTTP.
type tlsOptions struct {
	certFile string
	keyFile  string
}

// tlsFlags registers --tls-cert and --tls-key.
func tlsFlags(cmd *cobra.Command, o *tlsOptions) {
	cmd.Flags().StringVar(&o.certFile, "tls-cert", "", "PEM certificate (chain) file; with --tls-key, serve HTTPS (HTTP/2 included) instead of HTTP")
	cmd.Flags().StringVar(&o.keyFile, "tls-key", "", "PEM private key file of --tls-cert")
}

// tlsConfig loads the key pair o names, or returns nil for plain HTTP. It runs before the server
// listens, so a missing, unreadable or mismatched file stops serve at start rather than failing every
// handshake.
func (o tlsOptions) tlsConfig() (*tls.Config, error) {
	switch {
	case o.certFile == "" && o.keyFile == "":
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
	// TLS 1.2 is the oldest version without known protocol weaknesses that .NET Framework 4.6+, Java 8
	// and every current client speak; Go's defaults choose the cipher suites.
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}
