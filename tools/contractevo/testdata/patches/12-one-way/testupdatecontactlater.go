package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
)

// TestUpdateContactLaterContext is TestUpdateContact as a one-way operation: over SOAP the caller
// has its 202 before this runs, and an unknown id is logged and counted, not answered; over HTTP GET
// and POST it runs before the empty answer, and an unknown id is their 404.
func (s *Service) TestUpdateContactLaterContext(ctx context.Context, req *gen.TestUpdateContactLater) error {
	_, err := s.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: req.Id})
	return err
}
