package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/migrate"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/wsdl"
)

// A new store backend is one package implementing backend.Backend plus one registration line. This
// file is that package for a tiny in-memory backend (memtest:NAME, one store per NAME for the life of
// the test binary), and the line is the init below; TestNewBackendIsOneRegistration uses it through
// the real serve, migrate, export and call commands, which know nothing of it.
func init() { stores.Registry.Register(memBackend{}) }

// memScheme starts every --store value of the in-memory backend.
const memScheme = "memtest:"

// memBackend keeps stores in memory, by name.
type memBackend struct{}

var (
	_ backend.Backend = memBackend{}
	_ backend.Locker  = memBackend{}
)

// memStores holds the in-memory stores by --store value, so that the commands of one test meet the
// same store; memLocks holds the values serve has locked.
var (
	memMu     sync.Mutex
	memStores = map[string]*memStore{}
	memLocks  = map[string]bool{}
)

// memMigrations is the in-memory backend's schema: one migration, which it only records.
var memMigrations = fstest.MapFS{"0001_memory.sql": {Data: []byte("-- nothing to create in memory\n")}}

func (memBackend) Name() string               { return "memtest" }
func (memBackend) Recognise(spec string) bool { return strings.HasPrefix(spec, memScheme) }
func (memBackend) Help() backend.Help {
	return backend.Help{Form: memScheme + "NAME", Usage: memScheme + "NAME (in memory, for tests)"}
}
func (memBackend) Redact(spec string) string                           { return spec }
func (memBackend) Flags(*pflag.FlagSet, backend.Scope) backend.Options { return nil }
func (memBackend) Migrations() fs.FS                                   { return memMigrations }

// storeOf returns the store spec names, creating it when use may.
func (memBackend) storeOf(spec string, use backend.Use) (*memStore, error) {
	memMu.Lock()
	defer memMu.Unlock()
	s, ok := memStores[spec]
	if !ok {
		if use == backend.Read {
			return nil, errors.New("no such in-memory store")
		}
		s = &memStore{records: map[string]store.Record{}}
		memStores[spec] = s
	}
	return s, nil
}

func (b memBackend) Open(_ context.Context, spec string, _ backend.Options, use backend.Use) (backend.Store, *backend.Created, error) {
	s, err := b.storeOf(spec, use)
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version == 0 {
		s.version = 1 // opening migrates, as every backend's Open does
	}
	return s, nil, nil
}

func (b memBackend) Migrate(_ context.Context, spec string, _ backend.Options) ([]migrate.Migration, error) {
	s, err := b.storeOf(spec, backend.Write)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version == 1 {
		return nil, nil
	}
	s.version = 1
	return []migrate.Migration{{Version: 1, File: "0001_memory.sql"}}, nil
}

func (memBackend) Lock(spec string) (func() error, error) {
	memMu.Lock()
	defer memMu.Unlock()
	if memLocks[spec] {
		return nil, errors.New("already served")
	}
	memLocks[spec] = true
	return func() error {
		memMu.Lock()
		defer memMu.Unlock()
		delete(memLocks, spec)
		return nil
	}, nil
}

// memStore is a store.Store and store.Fields in memory: enough for the commands, not a conforming
// backend (Scan is not a snapshot of one moment; the field maintenance is not implemented).
type memStore struct {
	mu      sync.Mutex
	records map[string]store.Record
	fields  []store.Field
	version int
}

func (s *memStore) Put(_ context.Context, r store.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[r.Key] = r
	return nil
}

func (s *memStore) Get(_ context.Context, key string) (store.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.records[key]
	if !ok {
		return store.Record{}, store.ErrNotFound
	}
	return r, nil
}

func (s *memStore) Update(_ context.Context, key string, change func(store.Record) (store.Record, error)) (store.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.records[key]
	if !ok {
		return store.Record{}, store.ErrNotFound
	}
	r, err := change(r)
	if err != nil {
		return store.Record{}, err
	}
	s.records[key] = r
	return r, nil
}

func (s *memStore) Delete(_ context.Context, key string) (store.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.records[key]
	if !ok {
		return store.Record{}, store.ErrNotFound
	}
	delete(s.records, key)
	return r, nil
}

// sorted returns the records in key order.
func (s *memStore) sorted() []store.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := make([]store.Record, 0, len(s.records))
	for _, r := range s.records {
		rs = append(rs, r)
	}
	slices.SortFunc(rs, func(a, b store.Record) int { return cmp.Compare(a.Key, b.Key) })
	return rs
}

