package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/contactsync/contactsync/server/store"
)

// contact is the record most of the suite stores: a small document type of the suite's own (it is
// not the contract's Contact, which the store knows nothing of), with a list whose order and
// nil-versus-empty a backend could get wrong. Its ID is the record's key and its AccountID the
// record's index, and both are in the document too, as the generated record codec writes them, so
// the suite checks that every method hands back the Key and Index the document says.
type contact struct {
	ID           string   `json:"Id"`
	AccountID    string   `json:"AccountId"`
	FirstName    string   `json:"FirstName"`
	LastName     string   `json:"LastName"`
	PhoneMobile  string   `json:"PhoneMobile"`
	PhoneWork    string   `json:"PhoneWork"`
	EmailAddress string   `json:"EmailAddress"`
	RoleIDs      []string `json:"RoleIds"`
}

// record encodes c as the store keeps it.
func record(c contact) store.Record {
	doc, err := json.Marshal(c)
	if err != nil {
		panic(err) // strings and a slice of strings always encode
	}
	return store.Record{Key: c.ID, Index: c.AccountID, Doc: doc}
}

// decode decodes a record the store returned, and checks that its Key and Index agree with its
// document.
func decode(r store.Record) (contact, error) {
	var c contact
	if err := json.Unmarshal(r.Doc, &c); err != nil {
		return contact{}, fmt.Errorf("record %q: document %q: %w", r.Key, r.Doc, err)
	}
	if r.Key != c.ID || r.Index != c.AccountID {
		return contact{}, fmt.Errorf("record (Key %q, Index %q) holds a document with Id %q, AccountId %q", r.Key, r.Index, c.ID, c.AccountID)
	}
	return c, nil
}

// cstore is the store under test seen through contact: every method of store.Store is reachable
// (it embeds it), and the ones the contact tests call have contact counterparts.
type cstore struct {
	store.Store
	t *testing.T
}

func (s cstore) put(ctx context.Context, c contact) error { return s.Store.Put(ctx, record(c)) }

func (s cstore) get(ctx context.Context, id string) (contact, error) {
	r, err := s.Store.Get(ctx, id)
	if err != nil {
		return contact{}, err
	}
	return decode(r)
}

func (s cstore) update(ctx context.Context, id string, change func(contact) (contact, error)) (contact, error) {
	r, err := s.Store.Update(ctx, id, func(r store.Record) (store.Record, error) {
		c, err := decode(r)
		if err != nil {
			return store.Record{}, err
		}
		c, err = change(c)
		return record(c), err
	})
	if err != nil {
		return contact{}, err
	}
	return decode(r)
}

func (s cstore) delete(ctx context.Context, id string) (contact, error) {
	r, err := s.Store.Delete(ctx, id)
	if err != nil {
		return contact{}, err
	}
	return decode(r)
}

func (s cstore) scan(ctx context.Context, fn func(contact) error) error {
	return s.Store.Scan(ctx, func(r store.Record) error {
		c, err := decode(r)
		if err != nil {
			return err
		}
		return fn(c)
	})
}

func (s cstore) writeBatch(ctx context.Context, cs []contact, mode store.WriteMode) (store.BatchResult, error) {
	rs := make([]store.Record, len(cs))
	for i, c := range cs {
		rs[i] = record(c)
	}
	return s.Store.WriteBatch(ctx, rs, mode)
}

func (s cstore) listByIndex(ctx context.Context, index, after string, limit int) ([]contact, error) {
	rs, err := s.Store.ListByIndex(ctx, index, after, limit)
	if err != nil {
		return nil, err
	}
	cs := make([]contact, len(rs))
	for i, r := range rs {
		if r.Index != index {
			return nil, fmt.Errorf("ListByIndex(%q) returned a record of index %q", index, r.Index)
		}
		if cs[i], err = decode(r); err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// ids returns the ids of cs, in order.
func ids(cs []contact) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// sortedIDs returns ids sorted byte by byte (Go compares strings so), the order the store documents.
func sortedIDs(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}
