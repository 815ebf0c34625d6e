package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

// runCLIStdin is runCLI with stdin.
func runCLIStdin(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func loadUsers(t *testing.T, path string) *auth.Users {
	t.Helper()
	users, insecure, err := auth.LoadUsersFile(path)
	require.NoError(t, err)
	assert.False(t, insecure, "the users file must be 0600")
	return users
}

func TestUserAddAndRemove(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	path := filepath.Join(t.TempDir(), "users")

	out, err := runCLIStdin(t, "first-pw\n", "user", "add", "alice", "--users-file", path, "--password-stdin")
	require.NoError(t, err)
	assert.Contains(t, out, `added user "alice"`)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	users := loadUsers(t, path)
	require.NoError(t, bcrypt.CompareHashAndPassword(users.Lookup("alice").Hash, []byte("first-pw")), "the trailing newline is not part of the password")
	assert.Nil(t, users.Lookup("alice").DigestSecret)

	// A comment added by hand survives edits.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("# ops: bob is the batch job\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	out, err = runCLIStdin(t, "bob pw with spaces\r\n", "user", "add", "bob", "--users-file", path, "--password-stdin", "--digest")
	require.NoError(t, err)
	assert.Contains(t, out, "password-equivalent")
	out, err = runCLIStdin(t, "second-pw", "user", "add", "alice", "--users-file", path, "--password-stdin")
	require.NoError(t, err)
	assert.Contains(t, out, `replaced the password of user "alice"`)

	users = loadUsers(t, path)
	assert.Equal(t, []string{"alice", "bob"}, users.Names())
	require.NoError(t, bcrypt.CompareHashAndPassword(users.Lookup("alice").Hash, []byte("second-pw")))
	assert.Equal(t, []byte("bob pw with spaces"), users.Lookup("bob").DigestSecret)
	content, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(content), "# ops: bob is the batch job\n")
	assert.NotContains(t, out, "second-pw", "the password is never printed")

	out, err = runCLIStdin(t, "", "user", "remove", "alice", "--users-file", path)
	require.NoError(t, err)
	assert.Contains(t, out, `removed user "alice"`)
	assert.Equal(t, []string{"bob"}, loadUsers(t, path).Names())
	_, err = runCLIStdin(t, "", "user", "remove", "alice", "--users-file", path)
	assert.ErrorContains(t, err, `no user "alice"`)
}

// TestUserCommandsTakeTheUsersFileFromTheEnvironment checks that --users-file is a setting of user add
// and user remove too, so an operator who exports CONTACTSYNC_USERS_FILE for serve edits the same file.
func TestUserCommandsTakeTheUsersFileFromTheEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "users")
	t.Setenv(envName("users-file"), path)
	out, err := runCLIStdin(t, "carol-pw\n", "user", "add", "carol", "--password-stdin")
	require.NoError(t, err)
	assert.Contains(t, out, `added user "carol" to `+path)
	assert.Equal(t, []string{"carol"}, loadUsers(t, path).Names())
	_, err = runCLIStdin(t, "", "user", "remove", "carol")
	require.NoError(t, err)
	assert.Empty(t, loadUsers(t, path).Names())
}

// TestUserAddDigestTightensTheFileMode checks that a users file readable by others is made 0600 once
// it holds a password-equivalent digest secret, and that a file without one keeps the operator's mode.
func TestUserAddDigestTightensTheFileMode(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	path := filepath.Join(t.TempDir(), "users")
	_, err := runCLIStdin(t, "alice-pw\n", "user", "add", "alice", "--users-file", path, "--password-stdin")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(path, 0o644))
	_, err = runCLIStdin(t, "bob-pw-2\n", "user", "add", "bob", "--users-file", path, "--password-stdin")
	require.NoError(t, err)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm(), "no digest secret: the mode stays as the operator set it")

	_, err = runCLIStdin(t, "dave-pw-3\n", "user", "add", "dave", "--users-file", path, "--password-stdin", "--digest")
	require.NoError(t, err)
	info, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "a digest secret: readable by the owner only")
}

