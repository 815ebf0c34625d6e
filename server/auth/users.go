// Package auth authenticates callers of the service: a file of users with bcrypt password hashes (the
// htpasswd format Apache's `htpasswd -B` writes), verification of HTTP Basic credentials and of
// WS-Security UsernameTokens (PasswordText and, for users who opted in, PasswordDigest with nonce and
// created-time checks), the caches that keep both cheap and replay-safe, and the decision the handler
// asks for about each request (Decide): accepted as whom, refused with which answer and, for the
// operator's debug log, why, or pending until the body's credentials are known.
//
// It parses no SOAP: the SOAP binding reads the WS-Security header into Credentials, and Decide judges
// them. It owns the things of authentication the bindings write: the Basic challenge of every 401
// (BasicChallenge) and the WS-Security fault a refused UsernameToken gets (TokenFault). It may import
// only the standard library, golang.org/x/crypto and server/fault (the errors its decisions answer
// with).
package auth

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"golang.org/x/crypto/bcrypt"
)

// digestField prefixes the optional third field of a users-file line: the Base64 of the password of a
// user who may authenticate with a WS-Security PasswordDigest (see User.DigestSecret).
const digestField = "digest="

// User is one line of the users file.
type User struct {
	// Name is the user name, as sent in HTTP Basic or a UsernameToken.
	Name string
	// Hash is the bcrypt hash of the password ($2a$, $2b$ or $2y$).
	Hash []byte
	// DigestSecret is the password itself, kept only for users who opted in to PasswordDigest
	// (`contactsync user add --digest`): a PasswordDigest is SHA-1(nonce + created + password), which
	// cannot be checked against a bcrypt hash. It is password-equivalent, which is why the users file
	// must be readable by the service only. Nil for every other user.
	DigestSecret []byte
}

// Users is a parsed users file: the users by name, in file order.
type Users struct {
	byName map[string]*User
	order  []string
}

// Lookup returns the user of that name, or nil.
func (u *Users) Lookup(name string) *User { return u.byName[name] }

// Names returns the user names in file order.
func (u *Users) Names() []string { return append([]string(nil), u.order...) }

// Len is the number of users.
func (u *Users) Len() int { return len(u.order) }

// DigestUsers counts the users allowed to use PasswordDigest.
func (u *Users) DigestUsers() int {
	n := 0
	for _, user := range u.byName {
		if user.DigestSecret != nil {
			n++
		}
	}
	return n
}

// LoadUsersFile reads and parses a users file. insecureMode reports that the file is readable by its
// group or by others (the caller should warn, louder when digest secrets are in it).
func LoadUsersFile(path string) (users *Users, insecureMode bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	users, err = ParseUsers(f)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return users, info.Mode().Perm()&0o077 != 0, nil
}

// ParseUsers parses a users file: one user per line, `name:bcrypt-hash` as `htpasswd -B` writes it,
// optionally followed by `:digest=BASE64` for a PasswordDigest user. Blank lines and lines starting
// with `#` are ignored. A malformed line is an error naming its line number; the error never holds
// the hash or the secret.
func ParseUsers(r io.Reader) (*Users, error) {
	users := &Users{byName: map[string]*User{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		u, err := parseUserLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if users.byName[u.Name] != nil {
			return nil, fmt.Errorf("line %d: user %q is listed twice", n, u.Name)
		}
		users.byName[u.Name] = u
		users.order = append(users.order, u.Name)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading users: %w", err)
	}
	return users, nil
}

func parseUserLine(line string) (*User, error) {
	fields := strings.Split(line, ":")
	if len(fields) < 2 || len(fields) > 3 {
		return nil, errors.New("expected name:bcrypt-hash or name:bcrypt-hash:digest=BASE64")
	}
	name := fields[0]
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	hash := []byte(fields[1])
	if !isBcrypt(hash) {
		return nil, fmt.Errorf("user %q: the password hash is not a bcrypt hash ($2y$, $2a$ or $2b$); create it with `htpasswd -B` or `contactsync user add`", name)
	}
	if _, err := bcrypt.Cost(hash); err != nil {
		return nil, fmt.Errorf("user %q: the bcrypt hash is malformed", name)
	}
	u := &User{Name: name, Hash: hash}
	if len(fields) == 3 {
		enc, ok := strings.CutPrefix(fields[2], digestField)
		if !ok {
			return nil, fmt.Errorf("user %q: the third field must be %sBASE64", name, digestField)
		}
		secret, err := base64.StdEncoding.DecodeString(enc)
		if err != nil || len(secret) == 0 {
			return nil, fmt.Errorf("user %q: the digest secret is not valid non-empty Base64", name)
		}
		u.DigestSecret = secret
	}
	return u, nil
}

func isBcrypt(hash []byte) bool {
	return bytes.HasPrefix(hash, []byte("$2a$")) || bytes.HasPrefix(hash, []byte("$2b$")) || bytes.HasPrefix(hash, []byte("$2y$"))
}

// ValidateName refuses names HTTP Basic or the file format cannot carry: empty, with a ':' (Basic
// splits user and password at the first one, RFC 7617 §2), with a control character, with white
// space at either end, or starting with '#' (a comment line).
func ValidateName(name string) error {
	switch {
	case name == "":
		return errors.New("the user name is empty")
	case strings.ContainsRune(name, ':'):
		return fmt.Errorf("the user name %q contains ':'", name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("the user name %q contains a control character", name)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("the user name %q starts or ends with white space", name)
	case strings.HasPrefix(name, "#"):
		return fmt.Errorf("the user name %q starts with '#', which marks a comment", name)
	}
	return nil
}

// FormatUser returns the users-file line (without newline) for a user.
func FormatUser(u *User) string {
	line := u.Name + ":" + string(u.Hash)
	if u.DigestSecret != nil {
		line += ":" + digestField + base64.StdEncoding.EncodeToString(u.DigestSecret)
	}
	return line
}

// NewUser hashes password with bcrypt at the default cost. With digest, the user may also
// authenticate with PasswordDigest, and the password is kept in the line (see User.DigestSecret).
func NewUser(name string, password []byte, digest bool) (*User, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	if len(password) == 0 {
		return nil, errors.New("the password is empty")
	}
	hash, err := bcrypt.GenerateFromPassword(password, bcrypt.DefaultCost)
	if err != nil {
		return nil, err
	}
	u := &User{Name: name, Hash: hash}
	if digest {
		u.DigestSecret = append([]byte(nil), password...)
	}
	return u, nil
}
