package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
)

// EchoContactContext returns the contact it is given, unchanged: a client checks with it that a Contact
// survives its serializer and ours in both directions.
func (s *Service) EchoContactContext(_ context.Context, req *gen.EchoContact) (*gen.EchoContactResponse, error) {
	if req.Contact == nil {
		return nil, fault.Errorf(fault.InvalidArgument, "The parameter contact is required.")
	}
	return &gen.EchoContactResponse{EchoContactResult: req.Contact}, nil
}
