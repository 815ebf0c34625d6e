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
// subtests of t, with the same contract for open as Run. A new store's record_fields holds what its
// migrations put there; each test starts by recording its own paths over them.
func RunFields(t *testing.T, open func(t *testing.T) FieldStore) {
	t.Helper()
	for _, tc := range []struct {
		name string
		test func(t *testing.T, s FieldStore)
	}{
		{"SyncFields", testSyncFields},
		{"CountRenameDrop", testCountRenameDrop},
		{"Nested", testFieldsNested},
		{"InArray", testFieldsInArray},
		{"BadPaths", testFieldsBadPaths},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			require.NotNil(t, s, "open returned a nil store")
			t.Cleanup(func() { assert.NoError(t, s.Close(), "Close") })
			tc.test(t, s)
		})
	}
}

// reset makes record_fields hold exactly paths, by dropping whatever else it holds.
func reset(t *testing.T, s FieldStore, paths ...string) {
	t.Helper()
	stored, err := s.StoredFields(t.Context())
	require.NoError(t, err)
	for _, p := range store.Gone(stored, paths) {
		_, err := s.DropField(t.Context(), p)
		require.NoError(t, err)
	}
	gone, err := s.SyncFields(t.Context(), paths)
	require.NoError(t, err)
	require.Empty(t, gone)
}

func testSyncFields(t *testing.T, s FieldStore) {
	ctx := t.Context()
	reset(t, s, "A", "B")
	stored, err := s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B"}, stored)

	gone, err := s.SyncFields(ctx, []string{"A", "B", "C", "N.X"}) // fields added: recorded
	require.NoError(t, err)
	assert.Empty(t, gone)
	stored, err = s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B", "C", "N.X"}, stored)

	gone, err = s.SyncFields(ctx, []string{"A", "C", "D"}) // fields gone: named, nothing recorded
	require.NoError(t, err)
	assert.Equal(t, []string{"B", "N.X"}, gone)
	stored, err = s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B", "C", "N.X"}, stored, "a refused sync recorded something")

	gone, err = s.SyncFields(ctx, []string{"A", "B", "C", "N.X"}) // again: nothing to do
	require.NoError(t, err)
	assert.Empty(t, gone)
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
	assert.Equal(t, []string{"Id", "New", "Other"}, stored)

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
	stored, err = s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"Id", "New"}, stored)
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
	stored, err := s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"Home", "Home.Street", "Home.Zip", "Id"}, stored)

	n, err = s.DropField(ctx, "Home.Zip")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
	got, err = s.Get(ctx, "n2")
	require.NoError(t, err)
	sameJSON(t, []byte(`{"Id":"n2","Home":{}}`), got.Doc)

	_, err = s.DropField(ctx, "Home") // the paths under it go too
	require.NoError(t, err)
	stored, err = s.StoredFields(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"Id"}, stored)
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
