package auth_test

import (
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

// hashOf returns a cheap bcrypt hash (MinCost keeps the tests fast).
func hashOf(t testing.TB, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	require.NoError(t, err)
	return string(h)
}

func TestParseUsers(t *testing.T) {
	h := hashOf(t, "pw")
	secret := base64.StdEncoding.EncodeToString([]byte("pw"))
	tests := []struct {
		name      string
		file      string
		users     []string
		digest    []string
		errLine   string // the error must contain it
		errDetail string
	}{
		{name: "empty", file: ""},
		{name: "comments and blank lines", file: "# users\n\n   \n  # indented comment\nalice:" + h + "\n", users: []string{"alice"}},
		{name: "crlf", file: "alice:" + h + "\r\nbob:" + h + "\r\n", users: []string{"alice", "bob"}},
		{name: "2a 2b 2y prefixes", file: "a:" + h + "\nb:$2b$" + h[4:] + "\nc:$2y$" + h[4:] + "\n", users: []string{"a", "b", "c"}},
		{name: "digest user", file: "alice:" + h + ":digest=" + secret + "\nbob:" + h + "\n", users: []string{"alice", "bob"}, digest: []string{"alice"}},
		{name: "no colon", file: "# c\nalice\n", errLine: "line 2:", errDetail: "expected name:bcrypt-hash"},
		{name: "too many fields", file: "alice:" + h + ":digest=" + secret + ":x\n", errLine: "line 1:", errDetail: "expected"},
		{name: "apr1 md5 hash", file: "alice:$apr1$abcdefgh$0123456789012345678901\n", errLine: "line 1:", errDetail: "not a bcrypt hash"},
		{name: "sha hash", file: "alice:{SHA}qUqP5cyxm6YcTAhz05Hph5gvu9M=\n", errLine: "line 1:", errDetail: "not a bcrypt hash"},
		{name: "truncated bcrypt", file: "\nalice:$2y$04$short\n", errLine: "line 2:", errDetail: "malformed"},
		{name: "empty name", file: ":" + h + "\n", errLine: "line 1:", errDetail: "empty"},
		{name: "name with control character", file: "al\x01ice:" + h + "\n", errLine: "line 1:", errDetail: "control character"},
		{name: "name with leading space", file: " alice:" + h + "\n", errLine: "line 1:", errDetail: "white space"},
		{name: "duplicate", file: "alice:" + h + "\nalice:" + h + "\n", errLine: "line 2:", errDetail: "twice"},
		{name: "bad third field", file: "alice:" + h + ":secret=abc\n", errLine: "line 1:", errDetail: "digest="},
		{name: "bad digest base64", file: "alice:" + h + ":digest=***\n", errLine: "line 1:", errDetail: "Base64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			users, err := auth.ParseUsers(strings.NewReader(tt.file))
			if tt.errLine != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.errLine)
				assert.Contains(t, err.Error(), tt.errDetail)
				assert.NotContains(t, err.Error(), h[7:], "an error must never show the hash")
				assert.NotContains(t, err.Error(), secret, "an error must never show the secret")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.users, nilIfEmpty(users.Names()))
			var digest []string
			for _, n := range users.Names() {
				if users.Lookup(n).DigestSecret != nil {
					digest = append(digest, n)
				}
			}
			assert.Equal(t, tt.digest, digest)
			assert.Equal(t, len(tt.digest), users.DigestUsers())
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestHtpasswdFixture checks a file written by Apache's `htpasswd -B` ($2y$ hashes, a name with a
// space, a non-ASCII password), committed once under testdata.
func TestHtpasswdFixture(t *testing.T) {
	users, insecure, err := auth.LoadUsersFile(filepath.Join("testdata", "htpasswd"))
	require.NoError(t, err)
	_ = insecure // the checkout's mode is git's business, not the fixture's
	require.Equal(t, []string{"alice", "bob smith"}, users.Names())
	a, err := auth.New(users, auth.Options{})
	require.NoError(t, err)
	assert.NoError(t, a.Verify("alice", "correct horse"))
	assert.NoError(t, a.Verify("bob smith", "bätter pässword"))
	assert.ErrorIs(t, a.Verify("alice", "Correct horse"), auth.ErrBadCredentials)
}

func TestLoadUsersFileReportsOpenMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "users")
	require.NoError(t, os.WriteFile(path, []byte("alice:"+hashOf(t, "pw")+"\n"), 0o600))
	_, insecure, err := auth.LoadUsersFile(path)
	require.NoError(t, err)
	assert.False(t, insecure, "0600")
	require.NoError(t, os.Chmod(path, 0o644))
	_, insecure, err = auth.LoadUsersFile(path)
	require.NoError(t, err)
	assert.True(t, insecure, "0644")
	_, _, err = auth.LoadUsersFile(filepath.Join(dir, "missing"))
	assert.Error(t, err)
}

