package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
)

// scanAll returns every contact Scan yields, in its order.
func scanAll(t *testing.T, s cstore) []contact {
	t.Helper()
	var got []contact
	require.NoError(t, s.scan(t.Context(), func(c contact) error {
		got = append(got, normalized(c))
		return nil
	}))
	return got
}

// sortedByID returns cs normalized and sorted by the byte order of their ids.
func sortedByID(cs []contact) []contact {
	out := make([]contact, len(cs))
	for i, c := range cs {
		out[i] = normalized(c)
	}
	slices.SortFunc(out, func(a, b contact) int {
		switch {
		case a.ID < b.ID: // Go compares strings byte by byte, the order Scan documents
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

func testScanEmpty(t *testing.T, s cstore) {
	calls := 0
	require.NoError(t, s.scan(t.Context(), func(contact) error { calls++; return nil }))
	assert.Zero(t, calls)
}

// bulkIDs are ids whose byte order differs from the order of most human collations: case, accents,
// digits, punctuation and characters outside the Basic Multilingual Plane.
var bulkIDs = []string{"b", "B", "a", "A", "é", "e", "z", "Z", "ä", "10", "9", "-x", "_x", " x", "x y",
	"🙂", "ид", "役割", "a-b", "ab", "a b", "Ω"}

func testScanOrderAndContent(t *testing.T, s cstore) {
	var want []contact
	for i, id := range bulkIDs {
		c := full(id)
		if i%3 == 0 {
			c.RoleIDs = nil
		}
		want = append(want, c)
		require.NoError(t, s.put(t.Context(), c))
	}
	assert.Equal(t, sortedByID(want), scanAll(t, s))
}

func testScanStopsAtError(t *testing.T, s cstore) {
	for i := range 10 {
		require.NoError(t, s.put(t.Context(), full(fmt.Sprintf("c%02d", i))))
	}
	errStop := errors.New("stop here")
	calls := 0
	err := s.scan(t.Context(), func(contact) error {
		calls++
		if calls == 3 {
			return errStop
		}
		return nil
	})
	require.ErrorIs(t, err, errStop)
	assert.Equal(t, 3, calls, "fn was called after it failed")
	// The store is still usable: the scan's transaction ended.
	require.NoError(t, s.put(t.Context(), full("after")))
	assert.Len(t, scanAll(t, s), 11)
}

// testScanSnapshot writes, deletes and changes contacts while a Scan is paused inside fn: the scan
// must return exactly the contacts as they were when it started.
func testScanSnapshot(t *testing.T, s cstore) {
	ctx := t.Context()
	var before []contact
	for i := range 50 {
		c := full(fmt.Sprintf("c%02d", i))
		before = append(before, c)
		require.NoError(t, s.put(ctx, c))
	}
	var got []contact
	first := true
	require.NoError(t, s.scan(ctx, func(c contact) error {
		if first {
			first = false
			// Another goroutine writes while the scan is paused here; fn waits for it to finish.
			done := make(chan error, 1)
			go func() {
				errs := []error{s.put(ctx, full("c99 new")), s.put(ctx, full("a-first new"))}
				_, err := s.delete(ctx, "c49")
				errs = append(errs, err)
				_, err = s.delete(ctx, "c01")
				errs = append(errs, err)
				changed := full("c30")
				changed.FirstName = "changed during the scan"
				errs = append(errs, s.put(ctx, changed))
				done <- errors.Join(errs...)
			}()
			if err := <-done; err != nil {
				return err
			}
		}
		got = append(got, normalized(c))
		return nil
	}))
	assert.Equal(t, sortedByID(before), got, "the scan saw writes made after it started")
	n, err := s.Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(50), n, "the writes made during the scan were applied")
}

func testWriteBatchUpsert(t *testing.T, s cstore) {
	ctx := t.Context()
	old := full("exists")
	old.FirstName = "old"
	require.NoError(t, s.put(ctx, old))
	batch := []contact{full("new-1"), full("exists"), {ID: "new-2"}, full("new-3")}
	res, err := s.writeBatch(ctx, batch, store.Upsert)
	require.NoError(t, err)
	assert.Equal(t, []store.Outcome{store.Inserted, store.Updated, store.Inserted, store.Inserted}, res.Outcomes)
	assert.Equal(t, [3]int{3, 1, 0}, [3]int{res.Inserted, res.Updated, res.Refused})
	for _, c := range batch {
		requireStored(t, s, c)
	}

	// The same batch again changes nothing and reports every contact updated: upsert is idempotent.
	res, err = s.writeBatch(ctx, batch, store.Upsert)
	require.NoError(t, err)
	assert.Equal(t, [3]int{0, 4, 0}, [3]int{res.Inserted, res.Updated, res.Refused})
	assert.Equal(t, sortedByID(batch), scanAll(t, s))
}

func testWriteBatchInsertOnly(t *testing.T, s cstore) {
	ctx := t.Context()
	old := full("exists")
	old.FirstName = "old"
	require.NoError(t, s.put(ctx, old))
	batch := []contact{full("new-1"), full("exists"), full("new-2")}
	res, err := s.writeBatch(ctx, batch, store.InsertOnly)
	require.NoError(t, err)
	assert.Equal(t, []store.Outcome{store.Inserted, store.Refused, store.Inserted}, res.Outcomes)
	assert.Equal(t, [3]int{2, 0, 1}, [3]int{res.Inserted, res.Updated, res.Refused})
	requireStored(t, s, old) // left alone
	requireStored(t, s, full("new-1"))
	requireStored(t, s, full("new-2"))
}

func testWriteBatchEmpty(t *testing.T, s cstore) {
	res, err := s.writeBatch(t.Context(), nil, store.Upsert)
	require.NoError(t, err)
	assert.Empty(t, res.Outcomes)
	assert.Zero(t, res.Inserted+res.Updated+res.Refused)
}

// testWriteBatchLarge writes batches big enough that a backend may split them into several
// transactions, with every kind of value the round trip test uses, and reads them back by Scan.
func testWriteBatchLarge(t *testing.T, s cstore) {
	ctx := t.Context()
	const n = 3000
	batch := make([]contact, n)
	for i := range batch {
		batch[i] = full(fmt.Sprintf("id-%05d-ü🙂<&>\"", i))
		if i%4 == 0 {
			batch[i].RoleIDs = nil
		}
	}
	res, err := s.writeBatch(ctx, batch[:n/2], store.InsertOnly)
	require.NoError(t, err)
	assert.Equal(t, n/2, res.Inserted)
	res, err = s.writeBatch(ctx, batch, store.Upsert)
	require.NoError(t, err)
	assert.Equal(t, [3]int{n / 2, n / 2, 0}, [3]int{res.Inserted, res.Updated, res.Refused})
	for i, o := range res.Outcomes {
		want := store.Updated
		if i >= n/2 {
			want = store.Inserted
		}
		require.Equal(t, want, o, "outcome of contact %d", i)
	}
	assert.Equal(t, sortedByID(batch), scanAll(t, s))
}

func testCount(t *testing.T, s cstore) {
	ctx := t.Context()
	count := func() int64 {
		n, err := s.Count(ctx)
		require.NoError(t, err)
		return n
	}
	assert.Equal(t, int64(0), count())
	for i := range 7 {
		require.NoError(t, s.put(ctx, full(fmt.Sprintf("c%d", i))))
	}
	assert.Equal(t, int64(7), count())
	_, err := s.delete(ctx, "c3")
	require.NoError(t, err)
	assert.Equal(t, int64(6), count())
}
