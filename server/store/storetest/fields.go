package storetest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
)

// FieldStore is a store with its field metadata, as every backend is.
type FieldStore interface {
	store.Store
	store.Fields
}

// RunFields runs the conformance suite of store.Fields against the backend that open creates, as
// subtests of t, with the same contract for open as Run. A new store records no field; each test
// records its own.
func RunFields(t *testing.T, open func(t *testing.T) FieldStore) {
	t.Helper()
	for _, tc := range []struct {
		name string
		test func(t *testing.T, s FieldStore)
	}{
		{"EmptyStoreRecordsNothing", testEmptyStoreRecordsNothing},
		{"SyncFields", testSyncFields},
		{"TypesRecorded", testTypesRecorded},
		{"TypeChangeRefused", testTypeChangeRefused},
		{"CountRenameDrop", testCountRenameDrop},
		{"Nested", testFieldsNested},
		{"InArray", testFieldsInArray},
		{"BadPaths", testFieldsBadPaths},
		{"DerivedRows", testDerivedRows},
		{"CountDerivedInArrays", testCountDerivedInArrays},
		{"RenameMovesDerivedRows", testRenameMovesDerivedRows},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			require.NotNil(t, s, "open returned a nil store")
			t.Cleanup(func() { assert.NoError(t, s.Close(), "Close") })
			tc.test(t, s)
		})
	}
}

// stringFields records paths as fields of type xsd:string.
func stringFields(paths ...string) []store.Field {
	out := make([]store.Field, len(paths))
	for i, p := range paths {
		out[i] = store.Field{Path: p, Type: "xsd:string"}
	}
	return out
}

// storedPaths returns the recorded paths.
func storedPaths(t *testing.T, s FieldStore) []string {
	t.Helper()
	stored, err := s.StoredFields(t.Context())
	require.NoError(t, err)
	return store.Paths(stored)
}

// reset makes record_fields hold exactly paths (as xsd:string fields), on a new store.
func reset(t *testing.T, s FieldStore, paths ...string) {
	t.Helper()
	require.Empty(t, storedPaths(t, s), "reset needs a new store")
	report, err := s.SyncFields(t.Context(), stringFields(paths...))
	require.NoError(t, err)
	require.Empty(t, report.Carried)
	require.Empty(t, report.Changed)
	require.ElementsMatch(t, paths, storedPaths(t, s))
}

// testEmptyStoreRecordsNothing: a new store records no field, and an empty store reports nothing: a
// contract that changed a recorded field's type records it anew (issue 34: a fresh store follows its
// contract), and the fields it lacks stay recorded (another version may be about to write them).
func testEmptyStoreRecordsNothing(t *testing.T, s FieldStore) {
	ctx := t.Context()
	assert.Empty(t, storedPaths(t, s), "a new store records nothing")
	report, err := s.SyncFields(ctx, []store.Field{{Path: "A", Type: "xsd:string"}, {Path: "B", Type: "xsd:int"}})
	require.NoError(t, err)
	assert.Equal(t, store.FieldsReport{}, report)
	report, err = s.SyncFields(ctx, []store.Field{{Path: "A", Type: "xsd:int"}, {Path: "C", Type: "xsd:string"}})
	require.NoError(t, err)
	assert.Equal(t, store.FieldsReport{}, report, "nothing holds the recorded fields: no type change, nothing carried")
	stored, err := s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []store.Field{{Path: "A", Type: "xsd:int"}, {Path: "B", Type: "xsd:int"}, {Path: "C", Type: "xsd:string"}}, stored)
}

func testSyncFields(t *testing.T, s FieldStore) {
	ctx := t.Context()
	reset(t, s, "A", "B")
	require.NoError(t, s.Put(ctx, store.Record{Key: "k", Index: "i", Doc: []byte(`{"A":"a"}`)}))

	report, err := s.SyncFields(ctx, stringFields("A", "B", "C", "N.X")) // fields added: recorded
	require.NoError(t, err)
	assert.Equal(t, store.FieldsReport{}, report)
	assert.Equal(t, []string{"A", "B", "C", "N.X"}, storedPaths(t, s))

	report, err = s.SyncFields(ctx, stringFields("A", "C", "D")) // fields the contract lacks: carried, named
	require.NoError(t, err)
	assert.Equal(t, stringFields("B", "N.X"), report.Carried)
	assert.Empty(t, report.Changed)
	assert.Equal(t, []string{"A", "B", "C", "D", "N.X"}, storedPaths(t, s), "the new field is recorded, the carried ones stay")

	report, err = s.SyncFields(ctx, stringFields("A", "B", "C", "D", "N.X")) // again: nothing to do
	require.NoError(t, err)
	assert.Equal(t, store.FieldsReport{}, report)
}

