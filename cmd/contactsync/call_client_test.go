package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/wsdl"
)

// serveFor starts serve with opts on a free loopback port and returns its endpoint URL with scheme.
func serveFor(t *testing.T, opts serveOptions, scheme string) string {
	t.Helper()
	if opts.store == "" {
		opts.store = "sqlite:" + filepath.Join(t.TempDir(), "c.db")
	}
	opts.shutdownTimeout = 5 * time.Second
	addr, cancel, done := launchServe(t, opts, discard())
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
	return scheme + "://" + addr.String() + wsdl.Path
}

// TestCallTakesTheNamespaceFromTheWSDL: against a service started with another --base-url, call used
// to fail with "Server did not recognize the value of the SOAP action"; it now reads the namespace
// and the binding's address from the service's ?WSDL, on every binding.
func TestCallTakesTheNamespaceFromTheWSDL(t *testing.T) {
	clearSettingsEnv(t)
	endpoint := serveFor(t, serveOptions{baseURL: "https://contacts.example.com", protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}}, "http")
	for _, b := range append(client.Bindings, client.JSON) {
		out, err := runCLI(t, "call", "TestCreateContact", "--id", "ns-"+string(b), "--binding", string(b), "--url", endpoint)
		require.NoError(t, err, "%s: %s", b, out)
		assert.Contains(t, out, "ns-"+string(b))
		if b != client.JSON {
			assert.Contains(t, out, `xmlns="https://contacts.example.com/contactsync/v1/"`)
		}
	}
	// --base-url overrides: the wrong one is refused by the service, naming what it expects.
	_, err := runCLI(t, "call", "VersionMinor", "--url", endpoint, "--base-url", wsdl.DefaultBaseURL)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `This service expects the namespace "https://contacts.example.com/contactsync/v1/" (set by --base-url`)
}

// TestCallWithoutWSDL: with the documents off, call falls back to the default base URL's namespace,
// and when the service then refuses the action it says why and that --base-url fixes it.
func TestCallWithoutWSDL(t *testing.T) {
	clearSettingsEnv(t)
	endpoint := serveFor(t, serveOptions{baseURL: "https://contacts.example.com", protocols: []string{"soap11", "get"}}, "http")
	_, err := runCLI(t, "call", "VersionMinor", "--url", endpoint)
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "Server did not recognize the value of the SOAP action")
	assert.Contains(t, msg, "the service serves no WSDL ("+endpoint+"?WSDL answered 404 Not Found: The service description (?WSDL, ?disco, help pages) is not enabled on this service.)")
	assert.Contains(t, msg, "so call used the namespace http://localhost:8080/contactsync/v1/, which --base-url http://localhost:8080 fixes; pass --base-url with the base URL the service was started with")

	_, err = runCLI(t, "call", "VersionMinor", "--url", endpoint, "--binding", "get")
	require.Error(t, err, "the answer is in the service's namespace, not the one assumed")
	assert.Contains(t, err.Error(), "pass --base-url with the base URL the service was started with")

	out, err := runCLI(t, "call", "VersionMinor", "--url", endpoint, "--base-url", "https://contacts.example.com")
	require.NoError(t, err, out)
	assert.Contains(t, out, "<VersionMinorResult>0</VersionMinorResult>")

	_, err = runCLI(t, "call", "VersionMinor", "--url", endpoint, "--binding", "json")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "HTTP 415: ")
	assert.NotContains(t, err.Error(), "HTTP 415 ()")
	assert.Contains(t, err.Error(), "The JSON endpoint is not enabled on this service")
}

// TestCallLogsIn: call used to have no way to log in but a password in the URL; --user takes the
// password from --password-file, CONTACTSYNC_PASSWORD or a terminal, over HTTP Basic or a WS-Security
// UsernameToken digest, and reads protected documents with the same credentials.
func TestCallLogsIn(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	users := filepath.Join(dir, "users")
	_, err := runCLIStdin(t, "s3cret-pw\n", "user", "add", "alice", "--users-file", users, "--password-stdin", "--digest")
	require.NoError(t, err)
	endpoint := serveFor(t, serveOptions{auth: authOptions{usersFile: users, docs: "protected", maxClockSkew: time.Minute}}, "http")
	pwFile := filepath.Join(dir, "pw")
	require.NoError(t, os.WriteFile(pwFile, []byte("s3cret-pw\n"), 0o600))

	_, err = runCLI(t, "call", "VersionMinor", "--url", endpoint)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the service's documents need credentials; pass --user")

	for _, b := range client.Bindings {
		out, err := runCLI(t, "call", "VersionMinor", "--url", endpoint, "--binding", string(b), "--user", "alice", "--password-file", pwFile)
		require.NoError(t, err, "%s: %s", b, out)
	}
	t.Setenv(passwordEnv, "s3cret-pw")
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12} {
		out, err := runCLI(t, "call", "ReadContact", "--id", "nobody", "--url", endpoint, "--binding", string(b), "--user", "alice", "--ws-security")
		require.Error(t, err, "%s: %s", b, out)
		assert.Contains(t, err.Error(), "NotFound", "authenticated by the token, then the operation ran")
	}
	_, err = runCLI(t, "call", "VersionMinor", "--url", endpoint, "--binding", "get", "--user", "alice", "--ws-security")
	require.ErrorContains(t, err, "WS-Security travels in the SOAP header: the get binding cannot carry it")

	t.Setenv(passwordEnv, "wrong")
	_, err = runCLI(t, "call", "VersionMinor", "--url", endpoint, "--user", "alice")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "401")

	t.Setenv(passwordEnv, "")
	_, err = runCLIStdin(t, "", "call", "VersionMinor", "--url", endpoint, "--user", "alice")
	require.ErrorContains(t, err, "--user alice needs a password: give --password-file FILE, set CONTACTSYNC_PASSWORD, or run call on a terminal to type it")
	_, err = runCLI(t, "call", "VersionMinor", "--url", endpoint, "--password-file", pwFile)
	require.ErrorContains(t, err, "--password-file is the password of --user: give --user too")
}

