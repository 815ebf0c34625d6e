package auth

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNonceCacheBounds checks the replay cache's bookkeeping directly: never more than max nonces,
// users with nothing live are dropped, and on a tie the user adding a nonce keeps its own.
func TestNonceCacheBounds(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	c := newNonceCache(4)
	for i := range 40 {
		user := fmt.Sprint("u", i%10)
		require.NoError(t, c.add(user, fmt.Sprint("n", i), now.Add(time.Minute+time.Duration(i)*time.Second), now))
		assert.LessOrEqual(t, c.total, 4)
		sum := 0
		for _, u := range c.users {
			assert.Equal(t, len(u.seen), len(u.byExpiry))
			sum += len(u.byExpiry)
		}
		assert.Equal(t, c.total, sum, "total counts every remembered nonce")
	}

	// Everything expires; the next insertion into a full cache drops the users left empty.
	later := now.Add(time.Hour)
	c2 := newNonceCache(2)
	require.NoError(t, c2.add("a", "1", now.Add(time.Minute), now))
	require.NoError(t, c2.add("b", "1", now.Add(time.Minute), now))
	require.NoError(t, c2.add("c", "1", later.Add(time.Minute), later))
	require.NoError(t, c2.add("c", "2", later.Add(time.Minute), later))
	require.NoError(t, c2.add("c", "3", later.Add(2*time.Minute), later))
	assert.Len(t, c2.users, 1, "users with no live nonce are forgotten")

	// A tie: a and b hold two each; b adding a third takes a's oldest, not its own.
	c3 := newNonceCache(4)
	for _, n := range []string{"1", "2"} {
		require.NoError(t, c3.add("a", n, now.Add(time.Minute), now))
		require.NoError(t, c3.add("b", n, now.Add(time.Minute), now))
	}
	require.NoError(t, c3.add("b", "3", now.Add(time.Minute), now), "the adding user is spared on a tie")
	assert.Equal(t, 3, len(c3.users["b"].byExpiry))
	assert.Equal(t, 1, len(c3.users["a"].byExpiry))
	assert.ErrorIs(t, c3.add("a", "9", now.Add(time.Minute), now), ErrStale, "a's older tokens are now refused: its nonce may be forgotten")
	assert.ErrorIs(t, c3.add("b", "1", now.Add(time.Minute), now), ErrReplayed, "b's nonces are all still remembered")
}
