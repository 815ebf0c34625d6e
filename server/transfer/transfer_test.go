package transfer_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	frozen "github.com/contactsync/contactsync/server/internal/frozencontract"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
)

func importString(t *testing.T, dst transfer.BatchWriter, input string, opts transfer.ImportOptions) (transfer.Report, []string, error) {
	t.Helper()
	dec, err := transfer.NewDecoder(strings.NewReader(input), transfer.JSONL, schema, transfer.DecodeOptions{})
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
	s := newMem()
	rep, refused, err := importString(t, s, input, transfer.ImportOptions{BatchSize: 3})
	require.NoError(t, err)
	assert.Empty(t, refused)
	assert.Equal(t, transfer.Report{Read: 10, Inserted: 4, Updated: 6}, rep)
	assert.Equal(t, "v9", s.get(t, "c1").FirstName, "the last record of an id wins")

	s = newMem()
	rep, refused, err = importString(t, s, input, transfer.ImportOptions{Mode: store.InsertOnly, BatchSize: 3})
	require.NoError(t, err)
	assert.Equal(t, transfer.Report{Read: 10, Inserted: 4, Refused: 6}, rep)
	assert.Equal(t, `5: record "c0" already exists (--mode insert-only)`, refused[0])
	assert.Equal(t, "v1", s.get(t, "c1").FirstName, "the first record of an id wins")
}

// TestImportStopAfter checks that the import ends at the refusal that reaches StopAfter, having
// written exactly the good records before it.
func TestImportStopAfter(t *testing.T) {
	input := lines(5, func(i int) string { return fmt.Sprintf("a%d", i) }) +
		"{\"Id\":\"\"}\n" + // line 6
		lines(3, func(i int) string { return fmt.Sprintf("b%d", i) }) +
		"bad\n" + // line 10
		lines(3, func(i int) string { return fmt.Sprintf("c%d", i) })
	s := newMem()
	rep, refused, err := importString(t, s, input, transfer.ImportOptions{StopAfter: 2, BatchSize: 100})
	require.ErrorIs(t, err, transfer.ErrStopped)
	assert.Contains(t, err.Error(), "line 10")
	assert.Equal(t, []string{"6: Id is required", "10: not a JSON object"}, refused)
	assert.Equal(t, transfer.Report{Read: 10, Inserted: 8, Refused: 2}, rep)
	n, err := s.Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, int64(8), n)

	// Below the limit, every good record is written and the refusals are only reported.
	s = newMem()
	rep, _, err = importString(t, s, input, transfer.ImportOptions{StopAfter: 3, BatchSize: 4})
	require.NoError(t, err)
	assert.Equal(t, transfer.Report{Read: 13, Inserted: 11, Refused: 2}, rep)
}