// testTypesRecorded: the recorded fields keep their types; a type not known yet ("", as migration
// 0006 leaves version 5's rows) is filled in by the first contract that has the field; two complex
// types are not a change (their sub-paths are compared).
func testTypesRecorded(t *testing.T, s FieldStore) {
	ctx := t.Context()
	report, err := s.SyncFields(ctx, []store.Field{{Path: "A", Type: "xsd:int"}, {Path: "R", Type: "array:xsd:string"}, {Path: "U", Type: ""}, {Path: "W", Type: "complex:Address"}})
	require.NoError(t, err)
	assert.Equal(t, store.FieldsReport{}, report)
	require.NoError(t, s.Put(ctx, store.Record{Key: "k", Index: "i", Doc: []byte(`{"A":1}`)}))
	report, err = s.SyncFields(ctx, []store.Field{{Path: "A", Type: "xsd:int"}, {Path: "R", Type: "array:xsd:string"}, {Path: "U", Type: "xsd:dateTime"}, {Path: "W", Type: "complex:Home"}})
	require.NoError(t, err)
	assert.Equal(t, store.FieldsReport{}, report)
	stored, err := s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []store.Field{{Path: "A", Type: "xsd:int"}, {Path: "R", Type: "array:xsd:string"}, {Path: "U", Type: "xsd:dateTime"}, {Path: "W", Type: "complex:Address"}}, stored)
}

// testTypeChangeRefused: a contract that changed a recorded field's type under the same name is
// reported, and nothing is recorded (not even its new fields).
func testTypeChangeRefused(t *testing.T, s FieldStore) {
	ctx := t.Context()
	reset(t, s, "A", "B")
	require.NoError(t, s.Put(ctx, store.Record{Key: "k", Index: "i", Doc: []byte(`{"A":"a","B":"b"}`)}))
	report, err := s.SyncFields(ctx, []store.Field{{Path: "A", Type: "xsd:double"}, {Path: "B", Type: "xsd:string"}, {Path: "C", Type: "xsd:string"}})
	require.NoError(t, err)
	assert.Equal(t, []store.TypeChange{{Path: "A", Stored: "xsd:string", Contract: "xsd:double"}}, report.Changed)
	assert.Equal(t, []string{"A", "B"}, storedPaths(t, s), "a refused sync recorded something")
	stored, err := s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, stringFields("A", "B"), stored)
}

func testCountRenameDrop(t *testing.T, s FieldStore) {
	ctx := t.Context()
	reset(t, s, "Id", "Old", "Other")
	docs := map[string]string{
		"r1": `{"Id":"r1","Old":"v1","Other":1}`,
		"r2": `{"Id":"r2","Old":{"nested":["x"]},"Other":2}`,
		"r3": `{"Id":"r3","Old":null,"Other":3}`,
		"r4": `{"Id":"r4","Other":4}`,
		"r5": `{"Id":"r5","Old":"","Other":5}`,
	}
	for k, d := range docs {
		require.NoError(t, s.Put(ctx, store.Record{Key: k, Index: "i", Doc: []byte(d)}))
	}
	count := func(path string) int64 {
		t.Helper()
		n, err := s.CountField(ctx, path)
		require.NoError(t, err)
		return n
	}
	assert.Equal(t, int64(3), count("Old"), "a null value is not counted, an empty string is")
	assert.Equal(t, int64(5), count("Other"))
	assert.Equal(t, int64(0), count("New"))

	n, err := s.RenameField(ctx, "Old", "New")
	require.NoError(t, err)
	assert.Equal(t, int64(4), n, "rewritten: the three values and the null")
	assert.Equal(t, int64(0), count("Old"))
	assert.Equal(t, int64(3), count("New"))
	want := map[string]string{
		"r1": `{"Id":"r1","New":"v1","Other":1}`,
		"r2": `{"Id":"r2","New":{"nested":["x"]},"Other":2}`,
		"r3": `{"Id":"r3","Other":3}`,
		"r4": `{"Id":"r4","Other":4}`,
		"r5": `{"Id":"r5","New":"","Other":5}`,
	}
	for k, d := range want {
		got, err := s.Get(ctx, k)
		require.NoError(t, err)
		sameJSON(t, []byte(d), got.Doc, "%s after the rename", k)
		assert.Equal(t, "i", got.Index)
	}
	stored, err := s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, stringFields("Id", "New", "Other"), stored, "the renamed field keeps its type")

	// A rename onto a field some record already holds is refused, changing nothing.
	require.NoError(t, s.Put(ctx, store.Record{Key: "r6", Index: "i", Doc: []byte(`{"Id":"r6","New":"n","Other":"o"}`)}))
	_, err = s.RenameField(ctx, "Other", "New")
	require.Error(t, err)
	assert.Equal(t, int64(6), count("Other"))

	n, err = s.DropField(ctx, "Other")
	require.NoError(t, err)
	assert.Equal(t, int64(6), n)
	assert.Equal(t, int64(0), count("Other"))
	got, err := s.Get(ctx, "r1")
	require.NoError(t, err)
	sameJSON(t, []byte(`{"Id":"r1","New":"v1"}`), got.Doc)
	assert.Equal(t, []string{"Id", "New"}, storedPaths(t, s))
}

