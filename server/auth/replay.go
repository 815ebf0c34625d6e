package auth

import (
	"container/heap"
	"sync"
	"time"
)

// nonceCache remembers the nonces of accepted tokens until a token carrying them would be stale, so a
// token cannot be accepted twice. Replay protection is therefore per process: instances behind a load
// balancer do not share it.
//
// The cache is bounded (max nonces, all users together), and full or not it never lets a replay
// through and never makes one user's tokens fail because of another's. Only tokens that verified are
// remembered, so only users with valid credentials can add nonces. Each user's nonces are kept apart,
// ordered by when they expire. When the cache is full, the user holding the most nonces forgets its
// oldest one (the one expiring first) and raises its floor to that expiry: from then on, that user's
// tokens that would expire at or before the floor are refused as stale, since their nonce may have
// been forgotten. So:
//
//   - A user flooding the cache (even with Created at the future edge of the window, which makes its
//     nonces live longest) only ever evicts its own nonces and refuses its own older tokens.
//   - A user adding a nonce gives up one of its own only when it holds strictly more than every other
//     user; otherwise the largest other user does. In particular a user holding at most max/users
//     nonces (users: those with live nonces) is never refused for lack of room, whatever the others
//     send: its fresh token always gets in.
//   - A user sending tokens with increasing Created times (every ordinary client) is never refused
//     even when it is the one giving up nonces: only tokens older than its newest evicted one are.
//
// Every operation is O(log n) in the user's nonces, plus, when the cache is full, a pass over the users
// with live nonces to find the largest (their number is bounded by the users file).
type nonceCache struct {
	mu    sync.Mutex
	max   int
	total int
	users map[string]*userNonces
}

// userNonces is one user's remembered nonces.
type userNonces struct {
	seen     map[string]time.Time // nonce -> the last instant a token carrying it is fresh
	byExpiry expiryHeap
	// floor is the latest expiry among the user's evicted nonces: a token of this user expiring at or
	// before it might carry one of them, so it is refused.
	floor time.Time
}

type nonceEntry struct {
	nonce   string
	expires time.Time
}

// expiryHeap is a min-heap of nonces by expiry (container/heap).
type expiryHeap []nonceEntry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].expires.Before(h[j].expires) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(nonceEntry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nonceEntry{}
	*h = old[:len(old)-1]
	return e
}

func newNonceCache(max int) *nonceCache {
	return &nonceCache{max: max, users: map[string]*userNonces{}}
}

// add records user's nonce until expires. It returns ErrReplayed for a nonce the user already used
// within the window, ErrStale for a token expiring no later than the user's floor (see nonceCache).
func (c *nonceCache) add(user, nonce string, expires, now time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.users[user]
	if u == nil {
		u = &userNonces{seen: map[string]time.Time{}}
		c.users[user] = u
	}
	c.purge(u, now)
	if until, ok := u.seen[nonce]; ok && !now.After(until) { // inclusive, as the Created window is
		return ErrReplayed
	}
	if !expires.After(u.floor) {
		return ErrStale
	}
	if c.total >= c.max {
		c.evictFromLargest(u, now)
		c.users[user] = u            // in case the pass dropped it while empty
		if !expires.After(u.floor) { // u was the largest, and this token is no newer than what it gave up
			return ErrStale
		}
	}
	u.seen[nonce] = expires
	heap.Push(&u.byExpiry, nonceEntry{nonce: nonce, expires: expires})
	c.total++
	return nil
}

// purge forgets u's nonces whose tokens are stale by now.
func (c *nonceCache) purge(u *userNonces, now time.Time) {
	for len(u.byExpiry) > 0 && now.After(u.byExpiry[0].expires) {
		e := heap.Pop(&u.byExpiry).(nonceEntry)
		delete(u.seen, e.nonce)
		c.total--
	}
}

// evictFromLargest purges every user's expired nonces and, if the cache is still full, makes the user
// holding the most nonces forget its oldest, raising that user's floor. On a tie, self (the user
// adding a nonce) is spared: it gives up a nonce only when it holds strictly more than every other.
// Users left with no nonce and no floor that matters any more are dropped, so the map stays bounded
// by the users with live nonces.
func (c *nonceCache) evictFromLargest(self *userNonces, now time.Time) {
	var largest *userNonces
	for name, u := range c.users {
		c.purge(u, now)
		if len(u.byExpiry) == 0 && now.After(u.floor) {
			delete(c.users, name)
			continue
		}
		if largest == nil || len(u.byExpiry) > len(largest.byExpiry) ||
			(len(u.byExpiry) == len(largest.byExpiry) && largest == self) {
			largest = u
		}
	}
	if c.total < c.max || largest == nil || len(largest.byExpiry) == 0 {
		return
	}
	e := heap.Pop(&largest.byExpiry).(nonceEntry)
	delete(largest.seen, e.nonce)
	c.total--
	if e.expires.After(largest.floor) {
		largest.floor = e.expires
	}
}
