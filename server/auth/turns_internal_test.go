package auth

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
)

// heldComparisons replaces a's bcrypt comparison with one that records which password it was given
// and blocks until released, so a test decides when each comparison ends. Every comparison fails.
type heldComparisons struct {
	mu      sync.Mutex
	started []string
	release chan struct{}
}

func holdComparisons(a *Authenticator) *heldComparisons {
	h := &heldComparisons{release: make(chan struct{})}
	a.compare = func(_, password []byte) error {
		h.mu.Lock()
		h.started = append(h.started, string(password))
		h.mu.Unlock()
		<-h.release
		return bcrypt.ErrMismatchedHashAndPassword
	}
	return h
}

func (h *heldComparisons) startedSoFar() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.started...)
}

// waitFor polls cond until it holds, failing the test after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(100 * time.Microsecond) {
		require.True(t, time.Now().Before(deadline), "waiting for %s", what)
	}
}

// checksOf returns how many checks of name hold or wait for its turn.
func (a *Authenticator) checksOf(name string) int {
	a.turns.mu.Lock()
	defer a.turns.mu.Unlock()
	if tn := a.turns.byName[name]; tn != nil {
		return tn.users
	}
	return 0
}

func turnUsers(t *testing.T) *Users {
	t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	require.NoError(t, err)
	users, err := ParseUsers(strings.NewReader("alice:" + string(hash) + "\nbob:" + string(hash) + "\n"))
	require.NoError(t, err)
	return users
}

// TestFloodOfOneUserDoesNotQueueOthers: with one bcrypt slot, while a flood of wrong passwords for
// alice is checked, bob's first login is the next comparison to run, not the last after the whole
// flood: each user name gets one comparison at a time. Without the turns, the checks waiting for the
// slot form one first-come queue and bob's comes after every one of alice's.
func TestFloodOfOneUserDoesNotQueueOthers(t *testing.T) {
	a, err := New(turnUsers(t), Options{BcryptConcurrency: 1, BcryptWait: time.Minute})
	require.NoError(t, err)
	held := holdComparisons(a)
	var wg sync.WaitGroup
	verify := func(name, password string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.ErrorIs(t, a.Verify(name, password), ErrBadCredentials)
		}()
	}
	verify("alice", "guess-0")
	waitFor(t, "the first comparison", func() bool { return len(held.startedSoFar()) == 1 })
	for i := 1; i <= 5; i++ {
		verify("alice", "guess-"+string(rune('0'+i)))
	}
	waitFor(t, "alice's guesses to queue", func() bool { return a.checksOf("alice") == 6 })
	verify("bob", "bob-guess")
	waitFor(t, "bob's check to queue", func() bool { return a.checksOf("bob") == 1 })
	// Give bob's check time to reach the slot's queue before the running comparison ends.
	time.Sleep(20 * time.Millisecond)

	held.release <- struct{}{} // alice's first guess ends
	waitFor(t, "the second comparison", func() bool { return len(held.startedSoFar()) == 2 })
	assert.Equal(t, "bob-guess", held.startedSoFar()[1], "bob's first login runs next, before alice's queued guesses")
	close(held.release)
	wg.Wait()
	assert.Zero(t, a.checksOf("alice")+a.checksOf("bob"), "a name's turn is forgotten when its last check leaves")
	assert.Empty(t, a.turns.byName)
}

// TestConcurrentChecksOfTheSameCredentialsShareOneComparison: several connections opened at once with
// the same new credentials (a client starting up) cost one bcrypt comparison, not one each: the checks
// waiting for the name's turn find the first one's verdict when they get it.
func TestConcurrentChecksOfTheSameCredentialsShareOneComparison(t *testing.T) {
	for _, tc := range []struct {
		name, password string
		want           error
	}{{"right password", "pw", nil}, {"wrong password", "nope", ErrBadCredentials}} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := New(turnUsers(t), Options{BcryptWait: time.Minute})
			require.NoError(t, err)
			gate := make(chan struct{})
			a.compare = func(hash, password []byte) error {
				<-gate
				return bcrypt.CompareHashAndPassword(hash, password)
			}
			const clients = 8
			errs := make(chan error, clients)
			for range clients {
				go func() { errs <- a.Verify("alice", tc.password) }()
			}
			waitFor(t, "every check to start", func() bool { return a.checksOf("alice") == clients })
			close(gate)
			for range clients {
				err := <-errs
				assert.True(t, errors.Is(err, tc.want) || err == tc.want, "verdict %v", err)
			}
			assert.EqualValues(t, 1, a.BcryptComparisons(), "one comparison for all the checks")
		})
	}
}

// TestTurnWaitIsBounded: a check that cannot get its user's turn within BcryptWait is busy, not
// refused, and leaves nothing behind.
func TestTurnWaitIsBounded(t *testing.T) {
	a, err := New(turnUsers(t), Options{BcryptConcurrency: 4, BcryptWait: 20 * time.Millisecond})
	require.NoError(t, err)
	held := holdComparisons(a)
	done := make(chan error, 1)
	go func() { done <- a.Verify("alice", "guess-0") }()
	waitFor(t, "the first comparison", func() bool { return len(held.startedSoFar()) == 1 })
	assert.ErrorIs(t, a.Verify("alice", "guess-1"), ErrBusy, "alice's turn stayed taken")
	close(held.release)
	assert.ErrorIs(t, <-done, ErrBadCredentials)
	assert.Empty(t, a.turns.byName)
}
