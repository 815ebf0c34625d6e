package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
)

// codeOf returns the fault code of err, failing when err is not a *fault.Error.
func codeOf(t *testing.T, err error) fault.Code {
	t.Helper()
	return faultOf(t, err).Code
}

// faultOf returns err as the *fault.Error the bindings write, failing when it is not one.
func faultOf(t *testing.T, err error) *fault.Error {
	t.Helper()
	var e *fault.Error
	require.ErrorAs(t, err, &e)
	return e
}

// TestVersions: the three version operations agree with each other and with the constants.
func TestVersions(t *testing.T) {
	svc := service.New(testsupport.OpenSQLite(t))
	ctx := context.Background()
	v, err := svc.VersionContext(ctx, &gen.Version{})
	require.NoError(t, err)
	major, err := svc.VersionMajorContext(ctx, &gen.VersionMajor{})
	require.NoError(t, err)
	minor, err := svc.VersionMinorContext(ctx, &gen.VersionMinor{})
	require.NoError(t, err)
	assert.Equal(t, "1.0", v.VersionResult)
	assert.EqualValues(t, service.VersionMajor, major.VersionMajorResult)
	assert.EqualValues(t, service.VersionMinor, minor.VersionMinorResult)
}

// sameContact compares two contacts as the contract carries them: their record documents, every field
// in its canonical form (an enumeration's zero value is its first value, as .NET writes default(T); a
// dateTime is its lexical form), whatever fields the contract gives Contact.
func sameContact(t *testing.T, want, got *gen.Contact, msg string) {
	t.Helper()
	require.NotNil(t, got, msg)
	assert.Equal(t, string(want.AppendRecord(nil)), string(got.AppendRecord(nil)), msg)
}

// TestContactLifecycle: create, read, update, delete on a real store, and NotFound once deleted.
func TestContactLifecycle(t *testing.T) {
	svc := service.New(testsupport.OpenSQLite(t))
	ctx := context.Background()
	created, err := svc.TestCreateContactContext(ctx, &gen.TestCreateContact{Id: "c-1"})
	require.NoError(t, err)
	c := created.TestCreateContactResult
	assert.Equal(t, "c-1", c.Id)
	sameContact(t, service.TestContact("c-1"), c, "the test data derived from the id")

	read, err := svc.ReadContactContext(ctx, &gen.ReadContact{Id: "c-1"})
	require.NoError(t, err)
	sameContact(t, c, read.ReadContactResult, "read as created")

	updated, err := svc.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: "c-1"})
	require.NoError(t, err)
	u := updated.TestUpdateContactResult
	assert.Equal(t, "Updated", u.FirstName)
	assert.Equal(t, c.AccountId, u.AccountId, "the update keeps the account")
	again, err := svc.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: "c-1"})
	require.NoError(t, err)
	sameContact(t, u, again.TestUpdateContactResult, "updating twice is updating once")

	deleted, err := svc.DeleteContactContext(ctx, &gen.DeleteContact{Id: "c-1"})
	require.NoError(t, err)
	sameContact(t, u, deleted.DeleteContactResult, "delete returns the record removed")
	for name, call := range map[string]func() error{
		"ReadContact": func() error { _, err := svc.ReadContactContext(ctx, &gen.ReadContact{Id: "c-1"}); return err },
		"TestUpdateContact": func() error {
			_, err := svc.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: "c-1"})
			return err
		},
		"DeleteContact": func() error { _, err := svc.DeleteContactContext(ctx, &gen.DeleteContact{Id: "c-1"}); return err },
	} {
		err := call()
		assert.Equal(t, fault.NotFound, codeOf(t, err), name)
		assert.Equal(t, `Contact "c-1" does not exist.`, faultOf(t, err).Message, name)
	}
}

