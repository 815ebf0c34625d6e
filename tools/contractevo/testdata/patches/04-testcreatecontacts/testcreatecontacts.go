package service

import (
	"context"
	"strconv"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
)

// maxTestContacts bounds one TestCreateContacts call, so a single request cannot fill the store.
const maxTestContacts = 100

// TestCreateContactsContext creates (or replaces) count test contacts with the ids prefix-1 … prefix-count,
// each the record TestCreateContact would store for its id, and returns them in that order.
func (s *Service) TestCreateContactsContext(ctx context.Context, req *gen.TestCreateContacts) (*gen.TestCreateContactsResponse, error) {
	if req.Count < 1 || req.Count > maxTestContacts {
		return nil, fault.Errorf(fault.InvalidArgument, "The parameter count must be between 1 and %d (got %d).", maxTestContacts, req.Count)
	}
	list := &gen.ArrayOfContact{Contact: make([]*gen.Contact, 0, req.Count)}
	for i := 1; i <= int(req.Count); i++ {
		id := req.Prefix + "-" + strconv.Itoa(i)
		if err := validateID(id); err != nil {
			return nil, err
		}
		c := TestContact(id)
		if err := s.put(ctx, c); err != nil {
			return nil, err
		}
		list.Contact = append(list.Contact, c)
	}
	return &gen.TestCreateContactsResponse{TestCreateContactsResult: list}, nil
}
