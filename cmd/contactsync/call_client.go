package main

import (
	"bytes"
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

// passwordEnv is the environment variable call reads the password of --user from when no
// --password-file is given. It is not a setting of its own (there is no --password flag, so a
// password never appears in a command line, which every user of the machine can read).
const passwordEnv = envPrefix + "PASSWORD"

// callConnection is how call reaches and authenticates to the service.
type callConnection struct {
	user           string
	passwordFile   string
	wsSecurity     wsSecurityMode
	caCert         string
	insecureVerify bool
}

// wsSecurityMode is the value of --ws-security: off (HTTP Basic), or the Password type of the
// UsernameToken sent instead. A bare --ws-security means digest, as it did when the flag was a
// boolean, and true and false are still taken, so scripts written then keep working.
type wsSecurityMode string

const (
	wsSecurityOff    wsSecurityMode = ""
	wsSecurityDigest wsSecurityMode = "digest"
	wsSecurityText   wsSecurityMode = "text"
)

func (m *wsSecurityMode) String() string { return string(*m) }
func (m *wsSecurityMode) Type() string   { return "digest|text" }

func (m *wsSecurityMode) Set(s string) error {
	switch s {
	case "digest", "true":
		*m = wsSecurityDigest
	case "text":
		*m = wsSecurityText
	case "", "off", "false":
		*m = wsSecurityOff
	default:
		return fmt.Errorf("%q: want digest (PasswordDigest, the default of a bare --ws-security) or text (PasswordText)", s)
	}
	return nil
}

// connectionFlags registers call's credential and TLS flags.
func connectionFlags(cmd *cobra.Command, c *callConnection) {
	f := cmd.Flags()
	f.StringVar(&c.user, "user", "", "authenticate as this user (HTTP Basic, or with --ws-security a UsernameToken); the password comes from --password-file, "+passwordEnv+" or a terminal prompt")
	f.StringVar(&c.passwordFile, "password-file", "", "`FILE` whose first line is the password of --user")
	f.Var(&c.wsSecurity, "ws-security", "with --user: send a WS-Security UsernameToken in the SOAP header instead of HTTP Basic (soap11 and soap12): --ws-security or --ws-security=digest a PasswordDigest (the user needs user add --digest), --ws-security=text a PasswordText, the password itself (any user; use it over https only)")
	f.Lookup("ws-security").NoOptDefVal = string(wsSecurityDigest)
	f.StringVar(&c.caCert, "ca-cert", "", "PEM `FILE` of certificate authorities to trust for an https --url, besides the system's (a private CA, a self-signed certificate)")
	f.BoolVar(&c.insecureVerify, "insecure-skip-verify", false, "do not check the https server's certificate (for a test server only: anyone on the way can then read and change the call)")
}

// password returns the password of --user: from --password-file, else the environment, else a prompt
// when standard input is a terminal.
func (c callConnection) password(cmd *cobra.Command) (string, error) {
	if c.user == "" {
		switch {
		case c.passwordFile != "":
			return "", errors.New("--password-file is the password of --user: give --user too")
		case c.wsSecurity != wsSecurityOff:
			return "", errors.New("--ws-security sends --user's credentials in the SOAP header: give --user too")
		}
		return "", nil
	}
	if c.passwordFile != "" {
		data, err := os.ReadFile(c.passwordFile)
		if err != nil {
			return "", fmt.Errorf("--password-file: %w", err)
		}
		line, _, _ := bytes.Cut(data, []byte("\n"))
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 {
			return "", fmt.Errorf("--password-file %s: the first line is empty", c.passwordFile)
		}
		return string(line), nil
	}
	if p := os.Getenv(passwordEnv); p != "" {
		return p, nil
	}
	if f, ok := cmd.InOrStdin().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(cmd.ErrOrStderr(), "Password for %s: ", c.user)
		p, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(cmd.ErrOrStderr())
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		return string(p), nil
	}
	return "", fmt.Errorf("--user %s needs a password: give --password-file FILE, set %s, or run call on a terminal to type it", c.user, passwordEnv)
}

// httpClient returns the HTTP client of the call: the timeout, and the TLS settings of --ca-cert and
// --insecure-skip-verify.
func (c callConnection) httpClient(timeout time.Duration, warn func(string)) (*http.Client, error) {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	if c.caCert != "" {
		pem, err := os.ReadFile(c.caCert)
		if err != nil {
			return nil, fmt.Errorf("--ca-cert: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool() // no system pool (Windows before Go 1.18's support, a bare container)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--ca-cert %s holds no PEM certificate", c.caCert)
		}
		transport.TLSClientConfig.RootCAs = pool
	}
	if c.insecureVerify {
		transport.TLSClientConfig.InsecureSkipVerify = true //nolint:gosec // asked for by name, and warned about
		warn("--insecure-skip-verify: the server's certificate is not checked; anyone on the way can read and change this call")
	}
	return &http.Client{Timeout: timeout, Transport: transport}, nil
}

