package main

import (
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
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

// withPet makes the field checks see today's Contact with one more field, Pet, declared with the
// type Animal, from which Dog derives; abstract says whether Animal is abstract. Today's contract has
// no inheritance, and the checks compare the store with contractRecord only, so this is the contract
// of a deployment that dropped a derived type (Parrot) from under Animal.
func withPet(t *testing.T, abstract bool) {
	animal := &wire.Type{Name: "Animal", Kind: wire.KindComplex, Abstract: abstract}
	animal.Derived = []*wire.Type{{Name: "Dog", Kind: wire.KindComplex}}
	rt := *gen.ContactRecord
	wt := *rt.Type
	wt.Fields = append(slices.Clone(wt.Fields), wire.Field{Name: "Pet", Type: animal, MinOccurs: 0, MaxOccurs: 1})
	rt.Type = &wt
	rt.Fields = append(slices.Clone(rt.Fields), "Pet")
	before := contractRecord
	contractRecord = func() *recordwire.Type { return &rt }
	t.Cleanup(func() { contractRecord = before })
}

// TestDroppedDerivedTypeUnderAbstractBase: a store whose records may hold a derived type the contract
// dropped under an abstract declared type (a Parrot stored as a Pet, Animal now abstract and without
// Parrot) cannot serve those records: serve, import, copy and migrate refuse it, naming the field, the
// dropped type, the abstract base and the commands; migrate --check counts the records and exits 1;
// migrate --drop Pet removes the values, and serve then starts. Under a concrete base the same store
// is served with a warning (contractevo's 16-drop-derived-type).
func TestDroppedDerivedTypeUnderAbstractBase(t *testing.T) {
	for _, tc := range fieldStores {
		t.Run(tc.name, func(t *testing.T) {
			withPet(t, true)
			spec := tc.spec(t)
			st, _, err := stores.Registry.Open(t.Context(), spec, nil, backend.Write)
			require.NoError(t, err)
			older := append(contractFields(), store.Field{Path: "Pet", Type: "Parrot", Derived: true})
			_, err = st.SyncFields(t.Context(), older)
			require.NoError(t, err)
			for _, id := range []string{"a", "b"} {
				r := service.TestRecord(id)
				if id == "a" {
					doc := string(r.Doc)
					r.Doc = []byte(doc[:len(doc)-1] + `,"Pet":{"$type":"Parrot","Name":"Polly"}}`)
				}
				require.NoError(t, st.Put(t.Context(), r))
			}
			require.NoError(t, st.Close())

			err = runServe(t.Context(), serveOptions{addr: "127.0.0.1:0", store: spec, baseURL: wsdl.DefaultBaseURL},
				slog.New(slog.NewTextHandler(io.Discard, nil)))
			var derivedErr *DerivedTypeError
			require.ErrorAs(t, err, &derivedErr)
			assert.Equal(t, []store.Field{{Path: "Pet", Type: "Parrot", Derived: true}}, derivedErr.Stranded)
			for _, want := range []string{"Pet ($type Parrot, under the abstract Animal)", "migrate --store", "--check", "--drop Pet", "add the type back"} {
				assert.Contains(t, err.Error(), want)
			}
			_, err = runCLIStdin(t, "", "import", "--store", spec)
			assert.ErrorAs(t, err, &derivedErr, "import refuses too")
			_, err = runCLI(t, "copy", "--from", spec, "--to", "sqlite:"+filepath.Join(t.TempDir(), "copy.db"))
			assert.ErrorAs(t, err, &derivedErr, "copy refuses such a source")
			_, err = runCLI(t, "migrate", "--store", spec)
			assert.ErrorAs(t, err, &derivedErr, "migrate reports it before serve would")

			out, err := runCLI(t, "migrate", "--store", spec, "--check")
			require.Error(t, err)
			assert.Contains(t, out, "Pet: $type Parrot, a derived type the contract no longer has under the abstract Animal, which cannot be read (drop: --drop Pet); 1 records hold a value of it\n")

			out, err = runCLI(t, "migrate", "--store", spec, "--drop", "Pet", "--check")
			require.NoError(t, err, out)
			assert.Contains(t, out, "dropped Pet from 1 records\n")
			assert.False(t, strings.Contains(out, "Parrot"), "the derived row went with the field: %s", out)
			startServeOpts(t, serveOptions{store: spec})
		})
	}
}
