// Package service is the Contact Synchronization Service itself: Service implements the generated
// server interface (gen.SyncServiceSoapServer) over a store, and holds the semantics of every operation
// (validation, the test data TestCreateContact and TestUpdateContact write, how store failures are
// reported), and converts the contract's record (gen.Contact) to and from what the store keeps
// (store.Record) with the generated record codec. It knows no binding: every binding calls it through
// the generated operation table. It may import gen, server/fault, server/store and server/wire (the
// record codec's runtime, and the value types, such as xsd.DateTime, generated fields of some XSD
// types have), and never a binding.
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
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
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
	if err := s.put(ctx, c); err != nil {
		return nil, err
	}
	return &gen.TestCreateContactResponse{TestCreateContactResult: c}, nil
}

// TestUpdateContactContext applies the deterministic test update to an existing contact.
func (s *Service) TestUpdateContactContext(ctx context.Context, req *gen.TestUpdateContact) (*gen.TestUpdateContactResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	updated, err := s.update(ctx, req.Id, func(c *gen.Contact) (*gen.Contact, error) { return TestUpdate(c), nil })
	if err != nil {
		return nil, err
	}
	return &gen.TestUpdateContactResponse{TestUpdateContactResult: updated}, nil
}

// update applies change to stored contact id in one store transaction and returns the result, its
// failures mapped as storeError says. Members of the stored document the contract does not know
// (fields of a newer contract, issue 34) are carried into the new document, so an older binary
// updating a record written by a newer one loses nothing: an operation that updates a contact goes
// through here.
func (s *Service) update(ctx context.Context, id string, change func(*gen.Contact) (*gen.Contact, error)) (*gen.Contact, error) {
	var updated *gen.Contact
	_, err := s.store.Update(ctx, id, func(r store.Record) (store.Record, error) {
		var rd recordwire.Reader
		c := new(gen.Contact)
		rd.Reset(r.Doc, recordwire.Lenient|recordwire.Alias)
		err := c.DecodeRecord(&rd)
		if err == nil {
			err = rd.End()
		}
		if err != nil {
			return store.Record{}, fmt.Errorf("stored contact %q: %w", r.Key, err)
		}
		if updated, err = change(c); err != nil {
			return store.Record{}, err
		}
		out := ToRecord(updated)
		if rd.SawUnknown() {
			// Only a document holding members the contract lacks pays for the second pass.
			if out.Doc, err = Records.Type.CarryUnknown(r.Doc, out.Doc); err != nil {
				return store.Record{}, fmt.Errorf("stored contact %q: %w", r.Key, err)
			}
		}
		return out, nil
	})
	if err != nil {
		return nil, storeError(err, id)
	}
	return updated, nil
}

// DeleteContactContext removes a contact and returns the record that was removed.
func (s *Service) DeleteContactContext(ctx context.Context, req *gen.DeleteContact) (*gen.DeleteContactResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	r, err := s.store.Delete(ctx, req.Id)
	if err != nil {
		return nil, storeError(err, req.Id)
	}
	c, err := FromRecord(r)
	if err != nil {
		return nil, fault.InternalError(err)
	}
	return &gen.DeleteContactResponse{DeleteContactResult: c}, nil
}

// ReadContactContext returns a stored contact.
func (s *Service) ReadContactContext(ctx context.Context, req *gen.ReadContact) (*gen.ReadContactResponse, error) {
	if err := validateID(req.Id); err != nil {
		return nil, err
	}
	c, err := s.get(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return &gen.ReadContactResponse{ReadContactResult: c}, nil
}

// get reads contact id from the store, as an operation reads one: a missing contact is NotFound, a
// store failure Unavailable (or OutcomeUnknown, Internal), as storeError says.
func (s *Service) get(ctx context.Context, id string) (*gen.Contact, error) {
	r, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, storeError(err, id)
	}
	c, err := FromRecord(r)
	if err != nil {
		return nil, fault.InternalError(err)
	}
	return c, nil
}