// TestIDRules: every operation taking an id refuses the same ids with InvalidArgument, before the
// store is asked, and accepts markup and characters beyond the BMP as they are.
func TestIDRules(t *testing.T) {
	svc := service.New(testsupport.OpenSQLite(t))
	ctx := context.Background()
	for _, tc := range []struct {
		id, refusal string // refusal "" means accepted
	}{
		{"", "The parameter id is required and must not be empty."},
		{"a\xffb", "The parameter id is not valid UTF-8."},
		{strings.Repeat("é", service.MaxIDLength+1), "The parameter id is longer than 256 characters."},
		{"tab\there", "The parameter id contains a control character (U+0009)."},
		{"del\u007f", "The parameter id contains a control character (U+007F)."},
		{strings.Repeat("é", service.MaxIDLength), ""},
		{`<a href="x">&amp;</a>`, ""},
		{"😀", ""},
	} {
		_, err := svc.TestCreateContactContext(ctx, &gen.TestCreateContact{Id: tc.id})
		_, readErr := svc.ReadContactContext(ctx, &gen.ReadContact{Id: tc.id})
		_, updateErr := svc.TestUpdateContactContext(ctx, &gen.TestUpdateContact{Id: tc.id})
		_, deleteErr := svc.DeleteContactContext(ctx, &gen.DeleteContact{Id: tc.id})
		if tc.refusal == "" {
			assert.NoError(t, err, "%q", tc.id)
			assert.NoError(t, readErr, "%q", tc.id)
			assert.NoError(t, updateErr, "%q", tc.id)
			assert.NoError(t, deleteErr, "%q", tc.id)
			continue
		}
		for _, e := range []error{err, readErr, updateErr, deleteErr} {
			assert.Equal(t, fault.InvalidArgument, codeOf(t, e), "%q", tc.id)
			assert.Equal(t, tc.refusal, faultOf(t, e).Message, "%q", tc.id)
		}
	}
}

// failingStore is a real store whose writes fail with err, as a store fails under an outage.
type failingStore struct {
	store.Store
	err error
}

func (s failingStore) Put(context.Context, store.Record) error { return s.err }

// TestStoreFailures: what a store failure becomes for the caller: a lost commit answer OutcomeUnknown,
// an outage or a caller that gave up Unavailable, anything else Internal, the cause kept for the log.
func TestStoreFailures(t *testing.T) {
	st := testsupport.OpenSQLite(t)
	for _, tc := range []struct {
		err  error
		code fault.Code
	}{
		{store.ErrOutcomeUnknown, fault.OutcomeUnknown},
		{store.ErrUnavailable, fault.Unavailable},
		{context.DeadlineExceeded, fault.Unavailable},
		{errors.New("disk on fire"), fault.Internal},
	} {
		svc := service.New(failingStore{Store: st, err: tc.err})
		_, err := svc.TestCreateContactContext(context.Background(), &gen.TestCreateContact{Id: "x"})
		assert.Equal(t, tc.code, codeOf(t, err), "%v", tc.err)
		assert.ErrorIs(t, err, tc.err, "the cause is kept")
	}

	// A caller that gave up, on the real store.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := service.New(st).ReadContactContext(ctx, &gen.ReadContact{Id: "x"})
	assert.Equal(t, fault.Unavailable, codeOf(t, err))
}

