// Package service is the Contact Synchronization Service itself: Service implements the generated
// server interface (gen.SyncServiceSoapServer) over a store, and holds the semantics of every operation
// (validation, the test data TestCreateContact and TestUpdateContact write, how store failures are
// reported). It knows no binding: every binding calls it through the generated operation table. It
// may import gen, server/fault, server/store and server/wire (whose value types, such as
// wire.DateTime, generated fields of some XSD types have), and never a binding.
package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/store"
)

// The service version. The path and namespace segment v1 is VersionMajor (spec §9); Version is
// "major.minor" so its parts always match the two integer operations.
const (
	VersionMajor = 1
	VersionMinor = 0
)

// Version is the service version string returned by the Version operation.
var Version = strconv.Itoa(VersionMajor) + "." + strconv.Itoa(VersionMinor)

// MaxIDLength is the largest id accepted, in Unicode code points. The spec sets no limit (§2); 256
// fits every identifier scheme we know of (GUIDs, URNs, e-mail-like keys) while keeping rows small.
const MaxIDLength = 256

// Service implements the generated server interface (gen.SyncServiceSoapServer) over a store. Every
// binding calls it through the generated operation table, so the semantics live here once, and this is
// the only code a new operation needs written: its method.
type Service struct {
	store store.Store
}

// Service implements the generated server interface; after a contract edit adds an operation, this
// line is where the compiler reports the method to write.
var _ gen.SyncServiceSoapServer = (*Service)(nil)

// New returns a Service that keeps contacts in s.
func New(s store.Store) *Service {
	return &Service{store: s}
}

// TestCreateContactContext creates contact id, or replaces it, with test data derived from the id.
func (s *Service) TestCreateContactContext(ctx context.Context, req *gen.TestCreateContact) (*gen.TestCreateContactResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	c := TestContact(req.Id)
	if err := s.store.Put(ctx, c); err != nil {
		return nil, storeError(err, req.Id)
	}
	return &gen.TestCreateContactResponse{TestCreateContactResult: toWire(c)}, nil
}

// TestUpdateContactContext applies the deterministic test update to an existing contact.
func (s *Service) TestUpdateContactContext(ctx context.Context, req *gen.TestUpdateContact) (*gen.TestUpdateContactResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	c, err := s.store.Update(ctx, req.Id, func(c store.Contact) (store.Contact, error) {
		return TestUpdate(c), nil
	})
	if err != nil {
		return nil, storeError(err, req.Id)
	}
	return &gen.TestUpdateContactResponse{TestUpdateContactResult: toWire(c)}, nil
}

// DeleteContactContext removes a contact and returns the record that was removed.
func (s *Service) DeleteContactContext(ctx context.Context, req *gen.DeleteContact) (*gen.DeleteContactResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	c, err := s.store.Delete(ctx, req.Id)
	if err != nil {
		return nil, storeError(err, req.Id)
	}
	return &gen.DeleteContactResponse{DeleteContactResult: toWire(c)}, nil
}

// ReadContactContext returns a stored contact.
func (s *Service) ReadContactContext(ctx context.Context, req *gen.ReadContact) (*gen.ReadContactResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	c, err := s.store.Get(ctx, req.Id)
	if err != nil {
		return nil, storeError(err, req.Id)
	}
	return &gen.ReadContactResponse{ReadContactResult: toWire(c)}, nil
}

// VersionContext returns the service version string.
func (s *Service) VersionContext(context.Context, *gen.Version) (*gen.VersionResponse, error) {
	return &gen.VersionResponse{VersionResult: Version}, nil
}

// VersionMajorContext returns the major version number.
func (s *Service) VersionMajorContext(context.Context, *gen.VersionMajor) (*gen.VersionMajorResponse, error) {
	return &gen.VersionMajorResponse{VersionMajorResult: VersionMajor}, nil
}