func testFieldsNested(t *testing.T, s FieldStore) {
	ctx := t.Context()
	reset(t, s, "Id", "Address", "Address.Lines", "Address.Zip")
	for i, d := range []string{
		`{"Id":"n0","Address":{"Lines":["a","b"],"Zip":"1"}}`,
		`{"Id":"n1","Address":null}`,
		`{"Id":"n2","Address":{"Lines":null,"Zip":"2"}}`,
	} {
		require.NoError(t, s.Put(ctx, store.Record{Key: fmt.Sprint("n", i), Doc: []byte(d)}))
	}
	n, err := s.CountField(ctx, "Address.Lines")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)

	_, err = s.RenameField(ctx, "Address.Lines", "Street")
	require.Error(t, err, "a rename to another parent")
	n, err = s.RenameField(ctx, "Address.Lines", "Address.Street")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
	got, err := s.Get(ctx, "n0")
	require.NoError(t, err)
	sameJSON(t, []byte(`{"Id":"n0","Address":{"Street":["a","b"],"Zip":"1"}}`), got.Doc)

	n, err = s.RenameField(ctx, "Address", "Home") // the paths under it follow
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	assert.Equal(t, []string{"Home", "Home.Street", "Home.Zip", "Id"}, storedPaths(t, s))

	n, err = s.DropField(ctx, "Home.Zip")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
	got, err = s.Get(ctx, "n2")
	require.NoError(t, err)
	sameJSON(t, []byte(`{"Id":"n2","Home":{}}`), got.Doc)

	_, err = s.DropField(ctx, "Home") // the paths under it go too
	require.NoError(t, err)
	assert.Equal(t, []string{"Id"}, storedPaths(t, s))
}

func testFieldsInArray(t *testing.T, s FieldStore) {
	ctx := t.Context()
	reset(t, s, "Id", "Items", "Items.Name")
	require.NoError(t, s.Put(ctx, store.Record{Key: "a", Doc: []byte(`{"Id":"a","Items":[{"Name":"x"}]}`)}))
	_, err := s.CountField(ctx, "Items.Name")
	require.ErrorIs(t, err, store.ErrPathInArray)
	_, err = s.RenameField(ctx, "Items.Name", "Items.Title")
	require.ErrorIs(t, err, store.ErrPathInArray)
	_, err = s.DropField(ctx, "Items.Name")
	require.ErrorIs(t, err, store.ErrPathInArray)
	// The generated descriptor names an element of an array's items through "[]".
	_, err = s.CountField(ctx, "Items[].Name")
	require.ErrorIs(t, err, store.ErrPathInArray)
	_, err = s.DropField(ctx, "Items[].Name")
	require.ErrorIs(t, err, store.ErrPathInArray)
	got, err := s.Get(ctx, "a")
	require.NoError(t, err)
	sameJSON(t, []byte(`{"Id":"a","Items":[{"Name":"x"}]}`), got.Doc)
}

func testFieldsBadPaths(t *testing.T, s FieldStore) {
	ctx := t.Context()
	for _, p := range []string{"", ".", "A.", ".A", "A..B", `A"B`, `A\B`} {
		_, err := s.CountField(ctx, p)
		assert.Error(t, err, "CountField(%q)", p)
		_, err = s.DropField(ctx, p)
		assert.Error(t, err, "DropField(%q)", p)
		_, err = s.RenameField(ctx, p, "X")
		assert.Error(t, err, "RenameField(%q, X)", p)
	}
	_, err := s.RenameField(ctx, "A", "A")
	assert.Error(t, err, "a rename to itself")
}