func TestCopyAndDigest(t *testing.T) {
	src, dst := newMem(), newMem()
	_, _, err := importString(t, src, lines(1000, func(i int) string { return fmt.Sprintf("c%04d", i) }), transfer.ImportOptions{})
	require.NoError(t, err)
	rep, err := transfer.Copy(t.Context(), schema, src, dst, transfer.CopyOptions{Mode: store.InsertOnly, BatchSize: 64})
	require.NoError(t, err)
	assert.Equal(t, transfer.Report{Read: 1000, Inserted: 1000}, rep)
	a, err := transfer.DigestOf(t.Context(), schema, src)
	require.NoError(t, err)
	b, err := transfer.DigestOf(t.Context(), schema, dst)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Equal(t, int64(1000), a.Count)

	// One field of one contact differs: the digests differ.
	dst.put(&frozen.Contact{Id: "c0500", FirstName: "v500 "})
	b, err = transfer.DigestOf(t.Context(), schema, dst)
	require.NoError(t, err)
	assert.NotEqual(t, a.Sum, b.Sum)
	assert.Equal(t, a.Count, b.Count)
	_, err = transfer.Contains(t.Context(), schema, dst, src)
	require.ErrorContains(t, err, `record "c0500" differs`)
	// The target holding more than the source is fine for Contains; the source holding more is not.
	dst.put(&frozen.Contact{Id: "c0500", FirstName: "v500"})
	dst.put(&frozen.Contact{Id: "b-only-in-target"})
	n, err := transfer.Contains(t.Context(), schema, dst, src)
	require.NoError(t, err)
	assert.Equal(t, int64(1000), n)
	_, err = transfer.Contains(t.Context(), schema, src, dst)
	require.ErrorContains(t, err, `record "b-only-in-target" is missing from the target`)
	delete(dst.recs, "b-only-in-target")

	// Copying again without upsert is refused: the target holds the contacts.
	_, err = transfer.Copy(t.Context(), schema, src, dst, transfer.CopyOptions{Mode: store.InsertOnly})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--upsert")
	rep, err = transfer.Copy(t.Context(), schema, src, dst, transfer.CopyOptions{Mode: store.Upsert})
	require.NoError(t, err)
	assert.Equal(t, transfer.Report{Read: 1000, Updated: 1000}, rep)
	b, err = transfer.DigestOf(t.Context(), schema, dst)
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestCopyStopsOnScanError checks a source failure ends the copy with its error.
func TestCopyStopsOnScanError(t *testing.T) {
	src := newMem()
	src.put(&frozen.Contact{Id: "x"})
	src.scanErr = errors.New("the store is closed")
	_, err := transfer.Copy(t.Context(), schema, src, newMem(), transfer.CopyOptions{})
	require.Error(t, err)
	assert.False(t, errors.Is(err, transfer.ErrStopped))
}

// TestCopyNormalises: a record stored in another spelling (keys reordered and spaced, as jsonb gives
// them back) is copied and exported in the canonical form, so the digests of the two stores agree;
// a stored field the contract does not have is carried; a value the contract cannot read stops the copy.
func TestCopyNormalises(t *testing.T) {
	src, dst := newMem(), newMem()
	src.recs["a"] = store.Record{Key: "a", Index: "acc", Doc: []byte(`{"RoleIds": ["r1"], "AccountId": "acc", "Id": "a"}`)}
	_, err := transfer.Copy(t.Context(), schema, src, dst, transfer.CopyOptions{})
	require.NoError(t, err)
	assert.Equal(t, `{"Id":"a","AccountId":"acc","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":["r1"]}`,
		string(dst.recs["a"].Doc))
	a, err := transfer.DigestOf(t.Context(), schema, src)
	require.NoError(t, err)
	b, err := transfer.DigestOf(t.Context(), schema, dst)
	require.NoError(t, err)
	assert.Equal(t, a, b)

	src.recs["b"] = store.Record{Key: "b", Doc: []byte(`{"Id":"b","PhoneWork":"1"}`)}
	src.recs["c"] = store.Record{Key: "c", Doc: []byte(`{"Id":"c","PhoneOffice": "1"}`)}
	dst = newMem()
	_, err = transfer.Copy(t.Context(), schema, src, dst, transfer.CopyOptions{})
	require.NoError(t, err, "a field the contract does not have is carried")
	assert.Equal(t, `{"Id":"c","AccountId":"","FirstName":"","LastName":"","PhoneMobile":"","PhoneWork":"","EmailAddress":"","RoleIds":null,"PhoneOffice":"1"}`,
		string(dst.recs["c"].Doc))
	a, err = transfer.DigestOf(t.Context(), schema, src)
	require.NoError(t, err)
	b, err = transfer.DigestOf(t.Context(), schema, dst)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	src.recs["c"] = store.Record{Key: "c", Doc: []byte(`{"Id":"c","PhoneWork":1}`)}
	_, err = transfer.Copy(t.Context(), schema, src, newMem(), transfer.CopyOptions{})
	require.ErrorContains(t, err, `stored record "c" does not match the contract's Contact`)
	src.recs["c"] = store.Record{Key: "c", Doc: []byte(`{"Id":"d"}`)}
	_, err = transfer.Copy(t.Context(), schema, src, newMem(), transfer.CopyOptions{})
	require.ErrorContains(t, err, `stored record "c" holds the key "d" in its document`)
}
