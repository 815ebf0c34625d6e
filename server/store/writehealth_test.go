package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/contactsync/contactsync/server/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeProber answers ProbeWrite with err and counts the probes.
type fakeProber struct {
	err    atomic.Pointer[error]
	probes atomic.Int64
}

func (p *fakeProber) set(err error) { p.err.Store(&err) }
func (p *fakeProber) ProbeWrite(context.Context) error {
	p.probes.Add(1)
	if e := p.err.Load(); e != nil {
		return *e
	}
	return nil
}

// fakeStore fails its writes with err.
type fakeStore struct {
	store.Store
	err error
}

func (s *fakeStore) Put(context.Context, store.Record) error { return s.err }
func (s *fakeStore) Delete(context.Context, string) (store.Record, error) {
	return store.Record{}, s.err
}

func TestWriteHealth(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var logs bytes.Buffer
	p := &fakeProber{}
	w := store.NewWriteHealth(p, store.WriteHealthOptions{
		Logger: slog.New(slog.NewTextHandler(&logs, nil)), Now: func() time.Time { return now },
	})
	ctx := context.Background()
	full := fmt.Errorf("sqlite: put contact %q: %w: %w", "42", store.ErrNotWritable, errors.New("database or disk is full (13)"))
	fs := &fakeStore{}
	st := w.Wrap(fs)

	require.NoError(t, w.Writable(ctx))
	assert.Equal(t, int64(1), p.probes.Load(), "a first check probes")
	require.NoError(t, w.Writable(ctx))
	assert.Equal(t, int64(1), p.probes.Load(), "within the interval the answer is remembered")

	// Failed writes: not writable at once, without a probe, and logged once per interval.
	fs.err = full
	p.set(full)
	for range 50 {
		assert.ErrorIs(t, st.Put(ctx, store.Record{Key: "42"}), store.ErrNotWritable)
	}
	assert.ErrorIs(t, w.Writable(ctx), store.ErrNotWritable)
	assert.Equal(t, int64(1), p.probes.Load())
	assert.Equal(t, 1, strings.Count(logs.String(), "the store cannot write"), logs.String())

	// Other failures say nothing about writability; a not-found is an answer.
	fs.err = store.ErrUnavailable
	_ = st.Put(ctx, store.Record{})
	fs.err = store.ErrNotFound
	_, _ = st.Delete(ctx, "x")
	fs.err = nil
	require.NoError(t, st.Put(ctx, store.Record{}))
	assert.ErrorIs(t, w.Writable(ctx), store.ErrNotWritable, "with a prober, only a probe clears the state")

	// The interval passes: the probe still fails; later it succeeds and the store is writable again.
	now = now.Add(store.DefaultWriteProbeInterval)
	assert.ErrorIs(t, w.Writable(ctx), store.ErrNotWritable)
	assert.Equal(t, int64(2), p.probes.Load())
	now = now.Add(store.DefaultWriteLogInterval)
	fs.err = full
	_ = st.Put(ctx, store.Record{})
	assert.Contains(t, logs.String(), "repeated=49", "the lines left out are counted")
	now = now.Add(store.DefaultWriteProbeInterval)
	p.set(nil)
	require.NoError(t, w.Writable(ctx))
	assert.Equal(t, int64(3), p.probes.Load())
	assert.Contains(t, logs.String(), "the store can write again")
}

func TestWriteHealthWithoutProber(t *testing.T) {
	w := store.NewWriteHealth(nil, store.WriteHealthOptions{Logger: slog.New(slog.DiscardHandler)})
	fs := &fakeStore{err: fmt.Errorf("x: %w", store.ErrNotWritable)}
	st := w.Wrap(fs)
	require.NoError(t, w.Writable(context.Background()))
	_ = st.Put(context.Background(), store.Record{})
	assert.ErrorIs(t, w.Writable(context.Background()), store.ErrNotWritable)
	fs.err = nil
	require.NoError(t, st.Put(context.Background(), store.Record{}))
	assert.NoError(t, w.Writable(context.Background()), "a successful write clears it")
}

func TestWriteHealthProbeAbandoned(t *testing.T) {
	p := &fakeProber{}
	p.set(context.Canceled)
	w := store.NewWriteHealth(p, store.WriteHealthOptions{Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Error(t, w.Writable(ctx))
	p.set(nil)
	assert.NoError(t, w.Writable(context.Background()), "a probe its caller gave up on is not remembered")
	assert.Equal(t, int64(2), p.probes.Load())
}

// blockingProber holds every probe until release is closed.
type blockingProber struct {
	probes  atomic.Int64
	started chan struct{}
	release chan struct{}
}

func (p *blockingProber) ProbeWrite(context.Context) error {
	if p.probes.Add(1) == 1 {
		close(p.started)
	}
	<-p.release
	return nil
}

// TestWriteHealthProbesOneAtATime: readiness checks arriving together (two listeners, several
// probes) share one probe rather than each writing to the store.
func TestWriteHealthProbesOneAtATime(t *testing.T) {
	p := &blockingProber{started: make(chan struct{}), release: make(chan struct{})}
	w := store.NewWriteHealth(p, store.WriteHealthOptions{Logger: slog.New(slog.DiscardHandler)})
	errs := make(chan error, 10)
	for range 10 {
		go func() { errs <- w.Writable(context.Background()) }()
	}
	<-p.started
	time.Sleep(10 * time.Millisecond) // let the others queue behind the probe
	close(p.release)
	for range 10 {
		require.NoError(t, <-errs)
	}
	assert.Equal(t, int64(1), p.probes.Load())
}

// batchFailingStore fails its batch writes with err.
type batchFailingStore struct {
	store.Store
	err error
}

func (s *batchFailingStore) WriteBatch(_ context.Context, rs []store.Record, _ store.WriteMode) (store.BatchResult, error) {
	return store.NewBatchResult(len(rs)), s.err
}

// TestWriteHealthWatchesBatches: a batch write (import beside serve) that finds the disk full makes
// the store not writable, as a single write does; the wrapper forwards every other method.
func TestWriteHealthWatchesBatches(t *testing.T) {
	w := store.NewWriteHealth(nil, store.WriteHealthOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	full := fmt.Errorf("sqlite: write batch: %w: %w", store.ErrNotWritable, errors.New("database or disk is full (13)"))
	st := w.Wrap(&batchFailingStore{err: full})
	_, err := st.WriteBatch(context.Background(), make([]store.Record, 2), store.Upsert)
	require.ErrorIs(t, err, store.ErrNotWritable)
	assert.ErrorIs(t, w.Writable(context.Background()), store.ErrNotWritable)
}
