package sqlite

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
)

// TestWriteBatchSplitsIntoShortTransactions pins how WriteBatch keeps the single write connection
// free for the service: with no time budget at all, every transaction still makes progress (one
// contact) and the batch is committed in as many transactions, each reporting its outcomes.
func TestWriteBatchSplitsIntoShortTransactions(t *testing.T) {
	s, commits := groupCommitStore(t)
	saved := writeBudget
	writeBudget = 0
	t.Cleanup(func() { writeBudget = saved })

	require.NoError(t, s.Put(t.Context(), contact("c2")))
	batch := make([]store.Contact, 5)
	for i := range batch {
		batch[i] = contact(fmt.Sprintf("c%d", i))
	}
	res, err := s.WriteBatch(t.Context(), batch, store.Upsert)
	require.NoError(t, err)
	assert.Equal(t, []store.Outcome{store.Inserted, store.Inserted, store.Updated, store.Inserted, store.Inserted}, res.Outcomes)
	assert.Equal(t, []int{1, 1, 1, 1, 1, 1}, commits(), "one Put, then one transaction per contact")
}

// TestWriteBatchCutsByTime checks that the cut follows the time budget, not a row count: a batch that
// takes longer than the budget is committed in several transactions. (Whether each then stays within
// 50 ms depends on the disk's fsync as well; the test logs the longest, and BENCHMARKS.md records it
// on a quiet machine, since a timing assertion would fail on a loaded CI machine for no fault of the
// code.)
func TestWriteBatchCutsByTime(t *testing.T) {
	s, _ := groupCommitStore(t)
	saved := writeBudget
	writeBudget = time.Millisecond
	n := 0
	t.Cleanup(func() { writeBudget = saved })
	var longest time.Duration
	last := time.Now()
	s.gc.afterCommit = func(int) {
		n++
		now := time.Now()
		longest = max(longest, now.Sub(last))
		last = now
	}
	batch := make([]store.Contact, 5000)
	for i := range batch {
		batch[i] = contact(fmt.Sprintf("c%06d", i))
	}
	last = time.Now()
	res, err := s.WriteBatch(t.Context(), batch, store.Upsert)
	require.NoError(t, err)
	require.Equal(t, len(batch), res.Inserted)
	t.Logf("%d contacts in %d transactions, the longest %s from the end of the one before", len(batch), n, longest)
	assert.Greater(t, n, 1, "a batch longer than the time budget was committed in one transaction")
}