func (s *memStore) ListByIndex(_ context.Context, index, afterKey string, limit int) ([]store.Record, error) {
	var out []store.Record
	for _, r := range s.sorted() {
		if r.Index == index && r.Key > afterKey && len(out) < limit {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s *memStore) Scan(_ context.Context, fn func(store.Record) error) error {
	for _, r := range s.sorted() {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func (s *memStore) Count(context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.records)), nil
}

func (s *memStore) WriteBatch(_ context.Context, rs []store.Record, mode store.WriteMode) (store.BatchResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res := store.NewBatchResult(len(rs))
	for i, r := range rs {
		_, held := s.records[r.Key]
		switch {
		case held && mode == store.InsertOnly:
			res.Add(i, store.Refused)
			continue
		case held:
			res.Add(i, store.Updated)
		default:
			res.Add(i, store.Inserted)
		}
		s.records[r.Key] = r
	}
	return res, nil
}

func (s *memStore) Ping(context.Context) error       { return nil }
func (s *memStore) ProbeWrite(context.Context) error { return nil }
func (s *memStore) Close() error                     { return nil }

func (s *memStore) SyncFields(_ context.Context, fields []store.Field) (store.FieldsReport, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	plan, drop := store.PlanSync(s.fields, fields, len(s.records) == 0)
	s.fields = slices.DeleteFunc(s.fields, func(f store.Field) bool { return slices.Contains(drop, f.Path) })
	s.fields = append(s.fields, plan.Add...)
	return plan.Report, nil
}

func (s *memStore) StoredFields(context.Context) ([]store.Field, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.fields)
	slices.SortFunc(out, func(a, b store.Field) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

var errMemFields = errors.New("the in-memory test store does not maintain fields")

func (s *memStore) CountField(context.Context, string) (int64, error) { return 0, errMemFields }
func (s *memStore) CountDerived(context.Context, string, string) (int64, error) {
	return 0, errMemFields
}
func (s *memStore) RenameField(context.Context, string, string) (int64, error) {
	return 0, errMemFields
}
func (s *memStore) DropField(context.Context, string) (int64, error) { return 0, errMemFields }

// TestNewBackendIsOneRegistration: the in-memory backend above, registered with one line, is used by
// migrate, serve (its lock included), call and export through the real command code, and the help
// and the start-up log describe it from the registry.
func TestNewBackendIsOneRegistration(t *testing.T) {
	clearSettingsEnv(t)
	spec := memScheme + t.Name()

	out, err := runCLI(t, "migrate", "--store", spec)
	require.NoError(t, err)
	assert.Equal(t, "applied 0001_memory.sql\nschema now at version 1\n", out)
	out, err = runCLI(t, "migrate", "--store", spec)
	require.NoError(t, err)
	assert.Equal(t, "schema already at version 1\n", out)

	var logs syncBuffer
	addr, cancel, done := launchServe(t, serveOptions{store: spec, shutdownTimeout: 5 * time.Second},
		slog.New(slog.NewTextHandler(&logs, nil)))
	assert.Contains(t, logs.String(), "store_kind=memtest store="+spec)
	err = runServe(t.Context(), serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL}, discard())
	require.ErrorContains(t, err, "--store "+spec+": already served", "serve takes the backend's single-writer lock")
	endpoint := "http://" + addr.String() + wsdl.Path
	for _, id := range []string{"mem-2", "mem-1"} {
		out, err = runCLI(t, "call", "TestCreateContact", "--id", id, "--url", endpoint)
		require.NoError(t, err, out)
	}
	cancel()
	require.NoError(t, <-done)

	r := runData(t, "", "export", "--store", spec)
	require.NoError(t, r.err, r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 2, r.stdout)
	assert.True(t, strings.HasPrefix(lines[0], `{"Id":"mem-1"`), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], `{"Id":"mem-2"`), lines[1])
	assert.Equal(t, "exported 2 contacts from "+spec+" (jsonl)\n", r.stderr)

	r = runData(t, "", "export", "--store", memScheme+"missing")
	require.ErrorContains(t, r.err, "memtest:missing: no such in-memory store")

	var help bytes.Buffer
	cmd := newRootCommand()
	cmd.SetOut(&help)
	cmd.SetArgs([]string{"serve", "--help"})
	require.NoError(t, cmd.Execute())
	assert.Contains(t, help.String(), memScheme+"NAME (in memory, for tests)", "--store's help lists every backend")
}