// TestRecordCheckRefusesWhatCannotBeServed: import's gate (service.Records.Check) refuses ids the
// operations refuse and text XML cannot carry, naming the field.
func TestRecordCheckRefusesWhatCannotBeServed(t *testing.T) {
	check := func(w *gen.Contact) error {
		if w == nil {
			return service.Records.Check(nil, nil)
		}
		return service.Records.Check(w, w.AppendRecord(nil))
	}
	require.NoError(t, check(service.TestContact("w-1")))
	for _, tc := range []struct {
		edit    func(*gen.Contact)
		refusal string
	}{
		{func(w *gen.Contact) { w.Id = "" }, "Id is not a valid contact id"},
		{func(w *gen.Contact) { w.FirstName = "a\x00b" }, "FirstName holds a character XML cannot carry (U+0000)"},
		{func(w *gen.Contact) { bad := "r\x0b"; w.RoleIds.Astring[1] = &bad }, "RoleIds[1] holds a character XML cannot carry (U+000B)"},
	} {
		w := service.TestContact("w-1")
		tc.edit(w)
		err := check(w)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.refusal)
	}
	// Text that is not UTF-8 never reaches a canonical document (the encoder writes U+FFFD), so it is
	// refused by the walk of the document the file gave.
	err := service.Records.Check(service.TestContact("w-1"), []byte("{\"Id\":\"w-1\",\"LastName\":\"a\xffb\"}"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid UTF-8")
	// A role stored as null (an xsi:nil item) is something the service can return.
	w := service.TestContact("w-1")
	w.RoleIds.Astring[0] = nil
	require.NoError(t, check(w))
	assert.Error(t, check(nil))
	assert.Equal(t, "Contact", service.Records.Type.Name)
}

// TestRecordRoundTrip: what the service stores reads back as the same contact, the key and index
// are the contact's, and a document written by an older or newer contract (a field missing, a field
// unknown) still reads.
func TestRecordRoundTrip(t *testing.T) {
	c := service.TestContact("r-1")
	r := service.ToRecord(c)
	assert.Equal(t, c.Id, r.Key)
	assert.Equal(t, c.AccountId, r.Index)
	back, err := service.FromRecord(r)
	require.NoError(t, err)
	sameContact(t, c, back, "the record reads back to the contact")

	old, err := service.FromRecord(store.Record{Key: "k", Doc: []byte(`{"Id":"k","Gone":{"x":[1]},"FirstName":"F"}`)})
	require.NoError(t, err)
	assert.Equal(t, &gen.Contact{Id: "k", FirstName: "F"}, old)
	_, err = service.FromRecord(store.Record{Key: "k", Doc: []byte(`{"Id":`)})
	assert.ErrorContains(t, err, `stored contact "k"`)
}

// TestUpdateKeepsWhatItDoesNotChange: TestUpdateContact reads the stored record, changes its fields
// and keeps every other one as stored.
func TestUpdateKeepsWhatItDoesNotChange(t *testing.T) {
	st := testsupport.OpenSQLite(t)
	c := service.TestContact("u-1")
	c.LastName = "kept"
	require.NoError(t, st.Put(context.Background(), service.ToRecord(c)))
	res, err := service.New(st).TestUpdateContactContext(context.Background(), &gen.TestUpdateContact{Id: "u-1"})
	require.NoError(t, err)
	assert.Equal(t, "kept", res.TestUpdateContactResult.LastName)
	sameContact(t, service.TestUpdate(c), res.TestUpdateContactResult, "the update of the stored contact")
	stored, err := st.Get(context.Background(), "u-1")
	require.NoError(t, err)
	back, err := service.FromRecord(stored)
	require.NoError(t, err)
	assert.Equal(t, res.TestUpdateContactResult, back)
}

// TestUpdateCarriesUnknownFields: members of the stored document the contract does not know (fields a
// newer contract added, at the top and in a nested object; named so that no contract the suite's
// edits play has them) survive TestUpdateContact, as protobuf
// keeps unknown fields (issue 34); the update itself applies as usual.
func TestUpdateCarriesUnknownFields(t *testing.T) {
	st := testsupport.OpenSQLite(t)
	c := service.TestContact("u-2")
	doc := service.ToRecord(c).Doc
	doc = append(doc[:len(doc)-1], `,"LegacyBirthday":"1990-02-03T00:00:00Z","LegacyRating":4.5}`...)
	require.NoError(t, st.Put(context.Background(), store.Record{Key: c.Id, Index: c.AccountId, Doc: doc}))
	res, err := service.New(st).TestUpdateContactContext(context.Background(), &gen.TestUpdateContact{Id: "u-2"})
	require.NoError(t, err)
	assert.Equal(t, service.TestUpdate(c), res.TestUpdateContactResult)
	stored, err := st.Get(context.Background(), "u-2")
	require.NoError(t, err)
	want := service.ToRecord(service.TestUpdate(c)).Doc
	want = append(want[:len(want)-1], `,"LegacyBirthday":"1990-02-03T00:00:00Z","LegacyRating":4.5}`...)
	assert.Equal(t, string(want), string(stored.Doc))
}
