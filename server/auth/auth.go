package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"hash"
	"runtime"
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
	// ErrBusy: the credentials cannot be checked now, and the caller should retry shortly: every
	// bcrypt slot stayed taken for Options.BcryptWait. The server answers it with Unavailable (503).
	ErrBusy = errors.New("too many credential checks at once")
)

// DefaultMaxClockSkew is the default window around now for a UsernameToken's Created time.
const DefaultMaxClockSkew = 5 * time.Minute

// MaxPasswordBytes is the longest password that can match: bcrypt reads only the first 72 bytes, so a
// longer password would match any other sharing those 72 bytes. `user add` refuses longer passwords,
// and Verify fails them like a wrong password. (Pre-hashing the password would lift the limit but break
// users files written by `htpasswd -B`, which hashes the password as it is.)
const MaxPasswordBytes = 72

// DefaultBcryptConcurrency is half the CPUs Go uses (GOMAXPROCS, which follows a container's CPU
// limit), at least one: a flood of new passwords can then take at most half the machine, and the other
// half stays with the callers whose credentials are cached, who need no bcrypt at all. More slots would
// not check passwords faster anyway, only queue them for the same cores while they hold request slots.
func DefaultBcryptConcurrency() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// The defaults of the bcrypt admission and the failure cache (see Options). The wait lets a burst of
// first logins (a few clients starting together) queue for the slots rather than fail, while a flood
// is shed within a quarter of a second; how long flooding connections wait hardly changes how many
// request slots they hold, since each sends its next request as soon as it is answered.
const (
	DefaultBcryptWait       = 250 * time.Millisecond
	DefaultFailureCacheSize = 10000
	DefaultFailureTTL       = time.Minute
)

