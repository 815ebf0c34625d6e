package store

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/contactsync/contactsync/server/internal/ratelog"
)

// DefaultWriteProbeInterval is the least time between two writability probes, and how long after a
// failed write a probe waits: often enough that an instance taken out of rotation comes back within
// seconds of the disk being freed, rarely enough that probing costs nothing worth measuring.
const DefaultWriteProbeInterval = 5 * time.Second

// DefaultWriteLogInterval is the least time between two log lines about the same write failure.
const DefaultWriteLogInterval = 10 * time.Second

// WriteHealthOptions tunes a WriteHealth; zero fields take their defaults.
type WriteHealthOptions struct {
	// ProbeInterval is DefaultWriteProbeInterval unless set.
	ProbeInterval time.Duration
	// LogInterval is DefaultWriteLogInterval unless set.
	LogInterval time.Duration
	// Logger receives the failures (rate-limited) and the recoveries; nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// WriteHealth knows whether a store can write: it watches the writes of the store it wraps (Wrap) and
// probes the store itself (WriteProber) at most once per probe interval when asked (Writable), so that
// /readyz can take an instance whose disk is full out of rotation and bring it back once the disk has
// room again, without needing traffic to find out. Write failures that are not the caller's fault
// (ErrNotWritable) are logged at most once per log interval per cause, with a count of the others.
type WriteHealth struct {
	prober WriteProber // nil: only the writes observed tell
	every  time.Duration
	now    func() time.Time
	log    *slog.Logger
	rlog   *ratelog.Logger

	probing sync.Mutex // one probe at a time

	mu      sync.Mutex
	err     error     // why the store cannot write; nil when it can, as far as known
	checked time.Time // when err was last decided, by a probe or a failed write
	failed  int       // writes failed since the store became not writable
}

// NewWriteHealth returns a WriteHealth probing through prober, which may be nil for a store that cannot
// probe itself: then a failed write makes it not writable until a write succeeds.
func NewWriteHealth(prober WriteProber, opts WriteHealthOptions) *WriteHealth {
	if opts.ProbeInterval <= 0 {
		opts.ProbeInterval = DefaultWriteProbeInterval
	}
	if opts.LogInterval <= 0 {
		opts.LogInterval = DefaultWriteLogInterval
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	rlog := ratelog.New(opts.Logger, opts.LogInterval)
	rlog.SetClock(opts.Now)
	return &WriteHealth{prober: prober, every: opts.ProbeInterval, now: opts.Now, log: opts.Logger, rlog: rlog}
}

// Writable reports whether the store can write: nil, or the error that says why not (a failed write's
// or a probe's). It probes the store when the last decision is older than the probe interval, at most
// one probe at a time; otherwise it answers from memory.
func (w *WriteHealth) Writable(ctx context.Context) error {
	if err, fresh := w.known(); fresh || w.prober == nil {
		return err
	}
	w.probing.Lock()
	defer w.probing.Unlock()
	if err, fresh := w.known(); fresh { // another caller probed while this one waited
		return err
	}
	err := w.prober.ProbeWrite(ctx)
	if err != nil && ctx.Err() != nil {
		return err // the caller gave up: this says nothing about the store, so it is not remembered
	}
	w.decide(err, true)
	return err
}

// known returns the last decision and whether it is recent enough to be used without probing.
func (w *WriteHealth) known() (error, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err, !w.checked.IsZero() && w.now().Sub(w.checked) < w.every
}

// Observe records the outcome of a write. A failure wrapping ErrNotWritable makes the store not
// writable (and is logged, rate-limited); other failures are the request's or the connection's
// business and change nothing. A success makes the store writable again only when there is no prober:
// otherwise a probe decides, because a small write can succeed on a full disk (SQLite reuses the space
// of its write-ahead log) while larger ones fail.
func (w *WriteHealth) Observe(err error) {
	switch {
	case errors.Is(err, ErrNotWritable):
		w.decide(err, false)
	case err == nil && w.prober == nil:
		w.decide(nil, false)
	}
}

// decide records err (nil: writable) as the store's state, logging the transitions.
func (w *WriteHealth) decide(err error, probed bool) {
	w.mu.Lock()
	was := w.err
	w.err, w.checked = err, w.now()
	if err != nil && !probed {
		w.failed++
	}
	failed := w.failed
	if err == nil {
		w.failed = 0
	}
	w.mu.Unlock()
	switch {
	case err != nil:
		cause := rootCause(err)
		source := "write"
		if probed {
			source = "probe"
		}
		w.rlog.Log(context.Background(), slog.LevelError, source+": "+cause, "the store cannot write; /readyz reports not ready until a probe succeeds",
			"source", source, "error", err.Error())
	case was != nil:
		w.log.Info("the store can write again", "failed_writes", failed)
	}
}

// rootCause is the innermost error of err's chain, the driver's own message: the key under which
// identical failures are counted, since the outer messages name the contact a request was about. For
// an error wrapping several (fmt.Errorf with two %w), the last one, where the cause goes by convention.
func rootCause(err error) string {
	for {
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			if next := u.Unwrap(); next != nil {
				err = next
				continue
			}
		case interface{ Unwrap() []error }:
			if errs := u.Unwrap(); len(errs) > 0 {
				err = errs[len(errs)-1]
				continue
			}
		}
		return err.Error()
	}
}

// Wrap returns s reporting the outcome of each write (Put, Update, Delete, WriteBatch) to w. A record
// not found, or a change function's error, is an answer, not a failure of the store. Every other method
// is s's own: the result is the whole Store, so nothing s offers is hidden behind it.
func (w *WriteHealth) Wrap(s Store) Store { return &watched{Store: s, health: w} }

// watched embeds the Store it wraps, so it forwards every method of the interface; it overrides the
// writes only.
type watched struct {
	Store
	health *WriteHealth
}

// Compile-time check that the wrapper is the whole Store.
var _ Store = (*watched)(nil)

func (s *watched) observe(err error) {
	if errors.Is(err, ErrNotFound) {
		err = nil
	}
	s.health.Observe(err)
}

func (s *watched) Put(ctx context.Context, r Record) error {
	err := s.Store.Put(ctx, r)
	s.observe(err)
	return err
}

func (s *watched) Update(ctx context.Context, key string, change func(Record) (Record, error)) (Record, error) {
	r, err := s.Store.Update(ctx, key, change)
	s.observe(err)
	return r, err
}

func (s *watched) Delete(ctx context.Context, key string) (Record, error) {
	r, err := s.Store.Delete(ctx, key)
	s.observe(err)
	return r, err
}

func (s *watched) WriteBatch(ctx context.Context, rs []Record, mode WriteMode) (BatchResult, error) {
	res, err := s.Store.WriteBatch(ctx, rs, mode)
	s.observe(err)
	return res, err
}