// runCall sends one request and prints the response.
func runCall(cmd *cobra.Command, op *wire.Operation, req wire.Message, opts *callOptions) error {
	ctx := cmd.Context()
	hc, err := opts.conn.httpClient(opts.timeout, func(msg string) { fmt.Fprintln(cmd.ErrOrStderr(), "call: "+msg) })
	if err != nil {
		return err
	}
	password, err := opts.conn.password(cmd)
	if err != nil {
		return err
	}
	c := &client.Client{Endpoint: opts.url, Binding: client.Binding(opts.binding), HTTP: hc,
		User: opts.conn.user, Password: password, WSSecurity: opts.conn.wsSecurity != wsSecurityOff,
		PasswordText: opts.conn.wsSecurity == wsSecurityText, Headers: opts.soapHeaders}
	// fallback says why the namespace is --base-url's default, when it is: said only if the service
	// then refuses the request, which is when it matters.
	var fallback string
	if opts.baseURL != "" {
		if c.Namespace, err = server.Namespace(opts.baseURL); err != nil {
			return fmt.Errorf("--base-url: %w", err)
		}
	} else {
		d, err := client.Describe(ctx, hc, opts.url, opts.conn.user, password)
		var none *client.NoDescriptionError
		switch {
		case errors.As(err, &none):
			c.Namespace = wsdl.DefaultNamespace
			fallback = fmt.Sprintf("the service serves no WSDL (%v), so call used the namespace %s, which --base-url %s fixes; pass --base-url with the base URL the service was started with",
				none, wsdl.DefaultNamespace, wsdl.DefaultBaseURL)
		case err != nil:
			return fmt.Errorf("reading the service's WSDL for its namespace and addresses: %w", err)
		default:
			c.Namespace = d.Namespace
			if addr, ok := d.Addresses[c.Binding]; ok {
				c.Endpoint = addr
			} else if c.Binding != client.JSON {
				var offered []string
				for b := range d.Addresses {
					if b != client.JSON {
						offered = append(offered, string(b))
					}
				}
				slices.Sort(offered)
				return fmt.Errorf("the service at %s offers no %s binding (its WSDL has ports for %s): it is off there (serve --protocols)",
					opts.url, c.Binding, strings.Join(offered, ", "))
			}
		}
	}
	var resp wire.Message
	if !op.OneWay { // a one-way operation has no response: the call returns once acknowledged
		resp = op.NewResponse()
	}
	if err := c.Invoke(ctx, op, req, resp); err != nil {
		if fallback != "" && refusedNamespace(err) {
			return fmt.Errorf("%w\n%s", err, fallback)
		}
		if opts.conn.wsSecurity == wsSecurityDigest && failedAuthentication(err) {
			return fmt.Errorf("%w\n(the service accepts a PasswordDigest only from users added with `contactsync user add --digest`, "+
				"and answers the same for a wrong password: check the password, add %s with --digest on the service, "+
				"or send the password as PasswordText with --ws-security=text over https)", err, opts.conn.user)
		}
		if unsupported := (*client.JSONError)(nil); errors.As(err, &unsupported) && unsupported.StatusCode == http.StatusUnsupportedMediaType {
			return fmt.Errorf("%w\n(the service may not serve the JSON endpoint: serve lists json in --protocols to enable it)", err)
		}
		return err
	}
	if op.OneWay {
		_, err := fmt.Fprintf(cmd.ErrOrStderr(), "%s is one-way: the service acknowledged the call, which runs on after it\n", op.Name)
		return err
	}
	var out []byte
	if c.Binding == client.JSON {
		out, err = client.MessageJSON(op, resp)
	} else {
		out, err = client.Message(op.ResponseElement, cmp.Or(op.ResponseNamespace, c.Namespace), resp)
	}
	if err != nil {
		return err
	}
	if headers := outHeaders(resp, c.Namespace, c.Binding); headers != nil {
		out = append(append(headers, '\n'), out...)
	}
	_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", out)
	return err
}

// refusedNamespace reports whether a call failed because the service uses another namespace: a SOAP
// fault for an unknown action or element, or a GET/POST answer in another namespace.
func refusedNamespace(err error) bool {
	var f *client.Fault
	if errors.As(err, &f) {
		return f.ErrorCode == string(fault.UnknownOperation)
	}
	return errors.Is(err, client.ErrOtherNamespace)
}

// failedAuthentication reports whether a call's UsernameToken was refused for its credentials: the
// fault of ErrorCode Unauthenticated with WSS 1.1 §12's FailedAuthentication string, the service's
// answer to an unknown user, a wrong password and a digest from a user without one alike, and not to
// a replayed nonce, which it words differently.
func failedAuthentication(err error) bool {
	var f *client.Fault
	return errors.As(err, &f) && f.ErrorCode == string(fault.Unauthenticated) &&
		!strings.Contains(f.Message, "nonce") && strings.Contains(f.Message, "could not be authenticated")
}
