// Package store defines how records are kept: the Store interface every backend implements over
// Record (the contract's record as a key, an indexed value and a canonical JSON document), the field
// metadata every backend keeps (Fields), and the errors they report. Backends live in sub-packages
// (sqlite and postgres); storetest holds the conformance suite they all run; backend says what a
// backend supplies to the commands (its --store forms, options and flags, open, migrate, lock), and
// stores lists the backends in the registry the commands open stores through. No code here knows a
// field of the contract's record: the service converts it to and from a Record with the generated
// record codec.
package store

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotFound is returned (possibly wrapped) when no record has the requested key.
var ErrNotFound = errors.New("contact not found")

// ErrUnavailable is returned (wrapped, next to the driver's cause) when the store cannot serve the
// request now but may later without any change on the caller's side: its database is unreachable, a
// connection broke, or an operation exceeded the store's time limit. A write that fails with it has
// not been applied and never will be: the store reports it only when the write cannot commit any more
// (it failed before its commit was sent, or the database refused the commit), so a retry, by this
// caller or anyone else, cannot be undone by the failed attempt landing later. Callers should report
// a temporary failure (the server answers 503 / a Server fault) and let the client retry, rather than
// an internal error. The one case a store cannot settle is ErrOutcomeUnknown.
var ErrUnavailable = errors.New("contact store unavailable")

// ErrOutcomeUnknown is returned (wrapped, next to the cause) by a write whose commit was sent to the
// database but whose answer never came back (the connection broke or the time limit passed while it
// was in flight): the database may or may not have applied it, and nothing on this side can tell.
// It does not wrap ErrUnavailable, because a retry is not safe without looking first: the caller
// should say so and have the client read the record before retrying.
var ErrOutcomeUnknown = errors.New("the outcome of the write is unknown")

// ErrNotWritable is returned (wrapped, next to the driver's cause) when the store cannot write for a
// reason on the server's side that no request caused and a retry later may not meet: the disk is full,
// the database or its file system is read-only, an I/O error, or (PostgreSQL) the server is out of disk
// space. It wraps ErrUnavailable, so callers answer it the same way (503 with Retry-After); a
// WriteHealth watching the store also makes /readyz report the instance not ready until a probe
// finds the store writable again.
var ErrNotWritable = fmt.Errorf("%w: it cannot write (disk full, read-only or I/O error)", ErrUnavailable)