// TestUserAddMinimumPasswordLength: user add refuses a password shorter than --min-password-length
// (8 by default, NIST SP 800-63B's minimum), counting characters rather than bytes, and the minimum is
// a setting like --users-file, so it can come from the environment or the config file.
func TestUserAddMinimumPasswordLength(t *testing.T) {
	cases := []struct {
		name     string
		password string
		args     []string
		env      string // CONTACTSYNC_MIN_PASSWORD_LENGTH
		want     string // "" for success
	}{
		{"three characters refused", "abc", nil, "", "the password has 3 characters; at least 8 are required (--min-password-length"},
		{"seven characters refused", "1234567", nil, "", "the password has 7 characters; at least 8 are required"},
		{"eight characters taken", "12345678", nil, "", ""},
		{"characters, not bytes: four of two bytes each are four", "ääää", []string{"--min-password-length", "5"}, "", "the password has 4 characters; at least 5 are required"},
		{"eight characters of two bytes taken", "ääääääää", nil, "", ""},
		{"raised by the flag", "twelve-chars", []string{"--min-password-length", "13"}, "", "at least 13 are required"},
		{"lowered by the environment", "abc", nil, "3", ""},
		{"a minimum below 1 refused", "abcdefgh", []string{"--min-password-length", "0"}, "", "--min-password-length 0: must be at least 1"},
		{"longer than bcrypt takes", strings.Repeat("p", auth.MaxPasswordBytes+1), nil, "", "72 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clearSettingsEnv(t)
			if tc.env != "" {
				t.Setenv(envName("min-password-length"), tc.env)
			}
			path := filepath.Join(t.TempDir(), "users")
			args := append([]string{"user", "add", "alice", "--users-file", path, "--password-stdin"}, tc.args...)
			_, err := runCLIStdin(t, tc.password+"\n", args...)
			if tc.want == "" {
				require.NoError(t, err)
				assert.Equal(t, []string{"alice"}, loadUsers(t, path).Names())
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), tc.password, "the password is never printed")
			_, statErr := os.Stat(path)
			assert.ErrorIs(t, statErr, os.ErrNotExist, "a refused add creates no file")
		})
	}
}

func TestUserAddRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "users")
	broken := filepath.Join(dir, "broken")
	require.NoError(t, os.WriteFile(broken, []byte("# users\nalice:plaintext\n"), 0o600))
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"colon in name", "pw\n", []string{"user", "add", "a:b", "--users-file", path, "--password-stdin"}, "contains ':'"},
		{"control character", "pw\n", []string{"user", "add", "a\tb", "--users-file", path, "--password-stdin"}, "control character"},
		{"empty password", "\n", []string{"user", "add", "alice", "--users-file", path, "--password-stdin"}, "empty"},
		{"no terminal", "pw\n", []string{"user", "add", "alice", "--users-file", path}, "--password-stdin"},
		{"no users file", "pw\n", []string{"user", "add", "alice", "--password-stdin"}, "users-file"},
		{"malformed existing file", "bob-password\n", []string{"user", "add", "bob", "--users-file", broken, "--password-stdin"}, "line 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runCLIStdin(t, tc.stdin, tc.args...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "a refused add creates no file")
}

func TestServeAuthConfiguration(t *testing.T) {
	dir := t.TempDir()
	malformed := filepath.Join(dir, "malformed")
	require.NoError(t, os.WriteFile(malformed, []byte("alice:$apr1$x$y\n"), 0o600))
	base := func(a authOptions) serveOptions {
		return serveOptions{addr: "127.0.0.1:0", store: "sqlite:" + filepath.Join(dir, "x.db"), baseURL: wsdl.DefaultBaseURL, auth: a}
	}
	cases := []struct {
		name string
		auth authOptions
		want string
	}{
		{"missing users file", authOptions{usersFile: filepath.Join(dir, "nope"), docs: "open", maxClockSkew: time.Minute}, "--users-file"},
		{"malformed users file", authOptions{usersFile: malformed, docs: "open", maxClockSkew: time.Minute}, "line 1"},
		{"bad auth-docs", authOptions{docs: "sometimes"}, "--auth-docs"},
		{"protected docs without users", authOptions{docs: "protected"}, "--users-file"},
		{"negative skew", authOptions{docs: "open", maxClockSkew: -time.Second}, "--auth-max-clock-skew"},
		{"negative bcrypt concurrency", authOptions{docs: "open", maxClockSkew: time.Minute, bcryptConcurrency: -1}, "--auth-bcrypt-concurrency"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := runServe(context.Background(), base(tc.auth), slog.New(slog.NewTextHandler(io.Discard, nil)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "$apr1$x$y", "a hash is never shown")
		})
	}
}

