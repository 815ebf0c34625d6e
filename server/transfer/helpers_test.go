package transfer_test

import (
	"errors"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
)

// conv is a stand-in for the service's conversion (service.ToWire and service.FromWire), which this
// package must not import; the command's tests run the real one. It refuses an empty id, as the
// service does, so refusals can be tested.
var conv = transfer.Convert{
	ToWire: func(c store.Contact) *gen.Contact {
		roles := make([]*string, len(c.RoleIDs))
		for i := range c.RoleIDs {
			roles[i] = &c.RoleIDs[i]
		}
		return &gen.Contact{Id: c.ID, AccountId: c.AccountID, FirstName: c.FirstName, LastName: c.LastName,
			PhoneMobile: c.PhoneMobile, PhoneWork: c.PhoneWork, EmailAddress: c.EmailAddress,
			RoleIds: &gen.ArrayOfString{Astring: roles}}
	},
	FromWire: func(w *gen.Contact) (store.Contact, error) {
		if w.Id == "" {
			return store.Contact{}, errors.New("Id is required")
		}
		c := store.Contact{ID: w.Id, AccountID: w.AccountId, FirstName: w.FirstName, LastName: w.LastName,
			PhoneMobile: w.PhoneMobile, PhoneWork: w.PhoneWork, EmailAddress: w.EmailAddress}
		if w.RoleIds != nil {
			for _, r := range w.RoleIds.Astring {
				c.RoleIDs = append(c.RoleIDs, *r)
			}
		}
		return c, nil
	},
}
