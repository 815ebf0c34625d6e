package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/contactsync/contactsync/server/observe"
	"github.com/spf13/cobra"
)

// healthOptions holds what health needs to find the local serve: the settings it shares with serve
// (--addr, --tls-cert), so the same environment or config file configures both.
type healthOptions struct {
	addr     string
	tlsCert  string
	liveness bool
	timeout  time.Duration
}

// newHealthCommand builds `contactsync health`, the container image's HEALTHCHECK: an image built
// FROM scratch has no shell and no curl, so the binary checks itself.
func newHealthCommand() *cobra.Command {
	var opts healthOptions
	cmd := &cobra.Command{
		Use:   "health",
		Short: "Check that the serve on this host is ready (exit status 0) or not (1), for a container HEALTHCHECK",
		Long: "Ask the serve listening on --addr on this host for " + observe.ReadyzPath + " (or " + observe.HealthzPath + " with --liveness) and\n" +
			"exit with status 0 when it answers 200, 1 otherwise, printing the answer. An unspecified --addr host\n" +
			"(:8080, 0.0.0.0, [::]) is reached on loopback. With --tls-cert set, as serve has it, health speaks\n" +
			"HTTPS without verifying the certificate: it checks its own host's process, on loopback, whose\n" +
			"certificate names the public host. It reads --addr and --tls-cert from the same flags, environment\n" +
			"variables and config file as serve.",
		Example: "  contactsync health\n  CONTACTSYNC_ADDR=:9000 contactsync health --liveness",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			line, err := checkHealth(cmd.Context(), opts)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), line)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.addr, "addr", ":8080", "the address serve listens on")
	f.StringVar(&opts.tlsCert, "tls-cert", "", "serve's certificate file: when set, serve speaks HTTPS, and so does health")
	f.BoolVar(&opts.liveness, "liveness", false, "check "+observe.HealthzPath+" (the process serves HTTP) instead of "+observe.ReadyzPath+" (it can also read and write its store)")
	f.DurationVar(&opts.timeout, "timeout", 5*time.Second, "time allowed for the answer")
	return bindSettings(cmd, "addr", "tls-cert")
}

// checkHealth asks the local serve and returns the line to print when it is healthy.
func checkHealth(ctx context.Context, o healthOptions) (string, error) {
	host, port, err := net.SplitHostPort(o.addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: %w", o.addr, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	scheme := "http"
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if o.tlsCert != "" {
		scheme = "https"
		transport.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // our own process, on this host; see the command's help
	}
	path := observe.ReadyzPath
	if o.liveness {
		path = observe.HealthzPath
	}
	url := scheme + "://" + net.JoinHostPort(host, port) + path
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := (&http.Client{Transport: transport}).Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return "", fmt.Errorf("unhealthy: %s did not answer within %s", url, o.timeout)
		}
		if errors.Is(err, http.ErrSchemeMismatch) {
			// The answer to the TLS ClientHello began "HTTP/": serve has no certificate.
			return "", fmt.Errorf("unhealthy: %w\n(serve speaks plain HTTP on %s, but health has --tls-cert %s and spoke HTTPS: "+
				"give health the settings serve has, without --tls-cert, or give serve --tls-cert and --tls-key)", err, o.addr, o.tlsCert)
		}
		return "", fmt.Errorf("unhealthy: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	answer := strings.TrimSpace(string(body))
	if resp.StatusCode == http.StatusBadRequest && scheme == "http" && strings.Contains(answer, "HTTP request to an HTTPS server") {
		// Go's TLS server answers a plain HTTP request with this 400 (net/http's "Client sent an HTTP
		// request to an HTTPS server."): serve has a certificate that health was not told of.
		return "", fmt.Errorf("unhealthy: %s answered %s: %s\n(serve speaks HTTPS on %s: give health serve's --tls-cert "+
			"(the flag, %s, or tls-cert in the config file serve reads), and it speaks HTTPS too)", url, resp.Status, answer, o.addr, envName("tls-cert"))
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("unhealthy: %s answered %s: %s", url, resp.Status, answer)
	}
	return fmt.Sprintf("healthy: %s answered %s: %s", url, resp.Status, answer), nil
}
