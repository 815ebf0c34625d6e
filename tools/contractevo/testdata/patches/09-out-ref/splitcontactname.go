package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
)

// SplitContactNameContext has out and ref parameters, as an ASMX method
// string SplitContactName(string id, out string lastName, ref int calls) would: it answers contact
// id's first name, its last name in lastName, and calls plus one; the generated response type
// carries all three.
func (s *Service) SplitContactNameContext(ctx context.Context, req *gen.SplitContactName) (*gen.SplitContactNameResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	c, err := s.get(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return &gen.SplitContactNameResponse{SplitContactNameResult: c.FirstName, LastName: c.LastName, Calls: req.Calls + 1}, nil
}