func TestNewUserRoundTrip(t *testing.T) {
	u, err := auth.NewUser("carol", []byte("s3cret:with colon"), true)
	require.NoError(t, err)
	users, err := auth.ParseUsers(strings.NewReader(auth.FormatUser(u) + "\n"))
	require.NoError(t, err)
	got := users.Lookup("carol")
	require.NotNil(t, got)
	assert.Equal(t, []byte("s3cret:with colon"), got.DigestSecret)
	assert.NoError(t, bcrypt.CompareHashAndPassword(got.Hash, []byte("s3cret:with colon")))
	_, err = auth.NewUser("a:b", []byte("x"), false)
	assert.Error(t, err)
	_, err = auth.NewUser("a", nil, false)
	assert.Error(t, err)
}

// fixture is an Authenticator over alice (text only) and dave (digest enabled), with a settable clock.
type fixture struct {
	a   *auth.Authenticator
	now time.Time
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	file := "alice:" + hashOf(t, "alice-pw") + "\n" +
		"dave:" + hashOf(t, "dave-pw") + ":digest=" + base64.StdEncoding.EncodeToString([]byte("dave-pw")) + "\n"
	users, err := auth.ParseUsers(strings.NewReader(file))
	require.NoError(t, err)
	f := &fixture{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	f.a, err = auth.New(users, auth.Options{MaxClockSkew: 5 * time.Minute, NonceCacheSize: 4, Now: func() time.Time { return f.now }})
	require.NoError(t, err)
	return f
}

func TestVerifyAndCache(t *testing.T) {
	f := newFixture(t)
	var compares atomic.Int64
	f.a.SetEqual(func(a, b []byte) bool { compares.Add(1); return subtle.ConstantTimeCompare(a, b) == 1 })

	require.NoError(t, f.a.Verify("alice", "alice-pw"))
	assert.Equal(t, uint64(1), f.a.BcryptComparisons(), "a first success pays bcrypt")
	require.NoError(t, f.a.Verify("alice", "alice-pw"))
	assert.Equal(t, uint64(1), f.a.BcryptComparisons(), "a repeated success is served by the cache")
	assert.Equal(t, int64(1), compares.Load(), "the cache hit compared through the constant-time compare")

	assert.ErrorIs(t, f.a.Verify("alice", "wrong"), auth.ErrBadCredentials)
	assert.Equal(t, uint64(2), f.a.BcryptComparisons(), "a new failure pays bcrypt")
	assert.ErrorIs(t, f.a.Verify("alice", "wrong2"), auth.ErrBadCredentials)
	assert.Equal(t, uint64(3), f.a.BcryptComparisons(), "every new guess pays bcrypt")
	assert.ErrorIs(t, f.a.Verify("nobody", "alice-pw"), auth.ErrBadCredentials)
	assert.Equal(t, uint64(4), f.a.BcryptComparisons(), "an unknown user pays a dummy bcrypt")
	assert.ErrorIs(t, f.a.Verify("alice", ""), auth.ErrBadCredentials)
	require.NoError(t, f.a.Verify("alice", "alice-pw"), "a failure does not evict the cached success")
}

// TestRepeatedFailuresCostNoBcrypt: the same wrong user and password again, within the failure TTL,
// is answered from memory; after it, or for another password, bcrypt runs again.
func TestRepeatedFailuresCostNoBcrypt(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ user, password string }{{"alice", "wrong"}, {"nobody", "x"}, {"alice", ""}} {
		before := f.a.BcryptComparisons()
		for range 5 {
			assert.ErrorIs(t, f.a.Verify(c.user, c.password), auth.ErrBadCredentials)
		}
		assert.Equal(t, before+1, f.a.BcryptComparisons(), "%s: five tries of one wrong pair, one bcrypt", c.user)
	}
	before := f.a.BcryptComparisons()
	assert.ErrorIs(t, f.a.Verify("alice", "wrong "), auth.ErrBadCredentials)
	assert.ErrorIs(t, f.a.Verify("bob", "wrong"), auth.ErrBadCredentials)
	assert.Equal(t, before+2, f.a.BcryptComparisons(), "another password, or the password under another name, is a new check")
	require.NoError(t, f.a.Verify("alice", "alice-pw"), "remembered failures do not block the right password")

	f.now = f.now.Add(auth.DefaultFailureTTL)
	before = f.a.BcryptComparisons()
	assert.ErrorIs(t, f.a.Verify("alice", "wrong"), auth.ErrBadCredentials)
	assert.Equal(t, before+1, f.a.BcryptComparisons(), "after the TTL the failure is forgotten and checked again")
	assert.ErrorIs(t, f.a.Verify("alice", "wrong"), auth.ErrBadCredentials)
	assert.Equal(t, before+1, f.a.BcryptComparisons(), "and remembered again")
}