// put creates or replaces contact c in the store, its failures mapped as storeError says.
func (s *Service) put(ctx context.Context, c *gen.Contact) error {
	if err := s.store.Put(ctx, ToRecord(c)); err != nil {
		return storeError(err, c.Id)
	}
	return nil
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

// TestContact is the contact TestCreateContact stores for id: every field non-empty and derived from
// a hash of the id, so the same id always yields the same contact and different ids rarely collide.
func TestContact(id string) *gen.Contact {
	sum := sha256.Sum256([]byte(id))
	h := hex.EncodeToString(sum[:])
	user, role := "role-user", "role-"+h[8:12]
	return &gen.Contact{
		Id:           id,
		AccountId:    "ACC-" + h[:8],
		FirstName:    "Test",
		LastName:     "Contact " + h[:6],
		PhoneMobile:  fmt.Sprintf("+1-555-%04d", digits(sum[0:2])),
		PhoneWork:    fmt.Sprintf("+1-555-%04d", digits(sum[2:4])),
		EmailAddress: "test." + h[:8] + "@example.com",
		RoleIds:      &gen.ArrayOfString{Astring: []*string{&user, &role}},
	}
}

// TestRecord is TestContact(id) as the store keeps it: what TestCreateContact stores.
func TestRecord(id string) store.Record {
	return ToRecord(TestContact(id))
}

// TestUpdate is the change TestUpdateContact applies, returned as a new contact (c is not changed). It
// is deterministic and idempotent: it marks the record as updated (first name, e-mail, work phone, an
// added role) without touching the id or account, so updating twice yields the same record as
// updating once and a concurrent history is easy to check. Every other field is kept as stored.
func TestUpdate(c *gen.Contact) *gen.Contact {
	sum := sha256.Sum256([]byte(c.Id))
	h := hex.EncodeToString(sum[:])
	u := *c
	u.FirstName = "Updated"
	u.EmailAddress = "updated." + h[:8] + "@example.com"
	u.PhoneWork = fmt.Sprintf("+1-555-%04d", digits(sum[4:6]))
	var roles []*string
	if c.RoleIds != nil {
		roles = make([]*string, 0, len(c.RoleIds.Astring)+1)
		for _, r := range c.RoleIds.Astring {
			if r == nil || *r != updatedRole {
				roles = append(roles, r)
			}
		}
	}
	updated := updatedRole
	u.RoleIds = &gen.ArrayOfString{Astring: append(roles, &updated)}
	return &u
}

const updatedRole = "role-updated"

// digits turns two hash bytes into a four-digit number.
func digits(b []byte) int {
	return (int(b[0])<<8 | int(b[1])) % 10000
}

// recordSize is the buffer ToRecord starts with: a contact's document is a few hundred bytes, so one
// allocation usually holds it.
const recordSize = 384

// ToRecord converts a contact to what the store keeps: its key, its indexed field and its canonical
// document, all from the generated record codec (gen: the -record flags), so a field added to the
// contract is stored with no code here.
func ToRecord(c *gen.Contact) store.Record {
	return store.Record{Key: c.RecordKey(), Index: c.RecordIndex(), Doc: c.AppendRecord(make([]byte, 0, recordSize))}
}

// FromRecord converts a stored record back to the contact. It reads leniently: a key the contract
// does not have (a field removed from the contract, in a row migrate has not rewritten) is skipped,
// and a field the document lacks (one added to the contract since the row was written) reads as its
// Go zero value, as the XML decoder gives a missing element. The contact's strings may share r.Doc's memory
// (recordwire.Alias: no copy per field on the read path), so the caller must not change r.Doc
// afterwards; the store hands every record over for good.
func FromRecord(r store.Record) (*gen.Contact, error) {
	// The strings alias the document, which the store handed over and nothing writes again.
	c := new(gen.Contact)
	if err := c.UnmarshalRecord(r.Doc, recordwire.Lenient|recordwire.Alias); err != nil {
		return nil, fmt.Errorf("stored contact %q: %w", r.Key, err)
	}
	return c, nil
}

// RecordSchema is what the data commands (export, import, copy: package transfer) and the store's
// maintenance (serve's field check, migrate) need of the contract's record, so that they never name
// the record type or a field of it.
type RecordSchema struct {
	// Type is the generated descriptor of the record type: its fields' paths, key and index, and a
	// constructor for its codec.
	Type *recordwire.Type
	// Check refuses, naming the field, what the service itself would never store or could not
	// return: import applies it to every record it reads from a file, given the record and its
	// canonical document.
	Check func(rec recordwire.Record, doc []byte) error
}

// Records is the contract's record as the data commands and the maintenance see it.
var Records = RecordSchema{Type: gen.ContactRecord, Check: checkRecord}

// checkRecord refuses a contact the service would never store or could not return: an id the
// operations would reject (see validateID), and text that is not valid UTF-8 or holds a character
// XML 1.0 cannot carry (a contact with one could not be read back over SOAP). The text is found by
// walking doc, the record's canonical document, so a string field a contract edit adds, nested or in
// an array, is checked with no line here.
func checkRecord(rec recordwire.Record, doc []byte) error {
	w, ok := rec.(*gen.Contact)
	if !ok || w == nil {
		return fmt.Errorf("not a contact (%T)", rec)
	}
	if err := validateID(w.Id); err != nil {
		var e *fault.Error
		if errors.As(err, &e) {
			//lint:ignore ST1005 the message starts with the field's name as import's users see it in their file
			return fmt.Errorf("Id is not a valid contact id: %s", e.Message)
		}
		return err
	}
	return recordwire.EachString(doc, func(path, s string) error {
		if err := checkXMLText(s); err != nil {
			return fmt.Errorf("%s %w", path, err)
		}
		return nil
	})
}

// checkXMLText reports text that is not valid UTF-8 or holds a character outside XML 1.0's Char
// production (xmlwire.IsXMLChar). The error reads as the end of a sentence naming the field.
func checkXMLText(s string) error {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return fmt.Errorf("is not valid UTF-8 (at byte %d)", i)
		case !xmlwire.IsXMLChar(r):
			return fmt.Errorf("holds a character XML cannot carry (U+%04X)", r)
		}
		i += size
	}
	return nil
}
