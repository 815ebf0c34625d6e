package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"hash"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// The errors Verify and VerifyToken return. The server maps them to its error codes and messages;
// none of them says whether the user exists.
var (
	// ErrBadCredentials: unknown user, wrong password, or a PasswordDigest from a user who has not
	// opted in to it. One error for all, so a caller cannot tell them apart.
	ErrBadCredentials = errors.New("the credentials are not valid")
	// ErrMalformedToken: the UsernameToken is not one this service can check (bad Base64, unknown
	// password type or nonce encoding, missing nonce or created time for a digest, bad time format).
	ErrMalformedToken = errors.New("the UsernameToken is malformed")
	// ErrStale: the token's Created time is outside the allowed window around now.
	ErrStale = errors.New("the UsernameToken's Created time is outside the allowed window")
	// ErrReplayed: the token's nonce was already used within the window.
	ErrReplayed = errors.New("the UsernameToken's nonce was already used")
	// ErrBusy: the replay cache is full of unexpired nonces; refusing is safer than forgetting one.
	ErrBusy = errors.New("too many recent UsernameTokens to remember")
)

// DefaultMaxClockSkew is the default window around now for a UsernameToken's Created time.
const DefaultMaxClockSkew = 5 * time.Minute

// Options tunes an Authenticator; zero fields take their defaults.
type Options struct {
	// MaxClockSkew bounds how far a token's Created time may be from now, in either direction; a
	// nonce is remembered for as long as a token carrying it would be accepted.
	MaxClockSkew time.Duration
	// CacheSize bounds the verified-credentials cache (entries, one per user); default 10000.
	CacheSize int
	// NonceCacheSize bounds the replay cache (nonces within the window); default 100000.
	NonceCacheSize int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Authenticator verifies credentials against a users file. It is safe for concurrent use.
//
// bcrypt is deliberately slow (tens of milliseconds at the default cost), which would cap a server at
// a few dozen authenticated requests per second per core and turn every request into a CPU-exhaustion
// lever. So a successful verification is remembered: per user, the HMAC-SHA256 of the password under
// a random key made when the process starts. A later request with the same user and password costs one
// HMAC and a constant-time comparison (microseconds). Only successes are cached: a wrong password
// always pays bcrypt, so guessing stays slow. The cache lives in memory only, holds no password and no
// hash, and is bounded (Options.CacheSize).
type Authenticator struct {
	users     *Users
	skew      time.Duration
	now       func() time.Time
	dummyHash []byte

	macKey   [32]byte
	macPool  sync.Pool // of *macState: an HMAC keyed with macKey and a scratch buffer, reused
	cacheMu  sync.RWMutex
	verified map[string][sha256.Size]byte
	cacheMax int

	nonces *nonceCache

	// bcryptCalls counts bcrypt comparisons, so tests (and operators, through metrics) can see that
	// the cache works.
	bcryptCalls atomic.Uint64
	// equal compares secrets; always constant-time (crypto/subtle). A field so tests can observe it.
	equal func(a, b []byte) bool
}

// New returns an Authenticator for users.
func New(users *Users, opts Options) (*Authenticator, error) {
	if opts.MaxClockSkew <= 0 {
		opts.MaxClockSkew = DefaultMaxClockSkew
	}
	if opts.CacheSize <= 0 {
		opts.CacheSize = 10000
	}
	if opts.NonceCacheSize <= 0 {
		opts.NonceCacheSize = 100000
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	a := &Authenticator{
		users:    users,
		skew:     opts.MaxClockSkew,
		now:      opts.Now,
		verified: map[string][sha256.Size]byte{},
		cacheMax: opts.CacheSize,
		nonces:   &nonceCache{seen: map[string]time.Time{}, max: opts.NonceCacheSize},
		equal:    func(a, b []byte) bool { return subtle.ConstantTimeCompare(a, b) == 1 },
	}
	if _, err := rand.Read(a.macKey[:]); err != nil {
		return nil, err
	}
	a.macPool.New = func() any { return &macState{h: hmac.New(sha256.New, a.macKey[:])} }
	// An unknown user is compared against this hash, so that answering "no" costs as much as for a
	// known user with a wrong password. Its cost is the highest among the users, so the slowest real
	// comparison is matched.
	cost := bcrypt.DefaultCost
	if users.Len() > 0 {
		cost = bcrypt.MinCost
		for _, u := range users.byName {
			if c, err := bcrypt.Cost(u.Hash); err == nil && c > cost {
				cost = c
			}
		}
	}
	var random [16]byte
	_, _ = rand.Read(random[:])
	dummy, err := bcrypt.GenerateFromPassword(random[:], cost)
	if err != nil {
		return nil, err
	}
	a.dummyHash = dummy
	return a, nil
}

// Users returns the users the Authenticator checks against.
func (a *Authenticator) Users() *Users { return a.users }

// MaxClockSkew returns the allowed window for a token's Created time.
func (a *Authenticator) MaxClockSkew() time.Duration { return a.skew }

// BcryptComparisons returns how many bcrypt comparisons have run, dummy ones included.
func (a *Authenticator) BcryptComparisons() uint64 { return a.bcryptCalls.Load() }

// Verify checks a user name and password (HTTP Basic, or a PasswordText UsernameToken). It returns
// nil or ErrBadCredentials.
func (a *Authenticator) Verify(name, password string) error {
	u := a.users.Lookup(name)
	if u == nil {
		a.bcryptCalls.Add(1)
		_ = bcrypt.CompareHashAndPassword(a.dummyHash, []byte(password))
		return ErrBadCredentials
	}
	mac := a.mac(name, password)
	a.cacheMu.RLock()
	cached, ok := a.verified[name]
	a.cacheMu.RUnlock()
	if ok && a.equal(cached[:], mac[:]) {
		return nil
	}
	a.bcryptCalls.Add(1)
	if bcrypt.CompareHashAndPassword(u.Hash, []byte(password)) != nil {
		return ErrBadCredentials
	}
	a.cacheMu.Lock()
	if _, present := a.verified[name]; !present && len(a.verified) >= a.cacheMax {
		for victim := range a.verified { // any entry: map order is random enough for a bound
			delete(a.verified, victim)
			break
		}
	}
	a.verified[name] = mac
	a.cacheMu.Unlock()
	return nil
}

// mac keys the verified cache: HMAC-SHA256 of the user name and password under the process's random
// key, so the cache holds nothing an attacker reading memory dumps could use offline without the key.
// The HMAC state is pooled, as this runs on every authenticated request.
func (a *Authenticator) mac(name, password string) [sha256.Size]byte {
	m := a.macPool.Get().(*macState)
	m.h.Reset()
	m.buf = append(append(append(m.buf[:0], name...), 0), password...)
	m.h.Write(m.buf)
	var out [sha256.Size]byte
	m.h.Sum(out[:0])
	clear(m.buf) // the password does not stay in the pool
	a.macPool.Put(m)
	return out
}

type macState struct {
	h   hash.Hash
	buf []byte
}

// nonceCache remembers the nonces of accepted tokens until a token carrying them would be stale.
// Replay protection is therefore per process: instances behind a load balancer do not share it.
type nonceCache struct {
	mu   sync.Mutex
	seen map[string]time.Time // nonce -> the last instant a token carrying it is fresh; forgotten after
	max  int
}

// add records nonce until expires. It returns ErrReplayed for a nonce already remembered, ErrBusy when
// the cache is full of unexpired nonces.
func (c *nonceCache) add(nonce string, expires, now time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if until, ok := c.seen[nonce]; ok && !now.After(until) { // inclusive, as the Created window is
		return ErrReplayed
	}
	if len(c.seen) >= c.max {
		for n, until := range c.seen {
			if now.After(until) {
				delete(c.seen, n)
			}
		}
		if len(c.seen) >= c.max {
			return ErrBusy
		}
	}
	c.seen[nonce] = expires
	return nil
}
