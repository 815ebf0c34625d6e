// Package store defines how contacts are kept: the Store interface every backend implements, the
// Contact record it stores and the errors it reports. Backends live in sub-packages (sqlite and
// postgres); storetest holds the conformance suite they all run.
package store

import (
	"context"
	"errors"
	"fmt"
)

// Contact is one stored contact record. Field order follows the spec's Contact resource (§2).
type Contact struct {
	ID           string
	AccountID    string
	FirstName    string
	LastName     string
	PhoneMobile  string
	PhoneWork    string
	EmailAddress string
	// RoleIDs keeps its order; nil and empty are equivalent.
	RoleIDs []string
}

// ErrNotFound is returned (possibly wrapped) when no contact has the requested id.
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
// should say so and have the client read the contact before retrying.
var ErrOutcomeUnknown = errors.New("the outcome of the write is unknown")

// ErrNotWritable is returned (wrapped, next to the driver's cause) when the store cannot write for a
// reason on the server's side that no request caused and a retry later may not meet: the disk is full,
// the database or its file system is read-only, an I/O error, or (PostgreSQL) the server is out of disk
// space. It wraps ErrUnavailable, so callers answer it the same way (503 with Retry-After); a
// WriteHealth watching the store also makes /readyz report the instance not ready until a probe
// finds the store writable again.
var ErrNotWritable = fmt.Errorf("%w: it cannot write (disk full, read-only or I/O error)", ErrUnavailable)

// Store keeps contacts durably. Every method is safe for concurrent use. A write that returned nil is
// durable: it survives the process being killed right after. Writes to one contact are atomic.
type Store interface {
	// Put creates the contact or replaces the stored contact with the same ID.
	Put(ctx context.Context, c Contact) error
	// Get returns the contact with the given id, or ErrNotFound.
	Get(ctx context.Context, id string) (Contact, error)
	// Update reads the contact with the given id, applies change to it and stores the result, all in
	// one transaction, so concurrent updates of one id never lose each other's changes. It returns the
	// stored result, ErrNotFound when the id is unknown, or the error change returned (storing nothing).
	// change may be called more than once if the transaction is retried; it must not have side effects.
	// It may run while the backend holds a write lock, so it must be quick and must not call the Store.
	Update(ctx context.Context, id string, change func(Contact) (Contact, error)) (Contact, error)
	// Delete removes the contact with the given id and returns what was removed, or ErrNotFound.
	Delete(ctx context.Context, id string) (Contact, error)
	// Ping reports whether the store can serve requests.
	Ping(ctx context.Context) error
	// Close releases the store's resources.
	Close() error
}