// TestFailureCacheIsBounded: with room for two failures, a third evicts the oldest.
func TestFailureCacheIsBounded(t *testing.T) {
	users, err := auth.ParseUsers(strings.NewReader("alice:" + hashOf(t, "alice-pw") + "\n"))
	require.NoError(t, err)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	a, err := auth.New(users, auth.Options{FailureCacheSize: 2, FailureTTL: time.Minute, Now: func() time.Time { return now }})
	require.NoError(t, err)
	tries := func(passwords ...string) uint64 {
		before := a.BcryptComparisons()
		for _, pw := range passwords {
			require.ErrorIs(t, a.Verify("alice", pw), auth.ErrBadCredentials)
		}
		return a.BcryptComparisons() - before
	}
	assert.Equal(t, uint64(2), tries("w1", "w2"))
	assert.Equal(t, uint64(0), tries("w1", "w2"), "both remembered")
	assert.Equal(t, uint64(1), tries("w3"), "a third, evicting w1")
	assert.Equal(t, uint64(0), tries("w2", "w3"))
	now = now.Add(30 * time.Second)
	assert.Equal(t, uint64(1), tries("w1"), "w1 was evicted, oldest first")
	assert.Equal(t, uint64(0), tries("w3", "w1"))
	now = now.Add(30 * time.Second) // w3 expired; w1 (added 30 s later) not yet
	assert.Equal(t, uint64(1), tries("w3"))
	assert.Equal(t, uint64(0), tries("w1", "w3"))
}

// TestPasswordsOver72BytesFail: bcrypt reads 72 bytes, so it would accept a 72-byte password with any
// suffix. Longer passwords must fail like wrong ones, and cheaply.
func TestPasswordsOver72BytesFail(t *testing.T) {
	long := strings.Repeat("p", auth.MaxPasswordBytes)
	users, err := auth.ParseUsers(strings.NewReader("long:" + hashOf(t, long) + "\n"))
	require.NoError(t, err)
	a, err := auth.New(users, auth.Options{})
	require.NoError(t, err)
	require.NoError(t, a.Verify("long", long), "exactly 72 bytes is a valid password")
	before := a.BcryptComparisons()
	for _, pw := range []string{long + "x", long + long, long + "p"} {
		assert.ErrorIs(t, a.Verify("long", pw), auth.ErrBadCredentials, "%d bytes", len(pw))
		assert.ErrorIs(t, a.VerifyToken(&auth.UsernameToken{Username: "long", Password: pw}), auth.ErrBadCredentials)
		assert.ErrorIs(t, a.Verify("nobody", pw), auth.ErrBadCredentials)
	}
	assert.Equal(t, before, a.BcryptComparisons(), "refused without bcrypt")
}

