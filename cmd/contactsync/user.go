package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// newUserCommand builds `contactsync user`, which edits the users file serve reads with --users-file.
func newUserCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user",
		Short: "Manage the users file (--users-file) that turns authentication on",
	}
	cmd.AddCommand(newUserAddCommand(), newUserRemoveCommand(), newUserListCommand())
	return cmd
}

type userAddOptions struct {
	usersFile         string
	digest            bool
	passwordStdin     bool
	minPasswordLength int
}

// defaultMinPasswordLength is the shortest password user add takes by default: the minimum NIST SP
// 800-63B (§3.1.1.2, "Password Verifiers") sets for a password chosen by its user. A password here is
// the only factor, so the floor is not relaxed by default; --min-password-length raises it, or lowers
// it for a test bench.
const defaultMinPasswordLength = 8

func newUserAddCommand() *cobra.Command {
	var opts userAddOptions
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Add a user, or replace an existing user's password",
		Long: "Add a user to the users file (created with mode 0600 if missing), or replace the line of an existing user.\n" +
			"The password is read from the terminal without echo, or with --password-stdin from the first line of stdin.\n" +
			"The line is `NAME:BCRYPT-HASH`, the format of Apache's `htpasswd -B`. With --digest the user may also\n" +
			"authenticate with a WS-Security PasswordDigest, which needs the password itself: it is stored in the line\n" +
			"(`:digest=BASE64`), so the file becomes password-equivalent and must stay readable by the service only.\n" +
			"A password shorter than --min-password-length characters (default 8, the minimum of NIST SP 800-63B) is\n" +
			"refused; the longest bcrypt can check is 72 bytes.",
		Args: oneArg("NAME", "the user's name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUserAdd(cmd, args[0], opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.usersFile, "users-file", "", "the users file to edit (required)")
	f.BoolVar(&opts.digest, "digest", false, "also allow WS-Security PasswordDigest for this user (stores a password-equivalent secret in the file)")
	f.BoolVar(&opts.passwordStdin, "password-stdin", false, "read the password from the first line of stdin instead of the terminal")
	f.IntVar(&opts.minPasswordLength, "min-password-length", defaultMinPasswordLength, "refuse a password of fewer characters (NIST SP 800-63B: at least 8)")
	// The file and the password policy are settings: --digest and --password-stdin belong to one
	// invocation.
	return bindSettings(cmd, "users-file", "min-password-length")
}

// requireUsersFile refuses an empty --users-file. It is checked here rather than with cobra's
// MarkFlagRequired, which would not see a value taken from the environment or the config file.
func requireUsersFile(path string) error {
	if path == "" {
		return errors.New("--users-file is required (or " + envName("users-file") + ")")
	}
	return nil
}

func runUserAdd(cmd *cobra.Command, name string, opts userAddOptions) error {
	if err := requireUsersFile(opts.usersFile); err != nil {
		return err
	}
	if err := auth.ValidateName(name); err != nil {
		return err
	}
	if opts.minPasswordLength < 1 {
		return fmt.Errorf("--min-password-length %d: must be at least 1 (NIST SP 800-63B asks for 8)", opts.minPasswordLength)
	}
	password, err := readPassword(cmd, opts.passwordStdin)
	if err != nil {
		return err
	}
	if err := checkPasswordLength(password, opts.minPasswordLength); err != nil {
		return err
	}
	user, err := auth.NewUser(name, password, opts.digest)
	if err != nil {
		return err
	}
	replaced, err := editUsersFile(opts.usersFile, name, auth.FormatUser(user))
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if replaced {
		fmt.Fprintf(out, "replaced the password of user %q in %s\n", name, opts.usersFile)
	} else {
		fmt.Fprintf(out, "added user %q to %s\n", name, opts.usersFile)
	}
	if opts.digest {
		fmt.Fprintf(out, "%q may use WS-Security PasswordDigest; %s now holds a password-equivalent secret: keep it readable by the service only (mode 0600)\n", name, opts.usersFile)
	}
	return nil
}

func newUserRemoveCommand() *cobra.Command {
	var usersFile string
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a user from the users file",
		Args:  oneArg("NAME", "the user's name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := requireUsersFile(usersFile); err != nil {
				return err
			}
			found, err := editUsersFile(usersFile, args[0], "")
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("%s lists no user %q", usersFile, args[0])
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed user %q from %s\n", args[0], usersFile)
			return nil
		},
	}
	cmd.Flags().StringVar(&usersFile, "users-file", "", "the users file to edit (required)")
	return bindSettings(cmd, "users-file")
}