// VersionMinorContext returns the minor version number.
func (s *Service) VersionMinorContext(context.Context, *gen.VersionMinor) (*gen.VersionMinorResponse, error) {
	return &gen.VersionMinorResponse{VersionMinorResult: VersionMinor}, nil
}

// validateID enforces the input rules for the id parameter: present, non-empty, valid UTF-8, at most
// MaxIDLength code points and free of control characters (which XML 1.0 cannot carry reliably and no
// identifier needs). Everything else, markup characters and emoji included, is accepted as is.
func validateID(id string) error {
	switch {
	case id == "":
		return fault.Errorf(fault.InvalidArgument, "The parameter id is required and must not be empty.")
	case !utf8.ValidString(id):
		return fault.Errorf(fault.InvalidArgument, "The parameter id is not valid UTF-8.")
	case utf8.RuneCountInString(id) > MaxIDLength:
		return fault.Errorf(fault.InvalidArgument, "The parameter id is longer than %d characters.", MaxIDLength)
	}
	for _, r := range id {
		if unicode.IsControl(r) {
			return fault.Errorf(fault.InvalidArgument, "The parameter id contains a control character (U+%04X).", r)
		}
	}
	return nil
}

// OutcomeUnknownMessage is the message of an OutcomeUnknown answer: what happened and what to do.
const OutcomeUnknownMessage = "The outcome of the write is unknown: the database may or may not have applied it. Read the contact before retrying."

// storeError maps a store failure to the caller-facing error. A write whose commit was sent and whose
// answer was lost is OutcomeUnknown, checked first because its cause may be a deadline too; every other
// failure of the store (and a caller that gave up) is Unavailable, which for a write means it was not
// applied.
func storeError(err error, id string) error {
	if errors.Is(err, store.ErrNotFound) {
		return fault.Errorf(fault.NotFound, "Contact %q does not exist.", id)
	}
	if errors.Is(err, store.ErrOutcomeUnknown) {
		return &fault.Error{Code: fault.OutcomeUnknown, Message: OutcomeUnknownMessage, Err: err}
	}
	if errors.Is(err, store.ErrUnavailable) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &fault.Error{Code: fault.Unavailable, Message: "The contact store is unavailable; retry shortly.", Err: err}
	}
	return fault.InternalError(err)
}

// TestContact is the record TestCreateContact stores for id: every field non-empty and derived from a
// hash of the id, so the same id always yields the same contact and different ids rarely collide.
func TestContact(id string) store.Contact {
	sum := sha256.Sum256([]byte(id))
	h := hex.EncodeToString(sum[:])
	return store.Contact{
		ID:           id,
		AccountID:    "ACC-" + h[:8],
		FirstName:    "Test",
		LastName:     "Contact " + h[:6],
		PhoneMobile:  fmt.Sprintf("+1-555-%04d", digits(sum[0:2])),
		PhoneWork:    fmt.Sprintf("+1-555-%04d", digits(sum[2:4])),
		EmailAddress: "test." + h[:8] + "@example.com",
		RoleIDs:      []string{"role-user", "role-" + h[8:12]},
	}
}

// TestUpdate is the change TestUpdateContact applies. It is deterministic and idempotent: it marks the
// record as updated (first name, e-mail, work phone, an added role) without touching the id or account,
// so updating twice yields the same record as updating once and a concurrent history is easy to check.
func TestUpdate(c store.Contact) store.Contact {
	sum := sha256.Sum256([]byte(c.ID))
	h := hex.EncodeToString(sum[:])
	c.FirstName = "Updated"
	c.EmailAddress = "updated." + h[:8] + "@example.com"
	c.PhoneWork = fmt.Sprintf("+1-555-%04d", digits(sum[4:6]))
	roles := make([]string, 0, len(c.RoleIDs)+1)
	for _, r := range c.RoleIDs {
		if r != updatedRole {
			roles = append(roles, r)
		}
	}
	c.RoleIDs = append(roles, updatedRole)
	return c
}

