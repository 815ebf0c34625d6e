package store

import (
	"context"
	"errors"
)

// Bulk is what moving data in and out of a store needs beyond Store: backup, export, import and copy
// (package transfer and the contactsync commands of those names). It is an interface of its own, not
// part of Store, because the service never needs it and every fake store of the service's tests would
// otherwise have to grow three methods it never calls. Every backend implements both (BulkStore).
type Bulk interface {
	// Scan calls fn with every stored contact, in ascending order of ID compared byte by byte (the
	// order of their UTF-8 encodings, the same on every backend), all read from one consistent
	// snapshot: a write committed while Scan runs is either seen completely or not at all, and the
	// contacts seen are exactly those of one moment. Contacts are streamed, so memory stays flat
	// whatever the store holds. Writes made while Scan runs (by other goroutines, or by other
	// processes sharing the store) are not seen and do not wait for it. Scan stops at the first error
	// fn returns and returns it unchanged; fn may keep the Contact it is given.
	Scan(ctx context.Context, fn func(Contact) error) error
	// WriteBatch writes cs, whose IDs must be distinct, and reports for each whether it was
	// inserted, updated or refused. Under Upsert an existing contact is replaced, as by Put; under
	// InsertOnly it is left alone and refused. A backend may commit one batch in several
	// transactions, to keep each short enough not to stall the service's own writes; on error, the
	// contacts of the transactions committed before it stay written and the result says which.
	WriteBatch(ctx context.Context, cs []Contact, mode WriteMode) (BatchResult, error)
	// Count returns how many contacts the store holds.
	Count(ctx context.Context) (int64, error)
}

// BulkStore is a Store that also implements Bulk, as both backends do.
type BulkStore interface {
	Store
	Bulk
}

// WriteMode says what WriteBatch does with a contact whose ID is already stored.
type WriteMode int

const (
	// Upsert replaces an existing contact, as Put does.
	Upsert WriteMode = iota
	// InsertOnly leaves an existing contact alone and refuses the new one.
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

// Outcome is what WriteBatch did with one contact.
type Outcome uint8

const (
	// Inserted means the contact was new and is now stored.
	Inserted Outcome = iota + 1
	// Updated means a contact with the ID existed and was replaced (Upsert only).
	Updated
	// Refused means a contact with the ID existed and was left alone (InsertOnly only).
	Refused
)

// BatchResult reports what WriteBatch did.
type BatchResult struct {
	// Outcomes holds one entry per contact given, in the same order. An entry is zero for a contact
	// not written because WriteBatch failed first.
	Outcomes []Outcome
	// Inserted, Updated and Refused count the entries of Outcomes of each kind.
	Inserted, Updated, Refused int
}

// Add records outcome o for the contact at index i.
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

// NewBatchResult returns a result for a batch of n contacts with no outcome recorded yet.
func NewBatchResult(n int) BatchResult {
	return BatchResult{Outcomes: make([]Outcome, n)}
}

// ErrBulkUnsupported is returned by a decorator's Bulk methods when the store it wraps does not
// implement Bulk.
var ErrBulkUnsupported = errors.New("store does not support bulk operations")