// testDerivedRows: derived rows (the types a polymorphic element's "$type" may name) are recorded
// beside the field rows, several per path; a contract lacking a recorded one reports it in Dropped
// (and it stays recorded); CountDerived counts the records naming it; dropping the field (or the
// array) removes its derived rows.
func testDerivedRows(t *testing.T, s FieldStore) {
	ctx := t.Context()
	fields := []store.Field{
		{Path: "Id", Type: "xsd:string"}, {Path: "Pet", Type: "complex:Animal"},
		{Path: "Pet", Type: "Cat", Derived: true}, {Path: "Pet", Type: "Dog", Derived: true},
		{Path: "Pets[]", Type: "Dog", Derived: true},
	}
	report, err := s.SyncFields(ctx, fields)
	require.NoError(t, err)
	assert.Equal(t, store.FieldsReport{}, report)
	stored, err := s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []store.Field{fields[0], fields[1], fields[2], fields[3], fields[4]}, stored)
	for k, d := range map[string]string{
		"a": `{"Id":"a","Pet":{"$type":"Dog","Name":"Rex"}}`,
		"b": `{"Id":"b","Pet":{"Name":"Generic"}}`,
		"c": `{"Id":"c","Pet":{"Name":"Fido","$type":"Dog"}}`,
		"d": `{"Id":"d","Pet":{"$type":"Cat"},"Pets":[{"$type":"Dog"}]}`,
	} {
		require.NoError(t, s.Put(ctx, store.Record{Key: k, Index: "i", Doc: []byte(d)}))
	}

	// A contract without Dog at Pet: reported, kept recorded.
	report, err = s.SyncFields(ctx, []store.Field{fields[0], fields[1], fields[2], fields[4]})
	require.NoError(t, err)
	assert.Equal(t, []store.Field{{Path: "Pet", Type: "Dog", Derived: true}}, report.Dropped)
	assert.Empty(t, report.Carried)
	assert.Empty(t, report.Changed)
	stored, err = s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Len(t, stored, 5)

	n, err := s.CountDerived(ctx, "Pet", "Dog")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n, "wherever $type stands among the members")
	n, err = s.CountDerived(ctx, "Pet", "Horse")
	require.NoError(t, err)
	assert.Equal(t, int64(0), n)
	n, err = s.CountDerived(ctx, "Pets[]", "Dog")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "an array's items")

	_, err = s.DropField(ctx, "Pet")
	require.NoError(t, err)
	stored, err = s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []store.Field{fields[0], fields[4]}, stored)

	// Dropping an array drops its items' derived rows too ("Pets[]"), so a store refused for a
	// derived type dropped under an abstract item type serves after migrate --drop Pets.
	n, err = s.DropField(ctx, "Pets")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	stored, err = s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []store.Field{fields[0]}, stored)
}

// testCountDerivedInArrays: CountDerived reaches the values of a derived row's path through every
// array it crosses ("Pets[]", "Groups[].Pets[]", "Groups[].Pet") and into the items of an object[]
// ("$items") at any depth, and counts each record once however many of its values name the type; an
// item or a value that is not an object (null, a string, a number, an array) names none and breaks
// nothing; a "$type" elsewhere (a member of the value, a path of other names) is not counted.
func testCountDerivedInArrays(t *testing.T, s FieldStore) {
	ctx := t.Context()
	docs := []string{
		`{"Id":"a","Pets":[{"$type":"Dog"},{"$type":"Dog","Name":"Rex"}],"Extra":{"$type":"xsd:int","$value":"42"}}`,
		`{"Id":"b","Pets":[null,"Dog",7,[{"$type":"Dog"}],{"Name":"Generic"},{"$type":"Cat"}]}`,
		`{"Id":"c","Pets":{"$type":"Dog"},"Groups":"none"}`,
		`{"Id":"d","Groups":[{"Pets":[{"$type":"Cat"}],"Pet":{"$type":"Dog"}},null,"x",{"Pets":null}]}`,
		`{"Id":"e","Groups":[{"Pets":[{"Name":"Generic"},{"$type":"Dog"}]}],"Pet":{"$type":"Cat","Friend":{"$type":"Dog"}}}`,
		`{"Id":"f","Extra":{"$type":"ArrayOfAnyType","$items":[null,{"$type":"xsd:string","$value":"s"},{"$type":"ArrayOfAnyType","$items":[{"$type":"Dog","Name":"Fido"}]}]}}`,
		`{"Id":"g","Extra":{"$type":"Dog","Name":"Rex"},"Things":[null,{"$type":"ArrayOfAnyType","$items":[{"$type":"Cat"}]}]}`,
		`{"Id":"h","Extra":{"$type":"Cat","Pet":{"$type":"Dog"},"$items":{"$type":"Dog"}}}`,
		`{"Id":"i","Extra":[{"$type":"Dog"}],"Things":{"$items":[{"$type":"Dog"}]}}`,
	}
	for i, d := range docs {
		require.NoError(t, s.Put(ctx, store.Record{Key: fmt.Sprint("k", i), Index: "i", Doc: []byte(d)}))
	}
	for _, tc := range []struct {
		path, typ string
		want      int64
	}{
		{"Pets[]", "Dog", 1},            // a: twice in one record; b: a string, a nested array; c: not an array
		{"Pets[]", "Cat", 1},            // b
		{"Groups[].Pets[]", "Dog", 1},   // e
		{"Groups[].Pets[]", "Cat", 1},   // d
		{"Groups[].Pet", "Dog", 1},      // d
		{"Pet", "Dog", 0},               // e: a member of the value names it, not the value
		{"Pet", "Cat", 1},               // e
		{"Extra", "Dog", 2},             // f: an object[] in an object[]; g: the value; h: "$items" not an array; i: not an object
		{"Extra", "ArrayOfAnyType", 1},  // f
		{"Extra", "xsd:string", 1},      // f
		{"Things[]", "Cat", 1},          // g; i: not an array
		{"Things[]", "Dog", 0},          // i
		{"Pets[]", `Dog" OR 1=1 --`, 0}, // the type is a value, never SQL
		{"Missing[].Pets[]", "Dog", 0},  // no record holds it
		{"Pets[].Friend", "Dog", 0},     // no item holds it
	} {
		n, err := s.CountDerived(ctx, tc.path, tc.typ)
		require.NoError(t, err, "%s %s", tc.path, tc.typ)
		assert.Equal(t, tc.want, n, "CountDerived(%s, %s)", tc.path, tc.typ)
	}
	for _, bad := range []string{"", "Pets[][]", "A..B", `A"B`, "[]"} {
		_, err := s.CountDerived(ctx, bad, "Dog")
		assert.Error(t, err, "CountDerived(%q)", bad)
	}
}

