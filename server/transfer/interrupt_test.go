package transfer_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	frozen "github.com/contactsync/contactsync/server/internal/frozencontract"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
)

// TestCheckAnswersItsContext: the check pass used to read the whole input whatever happened; it now
// stops within checkEvery records of its context ending.
func TestCheckAnswersItsContext(t *testing.T) {
	input := lines(5000, func(i int) string { return fmt.Sprintf("c%d", i) })
	dec, err := transfer.NewDecoder(strings.NewReader(input), transfer.JSONL, schema, transfer.DecodeOptions{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	_, _, err = transfer.Check(ctx, dec, nil, nil)
	require.NoError(t, err, "an uncancelled check reads everything")

	dec, err = transfer.NewDecoder(strings.NewReader(input), transfer.JSONL, schema, transfer.DecodeOptions{})
	require.NoError(t, err)
	cancel()
	read, _, err := transfer.Check(ctx, dec, nil, nil)
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, read, int64(5000))
}

// TestImportStopErrorSays: an import that ends early says how far it got: the refusal that stopped
// it and the last line written, which is past it when the batch holding it was written whole (an id
// taken under insert-only); an interrupt before anything was written says so.
func TestImportStopErrorSays(t *testing.T) {
	s := newMem()
	s.put(&frozen.Contact{Id: "c2"})
	s.put(&frozen.Contact{Id: "c3"})
	input := lines(6, func(i int) string { return fmt.Sprintf("c%d", i) })
	rep, refused, err := importString(t, s, input, transfer.ImportOptions{Mode: store.InsertOnly, StopAfter: 1, BatchSize: 100})
	var stop *transfer.StopError
	require.ErrorAs(t, err, &stop)
	require.ErrorIs(t, err, transfer.ErrStopped)
	assert.Equal(t, 3, stop.Line, "the first taken id, c2, is line 3")
	assert.Equal(t, 6, stop.Through, "its batch was written whole")
	assert.Equal(t, []string{`3: record "c2" already exists (--mode insert-only)`, `4: record "c3" already exists (--mode insert-only)`}, refused,
		"every refusal is reported, not only the one that stopped it")
	assert.Equal(t, transfer.Report{Read: 6, Inserted: 4, Refused: 2}, rep)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	dec, err := transfer.NewDecoder(strings.NewReader(input), transfer.JSONL, schema, transfer.DecodeOptions{})
	require.NoError(t, err)
	rep, err = transfer.Import(ctx, newMem(), dec, transfer.ImportOptions{})
	require.ErrorAs(t, err, &stop)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 0, stop.Through)
	assert.Equal(t, "context canceled before any record was written", err.Error())
	assert.Zero(t, rep.Inserted)
}
