package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/spf13/cobra"
)

// authOptions holds serve's authentication settings.
type authOptions struct {
	usersFile    string
	docs         string
	maxClockSkew time.Duration
	// bcryptConcurrency bounds the bcrypt comparisons running at once; 0 means
	// auth.DefaultBcryptConcurrency (half the CPUs).
	bcryptConcurrency int
}

// authFlags registers serve's authentication flags. Authentication is off unless --users-file is set.
func authFlags(cmd *cobra.Command, o *authOptions) {
	f := cmd.Flags()
	f.StringVar(&o.usersFile, "users-file", "", "`FILE` of users allowed to call the service (htpasswd bcrypt format, written by contactsync user add); setting it turns authentication on; re-read on reload (SIGHUP)")
	f.StringVar(&o.docs, "auth-docs", "open", "with --users-file: whether ?WSDL, ?disco and the help pages need credentials too: open or protected")
	f.IntVar(&o.bcryptConcurrency, "auth-bcrypt-concurrency", 0, "with --users-file: most bcrypt password checks running at once (0: half the CPUs, at least 1); a check waiting longer than 250ms for one gets 503")
	f.DurationVar(&o.maxClockSkew, "auth-max-clock-skew", auth.DefaultMaxClockSkew, "with --users-file: how far a WS-Security UsernameToken's Created time may be from the server's clock; nonces are remembered this long")
}

// validate refuses settings that cannot work, naming the flag.
func (o authOptions) validate() error {
	switch o.docs {
	case "open", "", "protected":
	default:
		return fmt.Errorf("--auth-docs %q: use open or protected", o.docs)
	}
	if o.maxClockSkew < 0 || (o.maxClockSkew == 0 && o.usersFile != "") {
		return errors.New("--auth-max-clock-skew must be positive")
	}
	if o.bcryptConcurrency < 0 {
		return errors.New("--auth-bcrypt-concurrency must be 0 (half the CPUs) or more")
	}
	if o.usersFile == "" && o.docs == "protected" {
		return errors.New("--auth-docs protected needs --users-file")
	}
	return nil
}

// build validates the settings and loads the users file. It returns a nil Authenticator when
// authentication is off.
func (o authOptions) build(logger *slog.Logger) (a *auth.Authenticator, protectDocs bool, err error) {
	if err := o.validate(); err != nil {
		return nil, false, err
	}
	protectDocs = o.docs == "protected"
	if o.usersFile == "" {
		return nil, false, nil
	}
	users, err := o.loadUsers(logger)
	if err != nil {
		return nil, false, err
	}
	a, err = auth.New(users, auth.Options{MaxClockSkew: o.maxClockSkew, BcryptConcurrency: o.bcryptConcurrency})
	if err != nil {
		return nil, false, err
	}
	logger.Info("authentication on", "users_file", o.usersFile, "users", users.Len(), "digest_users", users.DigestUsers(),
		"docs", map[bool]string{false: "open", true: "protected"}[protectDocs], "max_clock_skew", o.maxClockSkew.String(),
		"bcrypt_concurrency", a.BcryptConcurrency())
	return a, protectDocs, nil
}

// loadUsers reads the users file, at start and on every reload, warning about a file others may read
// and about one that lists nobody.
func (o authOptions) loadUsers(logger *slog.Logger) (*auth.Users, error) {
	users, insecureMode, err := auth.LoadUsersFile(o.usersFile)
	if err != nil {
		return nil, fmt.Errorf("--users-file: %w", err)
	}
	if insecureMode {
		if users.DigestUsers() > 0 {
			logger.Warn("the users file is readable by other users and holds PasswordDigest secrets, which are password-equivalent: chmod 600 it",
				"users_file", o.usersFile)
		} else {
			logger.Warn("the users file is readable by other users: chmod 600 it", "users_file", o.usersFile)
		}
	}
	if users.Len() == 0 {
		logger.Warn("the users file lists no users: every request will be refused", "users_file", o.usersFile)
	}
	return users, nil
}

// warnIfUnauthenticated warns when authentication is off and the service is reachable beyond this host.
func warnIfUnauthenticated(logger *slog.Logger, addr net.Addr, a *auth.Authenticator) {
	if a != nil {
		return
	}
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		return
	}
	logger.Warn("authentication is off and the service listens beyond loopback: anyone who reaches it can read and change contacts; set --users-file",
		"addr", addr.String())
}
