package service

import (
	"context"
	"errors"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/store"
)

// maxListIDs bounds ReadContactList: one call reads at most this many contacts, so a caller cannot
// make one request hold the store for long.
const maxListIDs = 100

// ReadContactListContext reads several contacts at once: the stored ones among ids, in the order
// asked, and the ids not found, in Missing. AsOf is the caller's asOf as the service read it, so the
// caller sees the instant it sent come back (the list is read as it is now; the store keeps no
// history).
func (s *Service) ReadContactListContext(ctx context.Context, req *gen.ReadContactList) (*gen.ReadContactListResponse, error) {
	list := &gen.ContactList{AsOf: req.AsOf, Contacts: &gen.ArrayOfContact{}, Missing: &gen.ArrayOfString{}}
	if req.Ids == nil {
		return &gen.ReadContactListResponse{ReadContactListResult: list}, nil
	}
	if len(req.Ids.Astring) > maxListIDs {
		return nil, fault.Errorf(fault.InvalidArgument, "The parameter ids lists %d ids; at most %d are read at once.", len(req.Ids.Astring), maxListIDs)
	}
	for i, id := range req.Ids.Astring {
		if id == nil {
			return nil, fault.Errorf(fault.InvalidArgument, "Item %d of the parameter ids is nil.", i+1)
		}
		if err := validateID(*id); err != nil {
			var e *fault.Error
			if errors.As(err, &e) {
				return nil, fault.Errorf(fault.InvalidArgument, "Item %d of the parameter ids is not a valid id: %s", i+1, e.Message)
			}
			return nil, err
		}
		r, err := s.store.Get(ctx, *id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			list.Missing.Astring = append(list.Missing.Astring, id)
		case err != nil:
			return nil, storeError(err, *id)
		default:
			c, err := FromRecord(r)
			if err != nil {
				return nil, fault.InternalError(err)
			}
			list.Contacts.Contact = append(list.Contacts.Contact, c)
		}
	}
	return &gen.ReadContactListResponse{ReadContactListResult: list}, nil
}
