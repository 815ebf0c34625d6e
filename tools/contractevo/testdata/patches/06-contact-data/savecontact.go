package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
)

// SaveContactContext stores the contact it is given, every field of it, replacing a stored contact
// with the same id, and returns it as stored.
func (s *Service) SaveContactContext(ctx context.Context, req *gen.SaveContact) (*gen.SaveContactResponse, error) {
	if req.Contact == nil {
		return nil, fault.Errorf(fault.InvalidArgument, "The parameter contact is required.")
	}
	if err := validateID(req.Contact.Id); err != nil {
		return nil, err
	}
	if err := s.store.Put(ctx, ToRecord(req.Contact)); err != nil {
		return nil, storeError(err, req.Contact.Id)
	}
	return &gen.SaveContactResponse{SaveContactResult: req.Contact}, nil
}

// FindContactsContext returns up to max contacts of the account, in id order, from the store's index
// on the account.
func (s *Service) FindContactsContext(ctx context.Context, req *gen.FindContacts) (*gen.FindContactsResponse, error) {
	if req.Max < 1 || req.Max > 1000 {
		return nil, fault.Errorf(fault.InvalidArgument, "The parameter max must be from 1 to 1000 (got %d).", req.Max)
	}
	rs, err := s.store.ListByIndex(ctx, req.AccountId, "", int(req.Max))
	if err != nil {
		return nil, storeError(err, req.AccountId)
	}
	list := &gen.ArrayOfContact{}
	for _, r := range rs {
		c, err := FromRecord(r)
		if err != nil {
			return nil, fault.InternalError(err)
		}
		list.Contact = append(list.Contact, c)
	}
	return &gen.FindContactsResponse{FindContactsResult: list}, nil
}
