package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
)

// ReadContactEmailContext returns contact id's e-mail address. Its contract renames what ASMX lets a
// method rename: the result element is Email ([return: XmlElement("Email")]), the response wrapper
// ReadContactEmailReply (ResponseElementName), and the parameter is contactId on SOAP while HTTP GET
// and POST call it id.
func (s *Service) ReadContactEmailContext(ctx context.Context, req *gen.ReadContactEmail) (*gen.ReadContactEmailReply, error) {
	if err := validateID(req.ContactId); err != nil {
		return nil, err
	}
	c, err := s.get(ctx, req.ContactId)
	if err != nil {
		return nil, err
	}
	return &gen.ReadContactEmailReply{Email: c.EmailAddress}, nil
}