// Store keeps records durably. It is the whole set of what the service, the data commands (export,
// import, copy) and the health checks use, one interface that every backend implements and every
// decorator (instrumented, WriteHealth.Wrap) forwards in full, so no caller ever needs a type
// assertion to reach a method.
//
// Every method is safe for concurrent use. A write that returned nil is durable: it survives the
// process being killed right after. Writes to one record are atomic. Keys and index values are
// compared byte by byte (the order of their UTF-8 encodings), the same on every backend. A record's
// Doc is kept as given and handed back equal in meaning: a backend may respell it (PostgreSQL's jsonb
// orders keys and adds spaces), so callers decode it with a decoder that accepts any key order.
// Records handed back are the caller's: the store keeps no reference to them.
type Store interface {
	// Put creates the record or replaces the stored record with the same key.
	Put(ctx context.Context, r Record) error
	// Get returns the record with the given key, or ErrNotFound.
	Get(ctx context.Context, key string) (Record, error)
	// Update reads the record with the given key, applies change to it and stores the result, all in
	// one transaction, so concurrent updates of one key never lose each other's changes. It returns the
	// stored result, ErrNotFound when the key is unknown, or the error change returned (storing
	// nothing). change must keep the key (a result with another key is refused); it may change the
	// index. change may be called more than once if the transaction is retried; it must not have side
	// effects. It may run while the backend holds a write lock, so it must be quick and must not call
	// the Store.
	Update(ctx context.Context, key string, change func(Record) (Record, error)) (Record, error)
	// Delete removes the record with the given key and returns what was removed, or ErrNotFound.
	Delete(ctx context.Context, key string) (Record, error)
	// ListByIndex returns up to limit records whose Index is index and whose Key is greater than
	// afterKey ("" starts at the first), in ascending byte order of Key: a page of the index, read
	// through the backend's index on (index, key). Paging by the last key of each page visits every
	// record that stayed in the index throughout exactly once, whatever is written meanwhile. limit
	// must be positive.
	ListByIndex(ctx context.Context, index, afterKey string, limit int) ([]Record, error)
	// Scan calls fn with every stored record, in ascending byte order of Key, all read from one
	// consistent snapshot: a write committed while Scan runs is either seen completely or not at all,
	// and the records seen are exactly those of one moment. Records are streamed, so memory stays
	// flat whatever the store holds. Writes made while Scan runs (by other goroutines, or by other
	// processes sharing the store) are not seen and do not wait for it. Scan stops at the first error
	// fn returns and returns it unchanged; fn may keep the Record it is given.
	Scan(ctx context.Context, fn func(Record) error) error
	// Count returns how many records the store holds.
	Count(ctx context.Context) (int64, error)
	// WriteBatch writes rs, whose keys must be distinct, and reports for each whether it was
	// inserted, updated or refused. Under Upsert an existing record is replaced, as by Put; under
	// InsertOnly it is left alone and refused. A backend may commit one batch in several
	// transactions, to keep each short enough not to stall the service's own writes; on error, the
	// records of the transactions committed before it stay written and the result says which.
	WriteBatch(ctx context.Context, rs []Record, mode WriteMode) (BatchResult, error)
	// Ping reports whether the store can serve requests.
	Ping(ctx context.Context) error
	// ProbeWrite does the work a write needs (a committed write of its own, and whatever else the
	// backend needs, such as free disk space) without storing a record, and returns nil, or an error
	// wrapping ErrNotWritable when the store cannot write for a reason on the server's side (or
	// another error when it cannot tell). WriteHealth calls it behind /readyz.
	ProbeWrite(ctx context.Context) error
	// Close releases the store's resources.
	Close() error
}

// WriteProber is the part of Store that WriteHealth needs to probe a store.
type WriteProber interface {
	ProbeWrite(ctx context.Context) error
}

// WriteMode says what WriteBatch does with a record whose key is already stored.
type WriteMode int

const (
	// Upsert replaces an existing record, as Put does.
	Upsert WriteMode = iota
	// InsertOnly leaves an existing record alone and refuses the new one.
	InsertOnly
)

// String returns the mode's name as the import command spells it.
func (m WriteMode) String() string {
	switch m {
	case Upsert:
		return "upsert"
	case InsertOnly:
		return "insert-only"
	}
	return "WriteMode(?)"
}

// Outcome is what WriteBatch did with one record.
type Outcome uint8

const (
	// Inserted means the record was new and is now stored.
	Inserted Outcome = iota + 1
	// Updated means a record with the key existed and was replaced (Upsert only).
	Updated
	// Refused means a record with the key existed and was left alone (InsertOnly only).
	Refused
)

// BatchResult reports what WriteBatch did.
type BatchResult struct {
	// Outcomes holds one entry per record given, in the same order. An entry is zero for a record
	// not written because WriteBatch failed first.
	Outcomes []Outcome
	// Inserted, Updated and Refused count the entries of Outcomes of each kind.
	Inserted, Updated, Refused int
}

// Add records outcome o for the record at index i.
func (r *BatchResult) Add(i int, o Outcome) {
	r.Outcomes[i] = o
	switch o {
	case Inserted:
		r.Inserted++
	case Updated:
		r.Updated++
	case Refused:
		r.Refused++
	}
}

// NewBatchResult returns a result for a batch of n records with no outcome recorded yet.
func NewBatchResult(n int) BatchResult {
	return BatchResult{Outcomes: make([]Outcome, n)}
}