// TestBcryptRunsUnderItsLimit: no more than BcryptConcurrency comparisons run at once; a check that
// finds every slot taken for BcryptWait fails with ErrBusy; cached credentials need no slot.
func TestBcryptRunsUnderItsLimit(t *testing.T) {
	users := newFixture(t).a.Users()
	a, err := auth.New(users, auth.Options{BcryptConcurrency: 2, BcryptWait: 20 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, a.Verify("alice", "alice-pw"))

	var running, most atomic.Int64
	entered := make(chan struct{}, 100)
	release := make(chan struct{})
	a.SetCompare(func(hash, password []byte) error {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if n > 2 {
			return bcrypt.ErrMismatchedHashAndPassword // over the limit: fail the test below, do not hang it
		}
		entered <- struct{}{}
		<-release
		return bcrypt.CompareHashAndPassword(hash, password)
	})
	// Two users' checks take both slots (one user's checks would take turns: see
	// TestFloodOfOneUserDoesNotQueueOthers); a third user's must wait for a slot.
	results := make(chan error, 2)
	for _, name := range []string{"dave", "mallory"} {
		go func() { results <- a.Verify(name, "guess-1") }()
	}
	<-entered
	<-entered
	start := time.Now()
	assert.ErrorIs(t, a.Verify("erin", "guess-3"), auth.ErrBusy, "both slots taken")
	assert.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond, "it waited BcryptWait first")
	assert.ErrorIs(t, a.Verify("nobody", "x"), auth.ErrBusy, "an unknown user's dummy comparison takes a slot too")
	require.NoError(t, a.Verify("alice", "alice-pw"), "cached credentials need no slot")

	close(release)
	for range 2 {
		assert.ErrorIs(t, <-results, auth.ErrBadCredentials)
	}
	assert.Equal(t, int64(2), most.Load())

	// Many concurrent checks: never more than two at once, and with a long enough wait none is shed:
	// a check waiting for a slot gets the next one that frees.
	b, err := auth.New(users, auth.Options{BcryptConcurrency: 2, BcryptWait: 10 * time.Second})
	require.NoError(t, err)
	most.Store(0)
	b.SetCompare(func(hash, password []byte) error {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(time.Millisecond)
		return bcrypt.ErrMismatchedHashAndPassword
	})
	errs := make(chan error, 16)
	for i := range 16 {
		go func() { errs <- b.Verify(fmt.Sprint("user-", i%8), fmt.Sprint("w", i)) }()
	}
	for range 16 {
		assert.ErrorIs(t, <-errs, auth.ErrBadCredentials)
	}
	assert.Equal(t, int64(2), most.Load())
}

func TestVerifyCacheIsBounded(t *testing.T) {
	var file strings.Builder
	for _, n := range []string{"u1", "u2", "u3"} {
		file.WriteString(n + ":" + hashOf(t, n) + "\n")
	}
	users, err := auth.ParseUsers(strings.NewReader(file.String()))
	require.NoError(t, err)
	a, err := auth.New(users, auth.Options{CacheSize: 2})
	require.NoError(t, err)
	for _, n := range []string{"u1", "u2", "u3"} {
		require.NoError(t, a.Verify(n, n))
	}
	before := a.BcryptComparisons()
	for _, n := range []string{"u1", "u2", "u3"} {
		require.NoError(t, a.Verify(n, n))
	}
	assert.GreaterOrEqual(t, a.BcryptComparisons()-before, uint64(1), "with room for 2, one of 3 users was evicted")
}

