package transfer_test

import (
	"errors"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
	"github.com/contactsync/contactsync/server/wire"
)

// Contact is the tests' flat view of a contact, converted to the stored record with the generated
// record codec (rec) and back (fromRec).
type Contact struct {
	ID, AccountID, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress string
	RoleIDs                                                                  []string
}

// wireOf returns c as the wire type, with a non-nil (possibly empty) role list, as the service writes.
func wireOf(c Contact) *gen.Contact {
	roles := make([]*string, len(c.RoleIDs))
	for i := range c.RoleIDs {
		roles[i] = &c.RoleIDs[i]
	}
	return &gen.Contact{Id: c.ID, AccountId: c.AccountID, FirstName: c.FirstName, LastName: c.LastName,
		PhoneMobile: c.PhoneMobile, PhoneWork: c.PhoneWork, EmailAddress: c.EmailAddress,
		RoleIds: &gen.ArrayOfString{Astring: roles}}
}

// rec returns c as the store keeps it.
func (c Contact) rec() store.Record {
	w := wireOf(c)
	return store.Record{Key: w.RecordKey(), Index: w.RecordIndex(), Doc: w.AppendRecord(nil)}
}

// fromWire returns the flat view of w.
func fromWire(w *gen.Contact) Contact {
	c := Contact{ID: w.Id, AccountID: w.AccountId, FirstName: w.FirstName, LastName: w.LastName,
		PhoneMobile: w.PhoneMobile, PhoneWork: w.PhoneWork, EmailAddress: w.EmailAddress}
	if w.RoleIds != nil {
		for _, r := range w.RoleIds.Astring {
			c.RoleIDs = append(c.RoleIDs, *r)
		}
	}
	return c
}

// fromRec returns the flat view of a stored record.
func fromRec(r store.Record) Contact {
	var w gen.Contact
	if err := wire.DecodeRecord(r.Doc, wire.RecordLenient, &w); err != nil {
		panic(err)
	}
	return fromWire(&w)
}

// conv is a stand-in for the service's conversion (service.FromRecord and service.Records.Check),
// which this package must not import; the command's tests run the real one. It refuses an empty id,
// as the service does, so refusals can be tested.
var conv = transfer.Convert{
	ToWire: func(r store.Record) (*gen.Contact, error) {
		var w gen.Contact
		if err := wire.DecodeRecord(r.Doc, wire.RecordLenient, &w); err != nil {
			return nil, err
		}
		if w.RoleIds == nil {
			w.RoleIds = &gen.ArrayOfString{}
		}
		return &w, nil
	},
	FromWire: func(w *gen.Contact) (store.Record, error) {
		if w.Id == "" {
			return store.Record{}, errors.New("Id is required")
		}
		if w.RoleIds != nil {
			for _, r := range w.RoleIds.Astring {
				if r == nil {
					return store.Record{}, errors.New("RoleIds has a nil entry")
				}
			}
		}
		return fromWire(w).rec(), nil
	},
}