// Options tunes an Authenticator; zero fields take their defaults.
type Options struct {
	// MaxClockSkew bounds how far a token's Created time may be from now, in either direction; a
	// nonce is remembered for as long as a token carrying it would be accepted.
	MaxClockSkew time.Duration
	// CacheSize bounds the verified-credentials cache (entries, one per user); default 10000.
	CacheSize int
	// NonceCacheSize bounds the replay cache (nonces within the window, all users together); default
	// 100000. When it is full, the user holding the most nonces gives up its oldest (see replay.go).
	NonceCacheSize int
	// BcryptConcurrency bounds the bcrypt comparisons running at once; default DefaultBcryptConcurrency.
	BcryptConcurrency int
	// BcryptWait is how long a check waits for a bcrypt slot before failing with ErrBusy; default
	// DefaultBcryptWait.
	BcryptWait time.Duration
	// FailureCacheSize bounds the failed-credentials cache (entries); default DefaultFailureCacheSize.
	FailureCacheSize int
	// FailureTTL is how long a failed user and password pair is remembered; default DefaultFailureTTL.
	FailureTTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Authenticator verifies credentials against a users file. It is safe for concurrent use.
//
// bcrypt is deliberately slow (tens of milliseconds at the default cost), which would cap a server at
// a few dozen authenticated requests per second per core and turn every request into a CPU-exhaustion
// lever. So a successful verification is remembered: per user, the HMAC-SHA256 of the password under
// a random key made when the process starts. A later request with the same user and password costs one
// HMAC and a constant-time comparison (microseconds). The cache lives in memory only, holds no password
// and no hash, and is bounded (Options.CacheSize).
//
// Wrong passwords are bounded too, as they would otherwise be the cheapest way to burn the CPU:
//
//   - A failure is remembered briefly (Options.FailureTTL), keyed by the same HMAC of the name and
//     password, so a client retrying the same wrong credentials costs one HMAC, not one bcrypt. A
//     guess is still a bcrypt: only an exact repeat is answered from memory.
//   - Every bcrypt comparison, the dummy one for unknown users included, takes one of a few slots
//     (Options.BcryptConcurrency, half the cores by default); a check that finds none free within
//     Options.BcryptWait fails with ErrBusy. A flood of new wrong passwords thus occupies at most
//     those cores and is shed, while credentials already cached need no slot at all and keep the
//     other cores.
//   - Each user name gets one comparison at a time (turns): a flood of guesses for one user waits
//     behind itself, so other users' first logins are not queued behind it.
//   - A password longer than MaxPasswordBytes fails at once, without bcrypt.
type Authenticator struct {
	// users is swapped whole by SetUsers (a reload of the users file), so a check reads one
	// consistent file with a single atomic load.
	users     atomic.Pointer[Users]
	skew      time.Duration
	now       func() time.Time
	dummyHash []byte

	macKey   [32]byte
	macPool  sync.Pool // of *macState: an HMAC keyed with macKey and a scratch buffer, reused
	cacheMu  sync.RWMutex
	verified map[string][sha256.Size]byte
	cacheMax int

	nonces *nonceCache

	failures *failureCache

	// turns lets one comparison per user name wait for or hold a bcrypt slot at a time.
	turns turns
	// bcryptSlots holds one token per bcrypt comparison running; its capacity is the limit.
	bcryptSlots chan struct{}
	bcryptWait  time.Duration
	// compare is bcrypt.CompareHashAndPassword; a field so tests can hold a comparison in progress.
	compare func(hash, password []byte) error

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
	if opts.BcryptConcurrency <= 0 {
		opts.BcryptConcurrency = DefaultBcryptConcurrency()
	}
	if opts.BcryptWait <= 0 {
		opts.BcryptWait = DefaultBcryptWait
	}
	if opts.FailureCacheSize <= 0 {
		opts.FailureCacheSize = DefaultFailureCacheSize
	}
	if opts.FailureTTL <= 0 {
		opts.FailureTTL = DefaultFailureTTL
	}
	a := &Authenticator{
		skew:        opts.MaxClockSkew,
		now:         opts.Now,
		verified:    map[string][sha256.Size]byte{},
		cacheMax:    opts.CacheSize,
		nonces:      newNonceCache(opts.NonceCacheSize),
		failures:    newFailureCache(opts.FailureCacheSize, opts.FailureTTL),
		turns:       turns{byName: map[string]*turn{}},
		bcryptSlots: make(chan struct{}, opts.BcryptConcurrency),
		bcryptWait:  opts.BcryptWait,
		compare:     bcrypt.CompareHashAndPassword,
		equal:       func(a, b []byte) bool { return subtle.ConstantTimeCompare(a, b) == 1 },
	}
	if _, err := rand.Read(a.macKey[:]); err != nil {
		return nil, err
	}
	a.users.Store(users)
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
func (a *Authenticator) Users() *Users { return a.users.Load() }

// SetUsers replaces the users checked against, as a reload of the users file does: checks that
// start afterwards see only the new users, and the remembered outcomes of earlier checks are
// forgotten, so a removed user or a changed password is refused at once and a user just added is not
// refused for a failure remembered from before. A check running across the swap finishes against the
// users it started with, and its success is not remembered. The dummy hash keeps the cost New chose.
func (a *Authenticator) SetUsers(users *Users) {
	a.cacheMu.Lock()
	a.users.Store(users)
	clear(a.verified)
	a.cacheMu.Unlock()
	a.failures.clear()
}

// MaxClockSkew returns the allowed window for a token's Created time.
func (a *Authenticator) MaxClockSkew() time.Duration { return a.skew }

// BcryptConcurrency returns the most bcrypt comparisons that run at once.
func (a *Authenticator) BcryptConcurrency() int { return cap(a.bcryptSlots) }

// BcryptComparisons returns how many bcrypt comparisons have run, dummy ones included.
func (a *Authenticator) BcryptComparisons() uint64 { return a.bcryptCalls.Load() }

// Verify checks a user name and password (HTTP Basic, or a PasswordText UsernameToken). It returns
// nil, ErrBadCredentials, or ErrBusy when its turn or a bcrypt slot did not come within BcryptWait.
func (a *Authenticator) Verify(name, password string) error {
	if len(password) > MaxPasswordBytes {
		// No password this long can be in the file (see MaxPasswordBytes); failing at once reveals
		// nothing, as it does not depend on the user.
		return ErrBadCredentials
	}
	mac := a.mac(name, password)
	users := a.users.Load()
	u := users.Lookup(name)
	if u != nil && a.cachedSuccess(name, mac) {
		return nil
	}
	if a.failures.contains(mac, a.now()) {
		return ErrBadCredentials
	}
	// One comparison per user name at a time (turns): a flood of guesses for one user queues behind
	// itself, and a check for any other user waits at most for the comparisons running, never for
	// the flood's queue. BcryptWait bounds the wait for the turn and the slot together.
	deadline := time.NewTimer(a.bcryptWait)
	defer deadline.Stop()
	release, ok := a.turns.take(name, deadline.C)
	if !ok {
		return ErrBusy
	}
	defer release()
	// While this check waited for its turn, another with the same credentials may have settled them
	// (a client opening several connections at once with a first login): its verdict stands.
	if u != nil && a.cachedSuccess(name, mac) {
		return nil
	}
	now := a.now()
	if a.failures.contains(mac, now) {
		return ErrBadCredentials
	}
	// An unknown user is compared against the dummy hash, so that answering "no" costs as much as for
	// a known user with a wrong password.
	hash := a.dummyHash
	if u != nil {
		hash = u.Hash
	}
	if err := a.bcrypt(hash, password, deadline.C); err != nil || u == nil {
		if errors.Is(err, ErrBusy) {
			return err
		}
		if a.users.Load() == users { // not a failure against users a reload has replaced
			a.failures.add(mac, now)
		}
		return ErrBadCredentials
	}
	a.cacheMu.Lock()
	defer a.cacheMu.Unlock()
	if a.users.Load() != users {
		return nil // verified against the users of the time; the new ones check it afresh next time
	}
	if _, present := a.verified[name]; !present && len(a.verified) >= a.cacheMax {
		for victim := range a.verified { // any entry: map order is random enough for a bound
			delete(a.verified, victim)
			break
		}
	}
	a.verified[name] = mac
	return nil
}

// cachedSuccess reports whether name's last verified password has this mac.
func (a *Authenticator) cachedSuccess(name string, mac [sha256.Size]byte) bool {
	a.cacheMu.RLock()
	cached, ok := a.verified[name]
	a.cacheMu.RUnlock()
	return ok && a.equal(cached[:], mac[:])
}

// bcrypt compares password with hash in one of the bcrypt slots. It waits until deadline fires for a
// slot and returns ErrBusy if none came free; otherwise the comparison's result.
func (a *Authenticator) bcrypt(hash []byte, password string, deadline <-chan time.Time) error {
	select {
	case a.bcryptSlots <- struct{}{}:
	default:
		select {
		case a.bcryptSlots <- struct{}{}:
		case <-deadline:
			return ErrBusy
		}
	}
	defer func() { <-a.bcryptSlots }()
	a.bcryptCalls.Add(1)
	return a.compare(hash, []byte(password))
}

// turns gives each user name one bcrypt comparison at a time. Without them, the waiters for the bcrypt
// slots form one queue (a channel's senders are served in order), so a flood of wrong passwords for
// one user puts every other user's first login behind the whole flood: 64 flooding connections made
// first logins wait past BcryptWait and fail with 503. With them, at most one check per user name waits
// for a slot, so a first login waits for the comparisons running, at most one per other user, and a
// flood of guesses for one name is held to one comparison at a time.
type turns struct {
	mu sync.Mutex
	// byName holds a turn for each name that has a check taking or holding it; a name's entry is
	// removed when its last check leaves, so the map is bounded by the checks in progress.
	byName map[string]*turn
}

type turn struct {
	token chan struct{} // capacity 1: full while a check of the name holds its turn
	users int           // checks holding or waiting for the turn
}

// take waits for name's turn until deadline fires. It returns the function that gives the turn back,
// or false when the deadline came first.
func (t *turns) take(name string, deadline <-chan time.Time) (release func(), ok bool) {
	t.mu.Lock()
	tn := t.byName[name]
	if tn == nil {
		tn = &turn{token: make(chan struct{}, 1)}
		t.byName[name] = tn
	}
	tn.users++
	t.mu.Unlock()
	leave := func() {
		t.mu.Lock()
		if tn.users--; tn.users == 0 {
			delete(t.byName, name)
		}
		t.mu.Unlock()
	}
	select {
	case tn.token <- struct{}{}:
	case <-deadline:
		leave()
		return nil, false
	}
	return func() {
		<-tn.token
		leave()
	}, true
}

// mac keys the verified and the failure cache: HMAC-SHA256 of the user name and password under the process's random
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

// failureCache remembers recently failed credentials, as HMACs of the name and password (never the
// password), each for ttl. Entries expire in the order they were added, since ttl is the same for all,
// so a ring of keys in insertion order finds both the expired entries and, when the cache is full, the
// oldest one to evict: memory is bounded by max entries, and every operation is O(1).
type failureCache struct {
	mu      sync.Mutex
	ttl     time.Duration
	expires map[[sha256.Size]byte]time.Time
	ring    [][sha256.Size]byte // insertion order, starting at head; len(expires) entries in use
	head    int
}

func newFailureCache(max int, ttl time.Duration) *failureCache {
	return &failureCache{ttl: ttl, expires: make(map[[sha256.Size]byte]time.Time, max), ring: make([][sha256.Size]byte, max)}
}

// contains reports whether key failed within the last ttl.
func (c *failureCache) contains(key [sha256.Size]byte, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	until, ok := c.expires[key]
	return ok && now.Before(until)
}

// add remembers key as failed until now + ttl, forgetting expired entries and, if the cache is still
// full, the oldest one.
func (c *failureCache) add(key [sha256.Size]byte, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.expires) > 0 && !now.Before(c.expires[c.ring[c.head]]) {
		c.evictOldest()
	}
	if _, present := c.expires[key]; present {
		return // two concurrent checks of the same credentials; one entry is enough
	}
	if len(c.expires) == len(c.ring) {
		c.evictOldest()
	}
	c.ring[(c.head+len(c.expires))%len(c.ring)] = key
	c.expires[key] = now.Add(c.ttl)
}

// clear forgets every failure.
func (c *failureCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.expires)
	c.head = 0
}

func (c *failureCache) evictOldest() {
	delete(c.expires, c.ring[c.head])
	c.head = (c.head + 1) % len(c.ring)
}
