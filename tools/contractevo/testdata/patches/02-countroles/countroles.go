package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
)

// CountRolesContext returns how many roles contact id has, but no more than max: a caller that only
// needs to know whether a contact has "at least max" roles says so, and the answer stays bounded.
func (s *Service) CountRolesContext(ctx context.Context, req *gen.CountRoles) (*gen.CountRolesResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	if req.Max < 0 {
		return nil, fault.Errorf(fault.InvalidArgument, "The parameter max must not be negative (got %d).", req.Max)
	}
	c, err := s.get(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	roles := 0
	if c.RoleIds != nil {
		roles = len(c.RoleIds.Astring)
	}
	return &gen.CountRolesResponse{CountRolesResult: int32(min(roles, int(req.Max)))}, nil
}
