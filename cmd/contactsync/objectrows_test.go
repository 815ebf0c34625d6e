package main

import (
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/wsdl"
)

// withObject makes the field checks see today's Contact with an object field, Extra, and an array of
// the concrete Animal, Pets, from which Dog derives: the contract of a deployment that dropped Parrot
// (under Animal, and from what Extra may hold, its object types).
func withObject(t *testing.T) {
	dog := &wire.Type{Name: "Dog", Kind: wire.KindComplex}
	animal := &wire.Type{Name: "Animal", Kind: wire.KindComplex, Derived: []*wire.Type{dog}}
	rt := *gen.ContactRecord
	wt := *rt.Type
	wt.Fields = append(slices.Clone(wt.Fields),
		wire.Field{Name: "Extra", Type: &wire.Type{Name: "anyType", Kind: wire.KindObject}, MaxOccurs: 1},
		wire.Field{Name: "Pets", Type: animal, MaxOccurs: -1})
	rt.Type = &wt
	rt.Fields = append(slices.Clone(rt.Fields), "Extra", "Pets")
	beforeRecord, beforeTypes := contractRecord, contractObjectTypes
	contractRecord = func() *recordwire.Type { return &rt }
	contractObjectTypes = func() []string { return []string{"Contact", "ArrayOfString", "Animal", "Dog"} }
	t.Cleanup(func() { contractRecord, contractObjectTypes = beforeRecord, beforeTypes })
}

// TestObjectRows: the contract records, for an object element, each contract type its "$type" may
// name. A store whose records hold an object of a type the contract dropped (which cannot be read)
// is refused by serve, import, copy and migrate, naming the path and the type; migrate --check counts
// it, and counts a derived type dropped inside an array ("Pets[]") too; migrate --drop Extra removes
// the values and the rows, and serve starts. Where no record holds the dropped type, the commands
// serve and warn.
func TestObjectRows(t *testing.T) {
	for _, tc := range fieldStores {
		t.Run(tc.name, func(t *testing.T) {
			withObject(t)
			assert.Subset(t, contractFields(), []store.Field{
				{Path: "Extra", Type: "anyType"}, {Path: "Extra", Type: "Contact", Derived: true},
				{Path: "Extra", Type: "Animal", Derived: true}, {Path: "Extra", Type: "Dog", Derived: true},
				{Path: "Pets[]", Type: "Dog", Derived: true},
			})
			older := append(contractFields(), store.Field{Path: "Extra", Type: "Parrot", Derived: true}, store.Field{Path: "Pets[]", Type: "Parrot", Derived: true})
			for _, held := range []bool{true, false} {
				spec := tc.spec(t)
				st, _, err := stores.Registry.Open(t.Context(), spec, nil, backend.Write)
				require.NoError(t, err)
				_, err = st.SyncFields(t.Context(), older)
				require.NoError(t, err)
				extra := map[string]string{
					"a": `"Extra":{"$type":"Parrot","Name":"Polly"}`,
					"b": `"Extra":{"$type":"xsd:int","$value":"1"},"Pets":[null,{"$type":"Parrot","Name":"Kea"},{"$type":"Dog"}]`,
					"c": `"Extra":{"$type":"ArrayOfAnyType","$items":[{"$type":"Dog"}]}`,
				}
				if !held {
					delete(extra, "a")
				}
				for id, members := range extra {
					r := service.TestRecord(id)
					r.Doc = []byte(string(r.Doc[:len(r.Doc)-1]) + "," + members + "}")
					require.NoError(t, st.Put(t.Context(), r))
				}
				require.NoError(t, st.Close())

				out, err := runCLI(t, "migrate", "--store", spec, "--check")
				assert.Contains(t, out, "Pets[]: $type Parrot, a derived type the contract no longer has; 1 records hold a value of it\n", "counted inside the array")
				if !held {
					require.NoError(t, err, out)
					assert.Contains(t, out, "Extra: $type Parrot, a type the contract no longer has, in an object, which cannot be read (drop: --drop Extra); 0 records hold a value of it\n")
					out, err = runCLI(t, "migrate", "--store", spec)
					require.NoError(t, err, out)
					assert.Contains(t, out, "no stored record holds one, so the store is served")
					assert.Contains(t, out, "Extra ($type Parrot, in an object)")
					startServeOpts(t, serveOptions{store: spec})
					continue
				}
				require.Error(t, err)
				assert.Contains(t, out, "Extra: $type Parrot, a type the contract no longer has, in an object, which cannot be read (drop: --drop Extra); 1 records hold a value of it\n")
				assert.Contains(t, err.Error(), "Extra ($type Parrot)")

				err = runServe(t.Context(), serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL},
					slog.New(slog.NewTextHandler(io.Discard, nil)))
				var derivedErr *DerivedTypeError
				require.ErrorAs(t, err, &derivedErr)
				assert.Equal(t, []store.Field{{Path: "Extra", Type: "Parrot", Derived: true}}, derivedErr.Stranded)
				assert.Contains(t, err.Error(), "Extra ($type Parrot, in an object)")
				assert.Contains(t, err.Error(), "--drop Extra")
				_, err = runCLIStdin(t, "", "import", "--store", spec)
				assert.ErrorAs(t, err, &derivedErr, "import refuses too")
				_, err = runCLI(t, "copy", "--from", spec, "--to", tc.spec(t))
				assert.ErrorAs(t, err, &derivedErr, "copy refuses such a source")
				_, err = runCLI(t, "migrate", "--store", spec)
				assert.ErrorAs(t, err, &derivedErr)

				out, err = runCLI(t, "migrate", "--store", spec, "--drop", "Extra", "--check")
				require.NoError(t, err, out)
				assert.Contains(t, out, "dropped Extra from 3 records\n")
				assert.NotContains(t, out, "Extra:", "the object's rows went with it")
				startServeOpts(t, serveOptions{store: spec})
			}
		})
	}
}

// TestStrandedTypes: a dropped type in an object is stranded (its values cannot be read), one under a
// concrete declared type is read as it (a warning), and the rows of an element the contract no longer
// has are neither: the element is carried unread, as its field.
func TestStrandedTypes(t *testing.T) {
	withObject(t)
	extra, pets, gone := store.Field{Path: "Extra", Type: "Parrot", Derived: true}, store.Field{Path: "Pets[]", Type: "Parrot", Derived: true}, store.Field{Path: "Gone[]", Type: "Dog", Derived: true}
	stranded, others, bases := strandedTypes([]store.Field{extra, gone, pets})
	assert.Equal(t, []store.Field{extra}, stranded)
	assert.Equal(t, []store.Field{pets}, others)
	assert.Equal(t, map[string]string{"Extra": "anyType"}, bases)
	assert.Equal(t, []string{"Extra ($type Parrot, in an object)"}, strandedNames(stranded, bases))
}
