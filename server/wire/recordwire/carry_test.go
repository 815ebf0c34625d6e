package recordwire_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	frozen "github.com/contactsync/contactsync/server/internal/frozencontract"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// carryType is a record type with a nested object, an array of objects and an array of strings.
var carryType = func() *recordwire.Type {
	addr := &wire.Type{Name: "Address", Kind: wire.KindComplex, Fields: []wire.Field{
		{Name: "Street", Type: wire.TypeString, MaxOccurs: 1},
	}}
	arr := &wire.Type{Name: "ArrayOfAddress", Kind: wire.KindArray, Item: &wire.Field{Name: "Address", Type: addr, MaxOccurs: -1}}
	rec := &wire.Type{Name: "Rec", Kind: wire.KindComplex, Fields: []wire.Field{
		{Name: "Id", Type: wire.TypeString, MaxOccurs: 1},
		{Name: "Home", Type: addr, MaxOccurs: 1},
		{Name: "Others", Type: arr, MaxOccurs: 1},
		{Name: "Score", Type: wire.TypeDouble, MaxOccurs: 1},
		{Name: "Tags", Type: wire.TypeString, MaxOccurs: -1},
	}}
	return &recordwire.Type{Name: "Rec", Type: rec, Key: "Id", Index: "Id",
		Fields: []string{"Id", "Home", "Home.Street", "Others", "Others[].Street", "Score", "Tags"}}
}()

func TestFieldTypes(t *testing.T) {
	assert.Equal(t, []string{"xsd:string", "complex:Address", "xsd:string", "array:complex:Address", "xsd:string", "xsd:double", "array:xsd:string"},
		carryType.FieldTypes())
	assert.Equal(t, []string{"xsd:string", "xsd:string", "xsd:string", "xsd:string", "xsd:string", "xsd:string", "xsd:string", "array:xsd:string"},
		frozen.ContactRecord.FieldTypes())
}

// TestCarryUnknown: the members of the stored document the type does not know are added to the new
// one at their object, sorted and compacted; nothing else changes, and a document without any is
// returned as it is.
func TestCarryUnknown(t *testing.T) {
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"none", `{"Id":"a","Score":1}`, `{"Id":"a","Score":2}`, `{"Id":"a","Score":2}`},
		{"top", `{"Id":"a","Zeta":{"x": [1, 2]},"Score":1,"Birthday":"2020-01-01T00:00:00Z"}`, `{"Id":"a","Score":2}`,
			`{"Id":"a","Score":2,"Birthday":"2020-01-01T00:00:00Z","Zeta":{"x":[1,2]}}`},
		{"nested", `{"Id":"a","Home":{"Street":"s","Zip":"9"}}`, `{"Id":"a","Home":{"Street":"t"},"Score":2}`,
			`{"Id":"a","Home":{"Street":"t","Zip":"9"},"Score":2}`},
		{"nested object gone", `{"Id":"a","Home":{"Street":"s","Zip":"9"}}`, `{"Id":"a","Home":null}`, `{"Id":"a","Home":null}`},
		{"array items replaced", `{"Id":"a","Others":[{"Street":"s","Zip":"9"}]}`, `{"Id":"a","Others":[]}`, `{"Id":"a","Others":[]}`},
		{"array items by index", `{"Id":"a","Others":[{"Street":"s","Zip":"9"},null,{"Street":"u","Zip":"7","Geo":[1]}]}`,
			`{"Id":"a","Others":[{"Street":"S"},{"Street":"T"},{"Street":"U"}],"Score":1}`,
			`{"Id":"a","Others":[{"Street":"S","Zip":"9"},{"Street":"T"},{"Street":"U","Geo":[1],"Zip":"7"}],"Score":1}`},
		{"array items of another length", `{"Id":"a","Others":[{"Zip":"9"}],"X":1}`, `{"Id":"a","Others":[{"Street":"S"},{"Street":"T"}]}`,
			`{"Id":"a","Others":[{"Street":"S"},{"Street":"T"}],"X":1}`},
		{"array now null", `{"Id":"a","Others":[{"Zip":"9"}]}`, `{"Id":"a","Others":null}`, `{"Id":"a","Others":null}`},
		{"already there", `{"Id":"a","X":1}`, `{"Id":"a","X":2}`, `{"Id":"a","X":2}`},
		{"empty object", `{"X":1}`, `{}`, `{"X":1}`},
		{"escaped key", `{"Id":"a","\u00e9\"":true}`, `{"Id":"a"}`, `{"Id":"a","é\"":true}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := carryType.CarryUnknown([]byte(c.from), []byte(c.to))
			require.NoError(t, err)
			assert.Equal(t, c.want, string(got))
		})
	}
	_, err := carryType.CarryUnknown([]byte(`{"Id":`), []byte(`{}`))
	assert.Error(t, err, "a broken stored document")
	paths, err := carryType.UnknownPaths([]byte(`{"Id":"a","Zeta":1,"Home":{"Zip":"9"},"Alpha":null,"Others":[{"Zip":1},{"Zip":2,"Geo":3}]}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"Alpha", "Home.Zip", "Others[].Geo", "Others[].Zip", "Zeta"}, paths)
}