// TestServeWithUsersFile runs the real wiring with a users file written by `user add`: no credentials
// get 401, Basic gets through, the docs stay open, and the log names no secret.
func TestServeWithUsersFile(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	dir := t.TempDir()
	users := filepath.Join(dir, "users")
	_, err := runCLIStdin(t, "s3cret-pw\n", "user", "add", "alice", "--users-file", users, "--password-stdin", "--digest")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(users, 0o640))

	var logs syncBuffer
	addr, cancel, done := launchServe(t, serveOptions{
		store:           "sqlite:" + filepath.Join(dir, "c.db"),
		auth:            authOptions{usersFile: users, docs: "open", maxClockSkew: time.Minute},
		shutdownTimeout: 5 * time.Second,
	}, slog.New(slog.NewTextHandler(&logs, nil)))
	endpoint := "http://" + addr.String() + wsdl.Path
	defer func() { cancel(); require.NoError(t, <-done) }()

	get := func(url, user, pw string) int {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		require.NoError(t, err)
		if user != "" {
			req.SetBasicAuth(user, pw)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, 401, get(endpoint+"/VersionMajor", "", ""))
	assert.Equal(t, 401, get(endpoint+"/VersionMajor", "alice", "wrong"))
	assert.Equal(t, 200, get(endpoint+"/VersionMajor", "alice", "s3cret-pw"))
	assert.Equal(t, 200, get(endpoint+"?WSDL", "", ""))

	log := logs.String()
	assert.Contains(t, log, "authentication on")
	assert.Contains(t, log, "PasswordDigest secrets", "a group-readable file with digest secrets is warned about")
	assert.NotContains(t, log, "authentication is off")
	for _, secret := range []string{"s3cret-pw", "$2a$", "czNjcmV0LXB3", "Authorization"} {
		assert.NotContains(t, log, secret)
	}
}

func TestWarnIfUnauthenticated(t *testing.T) {
	a, err := auth.New(&auth.Users{}, auth.Options{})
	require.NoError(t, err)
	cases := []struct {
		addr string
		auth *auth.Authenticator
		warn bool
	}{
		{"127.0.0.1:8080", nil, false},
		{"[::1]:8080", nil, false},
		{"0.0.0.0:8080", nil, true},
		{"192.0.2.10:8080", nil, true},
		{"0.0.0.0:8080", a, false},
	}
	for _, tc := range cases {
		var buf bytes.Buffer
		addr, err := net.ResolveTCPAddr("tcp", tc.addr)
		require.NoError(t, err)
		warnIfUnauthenticated(slog.New(slog.NewTextHandler(&buf, nil)), addr, tc.auth)
		assert.Equal(t, tc.warn, strings.Contains(buf.String(), "authentication is off"), tc.addr)
	}
}

// TestUserList: there was no way to see who the users file lets in but reading it; user list names
// each user and the schemes it may use, and no secret.
func TestUserList(t *testing.T) {
	clearSettingsEnv(t)
	users := filepath.Join(t.TempDir(), "users")
	_, err := runCLIStdin(t, "pw-of-alice\n", "user", "add", "alice", "--users-file", users, "--password-stdin")
	require.NoError(t, err)
	_, err = runCLIStdin(t, "pw-of-bob\n", "user", "add", "bob", "--users-file", users, "--password-stdin", "--digest")
	require.NoError(t, err)
	out, err := runCLI(t, "user", "list", "--users-file", users)
	require.NoError(t, err)
	assert.Equal(t, "USER   AUTHENTICATES WITH\n"+
		"alice  HTTP Basic, WS-Security PasswordText\n"+
		"bob    HTTP Basic, WS-Security PasswordText, WS-Security PasswordDigest\n", out)

	_, err = runCLI(t, "user", "remove", "alice", "--users-file", users)
	require.NoError(t, err)
	_, err = runCLI(t, "user", "remove", "bob", "--users-file", users)
	require.NoError(t, err)
	out, err = runCLI(t, "user", "list", "--users-file", users)
	require.NoError(t, err)
	assert.Contains(t, out, "lists no users")

	_, err = runCLI(t, "user", "list")
	require.ErrorContains(t, err, "--users-file is required")
}