func TestVerifyToken(t *testing.T) {
	nonce := []byte("0123456789abcdef")
	nonceB64 := base64.StdEncoding.EncodeToString(nonce)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	created := now.Add(-time.Minute).Format(time.RFC3339)
	digest := func(pw, created string) string { return auth.Digest(nonce, created, pw) }
	tests := []struct {
		name string
		tok  auth.UsernameToken
		want error
	}{
		{"text right", auth.UsernameToken{Username: "alice", Password: "alice-pw", PasswordType: auth.PasswordText}, nil},
		{"text without type", auth.UsernameToken{Username: "alice", Password: "alice-pw"}, nil},
		{"text wrong", auth.UsernameToken{Username: "alice", Password: "nope", PasswordType: auth.PasswordText}, auth.ErrBadCredentials},
		{"text unknown user", auth.UsernameToken{Username: "mallory", Password: "alice-pw"}, auth.ErrBadCredentials},
		{"text with fresh created", auth.UsernameToken{Username: "alice", Password: "alice-pw", Created: created, HasCreated: true}, nil},
		{"text with +00:00 created", auth.UsernameToken{Username: "alice", Password: "alice-pw", Created: "2026-11-21T11:59:00+00:00", HasCreated: true}, nil},
		{"text with stale created", auth.UsernameToken{Username: "alice", Password: "alice-pw", Created: now.Add(-6 * time.Minute).Format(time.RFC3339), HasCreated: true}, auth.ErrStale},
		{"text with future created", auth.UsernameToken{Username: "alice", Password: "alice-pw", Created: now.Add(6 * time.Minute).Format(time.RFC3339), HasCreated: true}, auth.ErrStale},
		{"text with created without zone", auth.UsernameToken{Username: "alice", Password: "alice-pw", Created: "2026-11-21T11:59:00", HasCreated: true}, auth.ErrMalformedToken},
		{"digest right", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", created), PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: created, HasCreated: true}, nil},
		{"digest with fractional created", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", "2026-11-21T11:59:00.123Z"), PasswordType: auth.PasswordDigest, Nonce: nonceB64, NonceEncoding: auth.EncodingBase64, HasNonce: true, Created: "2026-11-21T11:59:00.123Z", HasCreated: true}, nil},
		{"digest wrong password", auth.UsernameToken{Username: "dave", Password: digest("nope", created), PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: created, HasCreated: true}, auth.ErrBadCredentials},
		{"digest over another created", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", created), PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: now.Format(time.RFC3339), HasCreated: true}, auth.ErrBadCredentials},
		{"digest for a non-digest user", auth.UsernameToken{Username: "alice", Password: digest("alice-pw", created), PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: created, HasCreated: true}, auth.ErrBadCredentials},
		{"digest unknown user", auth.UsernameToken{Username: "mallory", Password: digest("dave-pw", created), PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: created, HasCreated: true}, auth.ErrBadCredentials},
		{"digest without nonce", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", created), PasswordType: auth.PasswordDigest, Created: created, HasCreated: true}, auth.ErrMalformedToken},
		{"digest without created", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", created), PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true}, auth.ErrMalformedToken},
		{"digest stale", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", "2026-11-21T11:50:00Z"), PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: "2026-11-21T11:50:00Z", HasCreated: true}, auth.ErrStale},
		{"digest future", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", "2026-11-21T12:10:00Z"), PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: "2026-11-21T12:10:00Z", HasCreated: true}, auth.ErrStale},
		{"digest bad base64 digest", auth.UsernameToken{Username: "dave", Password: "not base64!", PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: created, HasCreated: true}, auth.ErrMalformedToken},
		{"digest of wrong length", auth.UsernameToken{Username: "dave", Password: "AAAA", PasswordType: auth.PasswordDigest, Nonce: nonceB64, HasNonce: true, Created: created, HasCreated: true}, auth.ErrMalformedToken},
		{"bad base64 nonce", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", created), PasswordType: auth.PasswordDigest, Nonce: "%%%", HasNonce: true, Created: created, HasCreated: true}, auth.ErrMalformedToken},
		{"hex nonce encoding", auth.UsernameToken{Username: "dave", Password: digest("dave-pw", created), PasswordType: auth.PasswordDigest, Nonce: nonceB64, NonceEncoding: "urn:hex", HasNonce: true, Created: created, HasCreated: true}, auth.ErrMalformedToken},
		{"huge nonce", auth.UsernameToken{Username: "dave", Password: "x", PasswordType: auth.PasswordDigest, Nonce: strings.Repeat("A", 1000), HasNonce: true, Created: created, HasCreated: true}, auth.ErrMalformedToken},
		{"unknown password type", auth.UsernameToken{Username: "alice", Password: "alice-pw", PasswordType: "urn:plain"}, auth.ErrMalformedToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.now = now
			err := f.a.VerifyToken(&tt.tok)
			if tt.want == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tt.want)
			}
		})
	}
}

func TestVerifyTokenRefusesReplays(t *testing.T) {
	f := newFixture(t)
	created := f.now.Format(time.RFC3339)
	tok := func(nonce string, pw string) *auth.UsernameToken {
		n := []byte(nonce)
		return &auth.UsernameToken{Username: "dave", Password: auth.Digest(n, created, pw), PasswordType: auth.PasswordDigest,
			Nonce: base64.StdEncoding.EncodeToString(n), HasNonce: true, Created: created, HasCreated: true}
	}
	require.NoError(t, f.a.VerifyToken(tok("n1", "dave-pw")))
	assert.ErrorIs(t, f.a.VerifyToken(tok("n1", "dave-pw")), auth.ErrReplayed, "the same nonce again")
	assert.ErrorIs(t, f.a.VerifyToken(tok("n2", "wrong")), auth.ErrBadCredentials)
	require.NoError(t, f.a.VerifyToken(tok("n2", "dave-pw")), "a failed token's nonce is not remembered")

	text := &auth.UsernameToken{Username: "alice", Password: "alice-pw", Nonce: base64.StdEncoding.EncodeToString([]byte("t1")), HasNonce: true, Created: created, HasCreated: true}
	require.NoError(t, f.a.VerifyToken(text))
	assert.ErrorIs(t, f.a.VerifyToken(text), auth.ErrReplayed, "a PasswordText token with nonce and created is replay-checked too")

	// The cache holds 4; n1, n2, t1 are in it, and n3 fills it. Then dave, holding the most, gives up
	// his oldest nonce (n1) for each new one: n4, no newer than n1, is refused as stale (it could be
	// n1's replay for all the cache knows now), while alice's fresh token gets in.
	require.NoError(t, f.a.VerifyToken(tok("n3", "dave-pw")))
	assert.ErrorIs(t, f.a.VerifyToken(tok("n4", "dave-pw")), auth.ErrStale)
	f.now = f.now.Add(time.Second)
	created = f.now.Format(time.RFC3339)
	text.Nonce, text.Created = base64.StdEncoding.EncodeToString([]byte("t2")), created
	require.NoError(t, f.a.VerifyToken(text), "another user's fresh token")
	require.NoError(t, f.a.VerifyToken(tok("n5", "dave-pw")), "a newer token of dave's")
	assert.ErrorIs(t, f.a.VerifyToken(tok("n5", "dave-pw")), auth.ErrReplayed)

	// Once the window has passed, the old nonces are forgotten: n1 is stale as a token, and the cache
	// has room again for fresh ones.
	f.now = f.now.Add(6 * time.Minute)
	assert.ErrorIs(t, f.a.VerifyToken(tok("n1", "dave-pw")), auth.ErrStale)
	created = f.now.Format(time.RFC3339)
	require.NoError(t, f.a.VerifyToken(tok("n4", "dave-pw")))
}

// TestReplayCacheFloodByOneUser: one user filling the replay cache, with Created at the future edge of
// the window so its nonces outlive everyone else's, neither locks other users out nor gets any of its
// own tokens accepted twice.
func TestReplayCacheFloodByOneUser(t *testing.T) {
	f := newFixture(t) // replay cache of 4
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	flood := func(i int) *auth.UsernameToken { // alice: PasswordText with nonce and created, cached bcrypt
		created := f.now.Add(5 * time.Minute).Format(time.RFC3339Nano)
		return &auth.UsernameToken{Username: "alice", Password: "alice-pw", Nonce: b64(fmt.Sprint("flood-", i)), HasNonce: true, Created: created, HasCreated: true}
	}
	fresh := func(i int) *auth.UsernameToken { // dave: a digest token created now
		created := f.now.Format(time.RFC3339Nano)
		n := []byte(fmt.Sprint("dave-", i))
		return &auth.UsernameToken{Username: "dave", Password: auth.Digest(n, created, "dave-pw"), PasswordType: auth.PasswordDigest,
			Nonce: base64.StdEncoding.EncodeToString(n), HasNonce: true, Created: created, HasCreated: true}
	}
	var sent []*auth.UsernameToken
	for i := range 1000 {
		f.now = f.now.Add(time.Millisecond)
		tok := flood(i)
		if err := f.a.VerifyToken(tok); err == nil {
			sent = append(sent, tok)
		}
		if i%100 == 0 {
			require.NoError(t, f.a.VerifyToken(fresh(i)), "dave's fresh token %d during the flood", i)
		}
	}
	assert.Len(t, sent, 1000, "a flooder sending increasing Created times is not refused either")
	for i := range 3 {
		f.now = f.now.Add(time.Millisecond)
		require.NoError(t, f.a.VerifyToken(fresh(1000+i)), "dave's fresh token after the flood")
	}
	for i, tok := range sent {
		err := f.a.VerifyToken(tok)
		require.Error(t, err, "flood token %d accepted twice", i)
		assert.True(t, errors.Is(err, auth.ErrReplayed) || errors.Is(err, auth.ErrStale), "%v", err)
	}
	assert.ErrorIs(t, f.a.VerifyToken(fresh(1002)), auth.ErrReplayed, "dave's own replay is still caught")
}

func TestDigestComparesInConstantTime(t *testing.T) {
	f := newFixture(t)
	var compares atomic.Int64
	f.a.SetEqual(func(a, b []byte) bool { compares.Add(1); return subtle.ConstantTimeCompare(a, b) == 1 })
	created := f.now.Format(time.RFC3339)
	for _, user := range []string{"dave", "alice", "nobody"} {
		_ = f.a.VerifyToken(&auth.UsernameToken{Username: user, Password: auth.Digest([]byte(user), created, "dave-pw"), PasswordType: auth.PasswordDigest,
			Nonce: base64.StdEncoding.EncodeToString([]byte(user)), HasNonce: true, Created: created, HasCreated: true})
	}
	assert.Equal(t, int64(3), compares.Load(), "each digest, for a digest user, a text-only user or an unknown one, is compared constant-time")
}

func TestErrorsDoNotTellUsersApart(t *testing.T) {
	f := newFixture(t)
	wrong, unknown := f.a.Verify("alice", "x"), f.a.Verify("nobody", "x")
	assert.True(t, errors.Is(wrong, auth.ErrBadCredentials) && errors.Is(unknown, auth.ErrBadCredentials))
	assert.Equal(t, wrong.Error(), unknown.Error())
}

// BenchmarkVerifyCached is the per-request cost of HTTP Basic or PasswordText with credentials the
// cache already holds.
func BenchmarkVerifyCached(b *testing.B) {
	f := newFixture(b)
	require.NoError(b, f.a.Verify("alice", "alice-pw"))
	b.ReportAllocs()
	for b.Loop() {
		if err := f.a.Verify("alice", "alice-pw"); err != nil {
			b.Fatal(err)
		}
	}
}
