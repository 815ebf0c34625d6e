package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
)

// ReadContactNameContext is a document/literal bare operation, as an ASMX method
// [SoapDocumentMethod(ParameterStyle = SoapParameterStyle.Bare)] string ReadContactName(string
// contactId, int maxLength) would be: its SOAP body holds the elements contactId and maxLength
// themselves and its answer the element ReadContactNameResult, while the generated request and
// response types look like any other operation's. It returns the contact's first and last name, cut
// to maxLength characters when that is positive.
func (s *Service) ReadContactNameContext(ctx context.Context, req *gen.ReadContactNameRequest) (*gen.ReadContactNameResponse, error) {
	if err := validateID(req.ContactId); err != nil {
		return nil, err
	}
	c, err := s.get(ctx, req.ContactId)
	if err != nil {
		return nil, err
	}
	name := []rune(c.FirstName + " " + c.LastName)
	if req.MaxLength > 0 && int(req.MaxLength) < len(name) {
		name = name[:req.MaxLength]
	}
	return &gen.ReadContactNameResponse{ReadContactNameResult: string(name)}, nil
}
