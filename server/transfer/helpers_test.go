package transfer_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	frozen "github.com/contactsync/contactsync/server/internal/frozencontract"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// schema is contract 1.0's record type (server/internal/frozencontract) with a stand-in for the service's check (service.Records),
// which this package must not import; the command's tests run the real one. It refuses an empty key,
// as the service does, so refusals can be tested.
var schema = transfer.Schema{
	Type: frozen.ContactRecord,
	Check: func(r recordwire.Record, _ []byte) error {
		if r.RecordKey() == "" {
			return errors.New("Id is required")
		}
		return nil
	},
}

// memStore is an in-memory store offering what transfer uses (Scan, WriteBatch, Count), with the
// semantics of the real ones: Scan in key byte order from one snapshot, InsertOnly refusing a taken
// key. The backends are tested with transfer by the command's tests.
type memStore struct {
	mu      sync.Mutex
	recs    map[string]store.Record
	scanErr error
}

var (
	_ transfer.Scanner     = (*memStore)(nil)
	_ transfer.BatchWriter = (*memStore)(nil)
	_ transfer.Counter     = (*memStore)(nil)
)

func newMem() *memStore { return &memStore{recs: map[string]store.Record{}} }

func (m *memStore) Scan(ctx context.Context, fn func(store.Record) error) error {
	m.mu.Lock()
	if m.scanErr != nil {
		m.mu.Unlock()
		return m.scanErr
	}
	snap := make([]store.Record, 0, len(m.recs))
	for _, r := range m.recs {
		snap = append(snap, r)
	}
	m.mu.Unlock()
	slices.SortFunc(snap, func(a, b store.Record) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	for _, r := range snap {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func (m *memStore) WriteBatch(_ context.Context, rs []store.Record, mode store.WriteMode) (store.BatchResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	res := store.NewBatchResult(len(rs))
	for i, r := range rs {
		_, taken := m.recs[r.Key]
		switch {
		case taken && mode == store.InsertOnly:
			res.Add(i, store.Refused)
			continue
		case taken:
			res.Add(i, store.Updated)
		default:
			res.Add(i, store.Inserted)
		}
		m.recs[r.Key] = store.Record{Key: r.Key, Index: r.Index, Doc: slices.Clone(r.Doc)}
	}
	return res, nil
}

func (m *memStore) Count(context.Context) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return int64(len(m.recs)), nil
}

// put stores c as the service would.
func (m *memStore) put(c *frozen.Contact) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs[c.Id] = record(c)
}

// get reads the contact stored under key.
func (m *memStore) get(t *testing.T, key string) *frozen.Contact {
	t.Helper()
	m.mu.Lock()
	r, ok := m.recs[key]
	m.mu.Unlock()
	require.True(t, ok, "no record %q", key)
	c := new(frozen.Contact)
	require.NoError(t, recordwire.Decode(r.Doc, recordwire.Strict, c))
	return c
}

// record is c as the store keeps it.
func record(c *frozen.Contact) store.Record {
	return store.Record{Key: c.RecordKey(), Index: c.RecordIndex(), Doc: c.AppendRecord(nil)}
}

func roles(ids ...string) *frozen.ArrayOfString {
	a := &frozen.ArrayOfString{}
	for _, id := range ids {
		a.Astring = append(a.Astring, &id)
	}
	return a
}