// TestCallTLS: --ca-cert trusts a private certificate; without it the call fails on the certificate;
// --insecure-skip-verify skips the check, with a warning.
func TestCallTLS(t *testing.T) {
	clearSettingsEnv(t)
	dir := t.TempDir()
	certFile, keyFile, _ := testCertificate(t, dir, "server")
	endpoint := serveFor(t, serveOptions{tls: tlsOptions{certFile: certFile, keyFile: keyFile}}, "https")

	out, err := runCLI(t, "call", "VersionMinor", "--url", endpoint, "--ca-cert", certFile)
	require.NoError(t, err, out)
	assert.Contains(t, out, "<VersionMinorResult>0</VersionMinorResult>")

	_, err = runCLI(t, "call", "VersionMinor", "--url", endpoint)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "certificate")

	out, err = runCLI(t, "call", "VersionMinor", "--url", endpoint, "--insecure-skip-verify")
	require.NoError(t, err, out)
	assert.Contains(t, out, "call: --insecure-skip-verify: the server's certificate is not checked")

	notPEM := filepath.Join(dir, "not.pem")
	require.NoError(t, os.WriteFile(notPEM, []byte("hello"), 0o600))
	_, err = runCLI(t, "call", "VersionMinor", "--url", endpoint, "--ca-cert", notPEM)
	require.ErrorContains(t, err, "holds no PEM certificate")
}

// TestCallWSSecurityPasswordTypes: --ws-security=text sends a PasswordText, which every user may use;
// a bare --ws-security (or =digest, or =true as when it was a boolean) a PasswordDigest, which only a
// user added with --digest may use; and a digest refused says so, naming user add --digest.
func TestCallWSSecurityPasswordTypes(t *testing.T) {
	clearSettingsEnv(t)
	users := filepath.Join(t.TempDir(), "users")
	_, err := runCLIStdin(t, "digest-pw-1\n", "user", "add", "dave", "--users-file", users, "--password-stdin", "--digest")
	require.NoError(t, err)
	_, err = runCLIStdin(t, "text-only-pw\n", "user", "add", "bob", "--users-file", users, "--password-stdin")
	require.NoError(t, err)
	endpoint := serveFor(t, serveOptions{auth: authOptions{usersFile: users, maxClockSkew: time.Minute}}, "http")

	cases := []struct {
		name, user, password, flag string
		want                       string // "" for success
		hint                       bool   // the error names user add --digest
	}{
		{"text, a user without digest", "bob", "text-only-pw", "--ws-security=text", "", false},
		{"text, a user with digest", "dave", "digest-pw-1", "--ws-security=text", "", false},
		{"bare flag is digest", "dave", "digest-pw-1", "--ws-security", "", false},
		{"digest by name", "dave", "digest-pw-1", "--ws-security=digest", "", false},
		{"true is digest, as when it was a boolean", "dave", "digest-pw-1", "--ws-security=true", "", false},
		{"digest from a user without digest", "bob", "text-only-pw", "--ws-security", "FailedAuthentication", true},
		{"digest with a wrong password", "dave", "wrong-pw-1", "--ws-security=digest", "FailedAuthentication", true},
		{"text with a wrong password", "bob", "wrong-pw-1", "--ws-security=text", "FailedAuthentication", false},
		{"unknown mode", "bob", "text-only-pw", "--ws-security=plain", `invalid argument "plain" for "--ws-security" flag: "plain": want digest`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(passwordEnv, tc.password)
			out, err := runCLI(t, "call", "VersionMinor", "--url", endpoint, "--user", tc.user, tc.flag)
			if tc.want == "" {
				require.NoError(t, err, out)
				assert.Contains(t, out, "<VersionMinorResult>0</VersionMinorResult>")
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			if tc.hint {
				assert.Contains(t, err.Error(), "the service accepts a PasswordDigest only from users added with `contactsync user add --digest`")
				assert.Contains(t, err.Error(), "add "+tc.user+" with --digest on the service, or send the password as PasswordText with --ws-security=text")
			} else {
				assert.NotContains(t, err.Error(), "user add --digest")
			}
		})
	}
}