const updatedRole = "role-updated"

// digits turns two hash bytes into a four-digit number.
func digits(b []byte) int {
	return (int(b[0])<<8 | int(b[1])) % 10000
}

// toWire converts a stored contact to the generated wire type.
func toWire(c store.Contact) *gen.Contact {
	roles := make([]*string, len(c.RoleIDs))
	for i := range c.RoleIDs {
		roles[i] = &c.RoleIDs[i]
	}
	return &gen.Contact{
		Id:           c.ID,
		AccountId:    c.AccountID,
		FirstName:    c.FirstName,
		LastName:     c.LastName,
		PhoneMobile:  c.PhoneMobile,
		PhoneWork:    c.PhoneWork,
		EmailAddress: c.EmailAddress,
		RoleIds:      &gen.ArrayOfString{Astring: roles},
	}
}

// ToWire converts a stored contact to the generated wire type, as every operation returns it. It is
// exported for the data commands (export, copy), which write contacts in the contract's shape.
func ToWire(c store.Contact) *gen.Contact {
	return toWire(c)
}

// FromWire converts a contact in the generated wire type to the stored form, refusing what the
// service itself would never store or could not return: an id the operations would reject (see
// validateID), and text that is not valid UTF-8 or holds a character XML 1.0 cannot carry (a
// contact with one could not be read back over SOAP). It is the inverse of ToWire for every contact
// it accepts, and is exported for the import command, which reads contacts from untrusted files.
func FromWire(w *gen.Contact) (store.Contact, error) {
	if w == nil {
		return store.Contact{}, errors.New("no contact")
	}
	if err := validateID(w.Id); err != nil {
		var e *fault.Error
		if errors.As(err, &e) {
			//lint:ignore ST1005 the message starts with the field's name as import's users see it in their file
			return store.Contact{}, fmt.Errorf("Id is not a valid contact id: %s", e.Message)
		}
		return store.Contact{}, err
	}
	c := store.Contact{
		ID:           w.Id,
		AccountID:    w.AccountId,
		FirstName:    w.FirstName,
		LastName:     w.LastName,
		PhoneMobile:  w.PhoneMobile,
		PhoneWork:    w.PhoneWork,
		EmailAddress: w.EmailAddress,
	}
	for _, f := range []struct{ name, value string }{
		{"AccountId", c.AccountID}, {"FirstName", c.FirstName}, {"LastName", c.LastName},
		{"PhoneMobile", c.PhoneMobile}, {"PhoneWork", c.PhoneWork}, {"EmailAddress", c.EmailAddress},
	} {
		if err := checkXMLText(f.value); err != nil {
			return store.Contact{}, fmt.Errorf("%s %w", f.name, err)
		}
	}
	if w.RoleIds != nil && len(w.RoleIds.Astring) > 0 {
		c.RoleIDs = make([]string, len(w.RoleIds.Astring))
		for i, r := range w.RoleIds.Astring {
			if r == nil {
				return store.Contact{}, fmt.Errorf("RoleIds entry %d is missing", i+1)
			}
			if err := checkXMLText(*r); err != nil {
				return store.Contact{}, fmt.Errorf("RoleIds entry %d %w", i+1, err)
			}
			c.RoleIDs[i] = *r
		}
	}
	return c, nil
}

// checkXMLText reports text that is not valid UTF-8 or holds a character outside XML 1.0's Char
// production (https://www.w3.org/TR/xml/#charsets): controls other than tab, line feed and carriage
// return, surrogates, U+FFFE and U+FFFF. The error reads as the end of a sentence naming the field.
func checkXMLText(s string) error {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return fmt.Errorf("is not valid UTF-8 (at byte %d)", i)
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20 || (r >= 0xD800 && r <= 0xDFFF) || r == 0xFFFE || r == 0xFFFF:
			return fmt.Errorf("holds a character XML cannot carry (U+%04X)", r)
		}
		i += size
	}
	return nil
}