// testRenameMovesDerivedRows: a rename moves the field's derived rows with its field rows, at the
// field ("Pet"), under it ("Pet.Pal") and at its items ("Pets[]", with "Pets[].Name"); where the new
// path already has a derived row (recorded by the contract that renamed it) the old one goes.
func testRenameMovesDerivedRows(t *testing.T, s FieldStore) {
	ctx := t.Context()
	older := []store.Field{
		{Path: "Id", Type: "xsd:string"},
		{Path: "Pet", Type: "complex:Animal"}, {Path: "Pet", Type: "Cat", Derived: true}, {Path: "Pet", Type: "Dog", Derived: true},
		{Path: "Pet.Pal", Type: "complex:Animal"}, {Path: "Pet.Pal", Type: "Dog", Derived: true},
		{Path: "Pets", Type: "array:complex:Animal"}, {Path: "Pets[]", Type: "Dog", Derived: true}, {Path: "Pets[].Name", Type: "xsd:string"},
	}
	_, err := s.SyncFields(ctx, older)
	require.NoError(t, err)
	require.NoError(t, s.Put(ctx, store.Record{Key: "a", Index: "i", Doc: []byte(`{"Id":"a","Pet":{"$type":"Dog","Pal":{"$type":"Dog"}},"Pets":[{"$type":"Dog","Name":"Rex"}]}`)}))
	// The renamed contract's start recorded its own rows at the new path first.
	report, err := s.SyncFields(ctx, []store.Field{
		{Path: "Id", Type: "xsd:string"}, {Path: "Animal", Type: "complex:Animal"}, {Path: "Animal", Type: "Dog", Derived: true},
		{Path: "Animals", Type: "array:complex:Animal"},
	})
	require.NoError(t, err)
	require.Len(t, report.Dropped, 4)

	_, err = s.RenameField(ctx, "Pet", "Animal")
	require.NoError(t, err)
	_, err = s.RenameField(ctx, "Pets", "Animals")
	require.NoError(t, err)
	stored, err := s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []store.Field{
		{Path: "Animal", Type: "complex:Animal"}, {Path: "Animal", Type: "Cat", Derived: true}, {Path: "Animal", Type: "Dog", Derived: true},
		{Path: "Animal.Pal", Type: "complex:Animal"}, {Path: "Animal.Pal", Type: "Dog", Derived: true},
		{Path: "Animals", Type: "array:complex:Animal"}, {Path: "Animals[]", Type: "Dog", Derived: true}, {Path: "Animals[].Name", Type: "xsd:string"},
		{Path: "Id", Type: "xsd:string"},
	}, stored)
	n, err := s.CountDerived(ctx, "Animals[]", "Dog")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "the values moved with the rows")
	n, err = s.CountDerived(ctx, "Animal.Pal", "Dog")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
}
