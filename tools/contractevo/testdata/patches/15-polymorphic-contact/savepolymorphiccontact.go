package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
)

// SavePolymorphicContactContext stores the contact it is given, every field of it, its polymorphic Pet
// (an Animal, a Dog or a Parrot, the type the request's xsi:type named) included, replacing a stored
// contact with the same id, and returns it as stored.
func (s *Service) SavePolymorphicContactContext(ctx context.Context, req *gen.SavePolymorphicContact) (*gen.SavePolymorphicContactResponse, error) {
	if req.Contact == nil {
		return nil, fault.Errorf(fault.InvalidArgument, "The parameter contact is required.")
	}
	if err := validateID(req.Contact.Id); err != nil {
		return nil, err
	}
	if err := s.store.Put(ctx, ToRecord(req.Contact)); err != nil {
		return nil, storeError(err, req.Contact.Id)
	}
	return &gen.SavePolymorphicContactResponse{SavePolymorphicContactResult: req.Contact}, nil
}