func newUserListCommand() *cobra.Command {
	var usersFile string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the users of the users file and how each may authenticate",
		Long: "Print one line per user of the users file, in the file's order: the name, and the schemes the\n" +
			"user may authenticate with (HTTP Basic and a WS-Security PasswordText always; a PasswordDigest\n" +
			"only for users added with --digest). No password or hash is printed.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireUsersFile(usersFile); err != nil {
				return err
			}
			users, _, err := auth.LoadUsersFile(usersFile)
			if err != nil {
				return fmt.Errorf("--users-file: %w", err)
			}
			out := cmd.OutOrStdout()
			if users.Len() == 0 {
				_, err := fmt.Fprintf(out, "%s lists no users: serve with it refuses every request (add one with contactsync user add NAME)\n", usersFile)
				return err
			}
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "USER\tAUTHENTICATES WITH")
			for _, name := range users.Names() {
				schemes := "HTTP Basic, WS-Security PasswordText"
				if users.Lookup(name).DigestSecret != nil {
					schemes += ", WS-Security PasswordDigest"
				}
				fmt.Fprintf(w, "%s\t%s\n", name, schemes)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&usersFile, "users-file", "", "the users file to read (required)")
	return bindSettings(cmd, "users-file")
}

// readPassword reads the new password: from the first line of stdin with --password-stdin (for
// scripts), otherwise twice from the terminal without echo.
func readPassword(cmd *cobra.Command, fromStdin bool) ([]byte, error) {
	in := cmd.InOrStdin()
	if fromStdin {
		line, err := bufio.NewReader(in).ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading the password from stdin: %w", err)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			return nil, errors.New("the password read from stdin is empty")
		}
		return line, nil
	}
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil, errors.New("stdin is not a terminal: pass the password with --password-stdin")
	}
	prompt := cmd.ErrOrStderr()
	fmt.Fprint(prompt, "Password: ")
	first, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(prompt)
	if err != nil {
		return nil, err
	}
	fmt.Fprint(prompt, "Retype password: ")
	second, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(prompt)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(first, second) {
		return nil, errors.New("the passwords do not match")
	}
	if len(first) == 0 {
		return nil, errors.New("the password is empty")
	}
	return first, nil
}

// checkPasswordLength refuses a password of fewer than min characters. Characters are Unicode code
// points, as NIST SP 800-63B counts them, so a passphrase in any script is measured alike; the upper
// bound, 72 bytes, is bcrypt's and is enforced when the password is hashed.
func checkPasswordLength(password []byte, minChars int) error {
	if n := utf8.RuneCount(password); n < minChars {
		return fmt.Errorf("the password has %d characters; at least %d are required (--min-password-length, after NIST SP 800-63B): "+
			"choose a longer one, such as a few unrelated words", n, minChars)
	}
	return nil
}

// editUsersFile replaces the line of user name with line (removes it when line is empty; appends it
// when the user is new), keeping every other line and comment. The file must parse before the edit;
// it is rewritten atomically (a temporary file in the same directory, renamed over it) and created
// with mode 0600. found reports whether the user was already listed.
func editUsersFile(path, name, line string) (found bool, err error) {
	old, err := os.ReadFile(path)
	mode := os.FileMode(0o600)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if line == "" {
			return false, nil
		}
	case err != nil:
		return false, err
	default:
		if _, err := auth.ParseUsers(bytes.NewReader(old)); err != nil {
			return false, fmt.Errorf("%s: %w; fix it before editing", path, err)
		}
		if info, err := os.Stat(path); err == nil {
			mode = info.Mode().Perm()
		}
	}
	var out strings.Builder
	for l := range strings.SplitSeq(strings.TrimSuffix(string(old), "\n"), "\n") {
		if l == "" && len(old) == 0 {
			break
		}
		t := strings.TrimSpace(l)
		if n, _, ok := strings.Cut(strings.TrimRight(l, "\r"), ":"); ok && n == name && !strings.HasPrefix(t, "#") {
			found = true
			if line != "" {
				out.WriteString(line + "\n")
			}
			continue
		}
		out.WriteString(l + "\n")
	}
	if !found && line != "" {
		out.WriteString(line + "\n")
	}
	if holdsDigestSecrets(out.String()) {
		// A digest secret is password-equivalent: whatever mode the file had, only its owner may read
		// it now (serve warns about a readable file, but the secret should not sit there until then).
		mode &= 0o600
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".users-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if _, err := tmp.WriteString(out.String()); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	return found, os.Rename(tmp.Name(), path)
}

// holdsDigestSecrets reports whether a users file's content gives any user a PasswordDigest secret.
func holdsDigestSecrets(content string) bool {
	users, err := auth.ParseUsers(strings.NewReader(content))
	if err != nil {
		return false // not reached: the content was built from a file that parsed and a valid line
	}
	for _, name := range users.Names() {
		if users.Lookup(name).DigestSecret != nil {
			return true
		}
	}
	return false
}
