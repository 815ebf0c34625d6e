package transfer_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/server/transfer"
)

func openSQLite(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "contacts.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func importString(t *testing.T, dst transfer.Bulk, input string, opts transfer.ImportOptions) (transfer.Report, []string, error) {
	t.Helper()
	dec, err := transfer.NewDecoder(strings.NewReader(input), transfer.JSONL, conv)
	require.NoError(t, err)
	var refused []string
	opts.OnRefused = func(r transfer.Refusal) { refused = append(refused, fmt.Sprintf("%d: %s", r.Line, r.Reason)) }
	rep, err := transfer.Import(t.Context(), dst, dec, opts)
	return rep, refused, err
}

func lines(n int, id func(i int) string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "{\"Id\":%q,\"FirstName\":\"v%d\"}\n", id(i), i)
	}
	return b.String()
}

// TestImportRepeatedIDs checks that a repeated id behaves as if the records were written one by one,
// across batch boundaries too: the later wins under upsert, and is refused under insert-only.
func TestImportRepeatedIDs(t *testing.T) {
	input := lines(10, func(i int) string { return fmt.Sprintf("c%d", i%4) })
	s := openSQLite(t)
	rep, refused, err := importString(t, s, input, transfer.ImportOptions{BatchSize: 3})
	require.NoError(t, err)
	assert.Empty(t, refused)
	assert.Equal(t, transfer.Report{Read: 10, Inserted: 4, Updated: 6}, rep)
	c, err := s.Get(t.Context(), "c1")
	require.NoError(t, err)
	assert.Equal(t, "v9", fromRec(c).FirstName, "the last record of an id wins")

	s = openSQLite(t)
	rep, refused, err = importString(t, s, input, transfer.ImportOptions{Mode: store.InsertOnly, BatchSize: 3})
	require.NoError(t, err)
	assert.Equal(t, transfer.Report{Read: 10, Inserted: 4, Refused: 6}, rep)
	assert.Equal(t, `5: contact "c0" already exists (--mode insert-only)`, refused[0])
	c, err = s.Get(t.Context(), "c1")
	require.NoError(t, err)
	assert.Equal(t, "v1", fromRec(c).FirstName, "the first record of an id wins")
}

// TestImportStopAfter checks that the import ends at the refusal that reaches StopAfter, having
// written exactly the good records before it.
func TestImportStopAfter(t *testing.T) {
	input := lines(5, func(i int) string { return fmt.Sprintf("a%d", i) }) +
		"{\"Id\":\"\"}\n" + // line 6
		lines(3, func(i int) string { return fmt.Sprintf("b%d", i) }) +
		"bad\n" + // line 10
		lines(3, func(i int) string { return fmt.Sprintf("c%d", i) })
	s := openSQLite(t)
	rep, refused, err := importString(t, s, input, transfer.ImportOptions{StopAfter: 2, BatchSize: 100})
	require.ErrorIs(t, err, transfer.ErrStopped)
	assert.Contains(t, err.Error(), "line 10")
	assert.Equal(t, []string{"6: Id is required", "10: not a JSON object"}, refused)
	assert.Equal(t, transfer.Report{Read: 10, Inserted: 8, Refused: 2}, rep)
	n, err := s.Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, int64(8), n)

	// Below the limit, every good record is written and the refusals are only reported.
	s = openSQLite(t)
	rep, _, err = importString(t, s, input, transfer.ImportOptions{StopAfter: 3, BatchSize: 4})
	require.NoError(t, err)
	assert.Equal(t, transfer.Report{Read: 13, Inserted: 11, Refused: 2}, rep)
}

func TestCopyAndDigest(t *testing.T) {
	src, dst := openSQLite(t), openSQLite(t)
	_, _, err := importString(t, src, lines(1000, func(i int) string { return fmt.Sprintf("c%04d", i) }), transfer.ImportOptions{})
	require.NoError(t, err)
	rep, err := transfer.Copy(t.Context(), src, dst, transfer.CopyOptions{Mode: store.InsertOnly, BatchSize: 64})
	require.NoError(t, err)
	assert.Equal(t, transfer.Report{Read: 1000, Inserted: 1000}, rep)
	a, err := transfer.DigestOf(t.Context(), src, conv)
	require.NoError(t, err)
	b, err := transfer.DigestOf(t.Context(), dst, conv)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Equal(t, int64(1000), a.Count)

	// One field of one contact differs: the digests differ.
	require.NoError(t, dst.Put(t.Context(), Contact{ID: "c0500", FirstName: "v500 "}.rec()))
	b, err = transfer.DigestOf(t.Context(), dst, conv)
	require.NoError(t, err)
	assert.NotEqual(t, a.Sum, b.Sum)
	assert.Equal(t, a.Count, b.Count)
	_, err = transfer.Contains(t.Context(), dst, src, conv)
	require.ErrorContains(t, err, `contact "c0500" differs`)
	// The target holding more than the source is fine for Contains; the source holding more is not.
	require.NoError(t, dst.Put(t.Context(), Contact{ID: "c0500", FirstName: "v500"}.rec()))
	require.NoError(t, dst.Put(t.Context(), Contact{ID: "b-only-in-target"}.rec()))
	n, err := transfer.Contains(t.Context(), dst, src, conv)
	require.NoError(t, err)
	assert.Equal(t, int64(1000), n)
	_, err = transfer.Contains(t.Context(), src, dst, conv)
	require.ErrorContains(t, err, `contact "b-only-in-target" is missing from the target`)
	_, err = dst.Delete(t.Context(), "b-only-in-target")
	require.NoError(t, err)

	// Copying again without upsert is refused: the target holds the contacts.
	_, err = transfer.Copy(t.Context(), src, dst, transfer.CopyOptions{Mode: store.InsertOnly})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--upsert")
	rep, err = transfer.Copy(t.Context(), src, dst, transfer.CopyOptions{Mode: store.Upsert})
	require.NoError(t, err)
	assert.Equal(t, transfer.Report{Read: 1000, Updated: 1000}, rep)
	b, err = transfer.DigestOf(t.Context(), dst, conv)
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestCopyStopsOnScanError checks a source failure ends the copy with its error.
func TestCopyStopsOnScanError(t *testing.T) {
	src := openSQLite(t)
	require.NoError(t, src.Put(t.Context(), Contact{ID: "x"}.rec()))
	require.NoError(t, src.Close())
	_, err := transfer.Copy(t.Context(), src, openSQLite(t), transfer.CopyOptions{})
	require.Error(t, err)
	assert.False(t, errors.Is(err, transfer.ErrStopped))
}