// TestKeepUnknown: the members keep keeps are carried and named; one it refuses is Strict mode's error.
func TestKeepUnknown(t *testing.T) {
	doc := []byte(`{"Id":"a","Home":{"Zip":"9"},"Nick":"n"}`)
	out, paths, err := carryType.KeepUnknown(doc, []byte(`{"Id":"a","Home":{}}`), func(string) bool { return true })
	require.NoError(t, err)
	assert.Equal(t, `{"Id":"a","Home":{"Zip":"9"},"Nick":"n"}`, string(out))
	assert.Equal(t, []string{"Home.Zip", "Nick"}, paths)
	_, _, err = carryType.KeepUnknown(doc, []byte(`{"Id":"a"}`), func(p string) bool { return p == "Nick" })
	assert.ErrorContains(t, err, `unknown field "Home.Zip"; the known fields are Id, Home, Others, Score, Tags`)
}

// TestSawUnknown: a lenient reader says when it skipped a member its type lacks, at any level (on
// contract 1.0's frozen Contact, which has no Birthday whatever the contract becomes).
func TestSawUnknown(t *testing.T) {
	for doc, want := range map[string]bool{
		`{"Id":"a","FirstName":"x"}`: false,
		`{"Id":"a","Birthday":"x"}`:  true,
	} {
		var r recordwire.Reader
		r.Reset([]byte(doc), recordwire.Lenient)
		var c frozen.Contact
		require.NoError(t, c.DecodeRecord(&r))
		assert.Equal(t, want, r.SawUnknown(), doc)
		r.Reset([]byte(doc), recordwire.Lenient)
		assert.False(t, r.SawUnknown(), "Reset clears it")
	}
}

func BenchmarkCarryUnknownNone(b *testing.B) {
	doc := []byte(`{"Id":"c1","AccountId":"acc-1","FirstName":"Zoë","LastName":"O'Brien","PhoneMobile":"+1","PhoneWork":"+2","EmailAddress":"z@example.com","RoleIds":["r1","r2"]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := frozen.ContactRecord.CarryUnknown(doc, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzCarryUnknown: whatever the stored document (from) and the new one (to), CarryUnknown does not
// panic; when to is a Contact document and the carry succeeds, the result is one JSON value that reads
// as the same Contact, and holds every member of from the contract does not know.
func FuzzCarryUnknown(f *testing.F) {
	f.Add([]byte(`{"Id":"a","Birthday":"x","Zeta":{"a": [1, {"b":null}]}}`), []byte(`{"Id":"a","FirstName":"b"}`))
	f.Add([]byte(`{"Id":"a","RoleIds":["r"],"X":1,"X":2}`), []byte(`{"Id":"a","X":true}`))
	f.Add([]byte(`{"\u00e9":"\ud83d\ude00"}`), []byte(`{}`))
	f.Add([]byte(`[]`), []byte(`null`))
	f.Add([]byte(`{"Others":[{"Zip":1},{"Street":"s","Geo":[2]}],"Home":{"Zip":3}}`), []byte(`{"Others":[{},{"Street":"t"}],"Home":{}}`))
	f.Fuzz(func(t *testing.T, from, to []byte) {
		// A type with a nested object and an array of objects: one JSON value out of one in.
		if out, err := carryType.CarryUnknown(from, to); err == nil && json.Valid(to) && !json.Valid(out) {
			t.Fatalf("not JSON: %s (from %s into %s)", out, from, to)
		}
		out, err := frozen.ContactRecord.CarryUnknown(from, to)
		var want frozen.Contact
		if err != nil || want.UnmarshalRecord(to, recordwire.Lenient) != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("not JSON: %s", out)
		}
		var got frozen.Contact
		if err := got.UnmarshalRecord(out, recordwire.Lenient); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("the known fields changed: %s became %s", to, out)
		}
		fromPaths, err := frozen.ContactRecord.UnknownPaths(from)
		if err != nil {
			t.Fatal(err)
		}
		outPaths, err := frozen.ContactRecord.UnknownPaths(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range fromPaths {
			if !slices.Contains(outPaths, p) {
				t.Fatalf("%s lost from %s: %s", p, from, out)
			}
		}
	})
}
