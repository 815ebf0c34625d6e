package zoo_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/polyrec"
)

// makePen is a Pen holding a value of every type of its hierarchies: a Parrot (derived through the
// abstract Bird), a Cat, a plain Animal, a nil item, both Shapes and a field declared with the
// derived Cat.
func makePen() *polyrec.Pen {
	hello := "hello"
	parrot := &polyrec.Parrot{Words: &polyrec.ArrayOfString{Astring: []*string{&hello, nil}}}
	parrot.Name, parrot.Wings = "Polly", 2
	cat := &polyrec.Cat{Indoor: true}
	cat.Name = "Tom"
	square, circle := &polyrec.Square{Side: 2}, &polyrec.Circle{Radius: 0.5}
	square.Label = "sq"
	return &polyrec.Pen{
		Id: "p1", Keeper: "Ann",
		Favorite: parrot,
		Animals:  &polyrec.ArrayOfAnimal{Animal: []polyrec.AnyAnimal{cat, &polyrec.Animal{Name: "Rex"}, nil}},
		Sign:     []polyrec.AnyShape{square, circle},
		Plain:    &polyrec.Cat{Animal: polyrec.Animal{Name: "Kit"}},
	}
}

// penDoc is makePen's canonical document: "$type" first in the object of each value whose type is
// not the declared one, none on a value of the declared type or a field declared with a derived type.
const penDoc = `{"Id":"p1","Keeper":"Ann",` +
	`"Favorite":{"$type":"Parrot","Name":"Polly","Wings":2,"Words":["hello",null]},` +
	`"Animals":[{"$type":"Cat","Name":"Tom","Indoor":true},{"Name":"Rex"},null],` +
	`"Sign":[{"$type":"Square","Label":"sq","Side":2},{"$type":"Circle","Label":"","Radius":0.5}],` +
	`"Plain":{"Name":"Kit","Indoor":false},"Thing":null,"Things":null,"Note":null,"Data":null}`

// TestPolyRecordRoundTrip: a derived value keeps its type through the record codec, whatever the
// order of its members (PostgreSQL's jsonb sorts keys, so "$type" may come last), in both modes.
func TestPolyRecordRoundTrip(t *testing.T) {
	pen := makePen()
	doc := pen.AppendRecord(nil)
	require.Equal(t, penDoc, string(doc))
	for _, mode := range []recordwire.Mode{recordwire.Strict, recordwire.Lenient, recordwire.Alias} {
		var back polyrec.Pen
		require.NoError(t, back.UnmarshalRecord(bytes.Clone(doc), mode))
		assert.Equal(t, pen, &back)
	}
	// jsonb's order: shorter keys first, "$type" after "Name" and "Wings".
	sorted := `{"Id":"p1","Sign":[{"Side":2,"$type":"Square","Label":"sq"},{"Label":"","$type":"Circle","Radius":0.5}],` +
		`"Plain":{"Name":"Kit","Indoor":false},"Keeper":"Ann","Animals":[{"Name":"Tom","$type":"Cat","Indoor":true},{"Name":"Rex"},null],` +
		`"Favorite":{"Name":"Polly","Wings":2,"$type":"Parrot","Words":["hello",null]}}`
	var back polyrec.Pen
	require.NoError(t, back.UnmarshalRecord([]byte(sorted), recordwire.Strict))
	assert.Equal(t, pen, &back)
	assert.Equal(t, penDoc, string(back.AppendRecord(nil)))
	// A value of the declared type may name it.
	require.NoError(t, back.UnmarshalRecord([]byte(`{"Favorite":{"$type":"Animal","Name":"A"}}`), recordwire.Strict))
	assert.Equal(t, &polyrec.Animal{Name: "A"}, back.Favorite)
}

// TestPolyRecordErrors: a "$type" naming a type outside the hierarchy or an abstract one, a value of
// an abstract declared type without one, and a malformed "$type" are errors naming the path.
func TestPolyRecordErrors(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{`{"Favorite":{"$type":"Square"}}`, `Favorite: the $type "Square" is not Animal or a type derived from it`},
		{`{"Favorite":{"$type":"Bird","Wings":1}}`, `Favorite: the $type "Bird" names an abstract type`},
		{`{"Sign":[{"Label":"x"}]}`, `Sign[0]: a value of the abstract type Shape needs a $type`},
		{`{"Animals":[{"$type":1}]}`, `Animals[0].$type: the $type member must be a string`},
		{`{"Favorite":{"$type":"Cat","$type":"Cat"}}`, `Favorite: field "$type" appears twice`},
		{`{"Favorite":{"$type":"Cat","Barks":1}}`, `Favorite: unknown field "Barks"`},
	} {
		var v polyrec.Pen
		err := v.UnmarshalRecord([]byte(tt.doc), recordwire.Strict)
		require.Error(t, err, tt.doc)
		assert.Contains(t, err.Error(), tt.want, tt.doc)
	}
}

// TestPolyRecordDescriptor: the field paths and their record types name a derived type's elements
// under the path of the value holding it, and DerivedTypes lists the concrete types a "$type" may name
// at each polymorphic path (what the store records as its derived rows), and AbstractBases the paths
// whose declared type is abstract.
func TestPolyRecordDescriptor(t *testing.T) {
	rt := polyrec.PenRecord
	types := map[string]string{}
	for i, ft := range rt.FieldTypes() {
		types[rt.Fields[i]] = ft
	}
	assert.Equal(t, "complex:Animal", types["Favorite"])
	assert.Equal(t, "xsd:int", types["Favorite.Wings"])
	assert.Equal(t, "array:xsd:string", types["Favorite.Words"])
	assert.Equal(t, "xsd:boolean", types["Animals[].Indoor"])
	assert.Equal(t, "array:complex:Shape", types["Sign"])
	assert.Equal(t, "xsd:double", types["Sign[].Radius"])
	for _, p := range rt.Fields {
		assert.NotEmpty(t, types[p], p)
	}
	assert.Equal(t, map[string][]string{
		"Favorite":  {"Cat", "Parrot"},
		"Animals[]": {"Cat", "Parrot"},
		"Sign[]":    {"Square", "Circle"},
	}, rt.DerivedTypes())
	// Only Shape is abstract: a dropped derived type stored under it cannot be read, and the commands
	// refuse the store (under the concrete Animal it reads as an Animal, and they warn).
	assert.Equal(t, map[string]string{"Sign[]": "Shape"}, rt.AbstractBases())
}

// TestPolyRecordCarry: the members of a derived value and its "$type" are known to the carry; a
// member neither knows is named and carried into the same derived value written by a writer that
// lacks it.
func TestPolyRecordCarry(t *testing.T) {
	rt := polyrec.PenRecord
	paths, err := rt.UnknownPaths([]byte(penDoc))
	require.NoError(t, err)
	assert.Empty(t, paths)

	stored := `{"Id":"p1","Favorite":{"$type":"Parrot","Name":"Polly","Wings":2,"Words":null,"Color":"green"},` +
		`"Animals":[{"$type":"Cat","Name":"Tom","Indoor":true,"Lives":9}],"Sign":[{"$type":"Square","Side":1,"Dots":3}]}`
	paths, err = rt.UnknownPaths([]byte(stored))
	require.NoError(t, err)
	assert.Equal(t, []string{"Animals[].Lives", "Favorite.Color", "Sign[].Dots"}, paths)

	var v polyrec.Pen
	require.NoError(t, v.UnmarshalRecord([]byte(stored), recordwire.Lenient))
	v.Favorite.AnimalBase().Name = "Polly2"
	out, err := rt.CarryUnknown([]byte(stored), v.AppendRecord(nil))
	require.NoError(t, err)
	assert.Equal(t, `{"Id":"p1","Keeper":"",`+
		`"Favorite":{"$type":"Parrot","Name":"Polly2","Wings":2,"Words":null,"Color":"green"},`+
		`"Animals":[{"$type":"Cat","Name":"Tom","Indoor":true,"Lives":9}],`+
		`"Sign":[{"$type":"Square","Label":"","Side":1,"Dots":3}],"Plain":null,"Thing":null,"Things":null,"Note":null,"Data":null}`, string(out))
}

// TestPolyRecordTransfer: both record formats carry derived values unchanged (a nested value is its
// JSON text in a CSV cell).
func TestPolyRecordTransfer(t *testing.T) {
	pen := makePen()
	rec := store.Record{Key: pen.RecordKey(), Index: pen.RecordIndex(), Doc: pen.AppendRecord(nil)}
	for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		t.Run(string(format), func(t *testing.T) {
			schema := transfer.Schema{Type: polyrec.PenRecord}
			var buf bytes.Buffer
			enc, err := transfer.NewEncoder(&buf, format, schema)
			require.NoError(t, err)
			require.NoError(t, enc.Encode(rec))
			require.NoError(t, enc.Flush())
			dec, err := transfer.NewDecoder(bytes.NewReader(buf.Bytes()), format, schema, transfer.DecodeOptions{})
			require.NoError(t, err)
			got, err := dec.Next()
			require.NoError(t, err)
			require.NoError(t, got.Err)
			assert.Equal(t, penDoc, string(got.Record.Doc))
		})
	}
}

// TestPolyRecordUnknownDerived: a "$type" naming a type the contract does not know (a newer
// contract's, or one this contract dropped) reads, in Lenient mode and under a concrete declared
// type, as the declared type, and the writer carries the "$type" and the members the declared type
// lacks, so the value is written back as it was; Strict mode (import) refuses it, and so does an
// abstract declared type, which has no value to read it as.
func TestPolyRecordUnknownDerived(t *testing.T) {
	rt := polyrec.PenRecord
	stored := []byte(`{"Id":"p1","Favorite":{"$type":"Horse","Name":"H","Hooves":4}}`)
	var r recordwire.Reader
	r.Reset(stored, recordwire.Lenient)
	var v polyrec.Pen
	require.NoError(t, v.DecodeRecord(&r))
	assert.True(t, r.SawUnknown())
	assert.Equal(t, &polyrec.Animal{Name: "H"}, v.Favorite)
	paths, err := rt.UnknownPaths(stored)
	require.NoError(t, err)
	assert.Equal(t, []string{"Favorite.$type", "Favorite.Hooves"}, paths)
	out, err := rt.CarryUnknown(stored, v.AppendRecord(nil))
	require.NoError(t, err)
	assert.Equal(t, `{"Id":"p1","Keeper":"","Favorite":{"Name":"H","$type":"Horse","Hooves":4},"Animals":null,"Sign":null,"Plain":null,"Thing":null,"Things":null,"Note":null,"Data":null}`, string(out))

	err = v.UnmarshalRecord(stored, recordwire.Strict)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `Favorite: the $type "Horse" is not Animal or a type derived from it`)
	err = v.UnmarshalRecord([]byte(`{"Sign":[{"$type":"Triangle"}]}`), recordwire.Lenient)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `Sign[0]: the $type "Triangle" is not Shape or a type derived from it`)
}

// TestPolyRecordOpenValues: an object (a simple value, a contract complex value of a hierarchy, an
// object[] with a nil item), raw XML and a DataSet keep their values and types through the record codec
// and both record formats; their record types are anyType, raw and dataset.
func TestPolyRecordOpenValues(t *testing.T) {
	note, err := xmlany.ParseRawXML(`<n:note xmlns:n="urn:n" at="1">text &amp; more</n:note>`, xmlwire.Limits{MaxDepth: 16, MaxElements: 100})
	require.NoError(t, err)
	data, err := xmlany.ParseRawXML(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" id="D" />`, xmlwire.Limits{MaxDepth: 16, MaxElements: 100})
	require.NoError(t, err)
	dog := &polyrec.Cat{Indoor: true}
	dog.Name = "Tom"
	pen := &polyrec.Pen{
		Id: "o1", Keeper: "Ann",
		Thing:  anytype.ObjectOf(dog),
		Things: &polyrec.ArrayOfAnyType{AnyType: []anytype.Object{anytype.ObjectInt(7), {}, anytype.ObjectString("x")}},
		Note:   note,
		Data:   &xmlany.DataSet{Content: data},
	}
	doc := pen.AppendRecord(nil)
	assert.Equal(t, `{"Id":"o1","Keeper":"Ann","Favorite":null,"Animals":null,"Sign":null,"Plain":null,`+
		`"Thing":{"$type":"Cat","Name":"Tom","Indoor":true},`+
		`"Things":[{"$type":"xsd:int","$value":"7"},null,{"$type":"xsd:string","$value":"x"}],`+
		`"Note":{"$xml":"<n:note xmlns:n=\"urn:n\" at=\"1\">text &amp; more</n:note>"},`+
		`"Data":{"$xml":"<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" id=\"D\"></xs:schema>"}}`, string(doc))
	var back polyrec.Pen
	require.NoError(t, back.UnmarshalRecord(doc, recordwire.Strict))
	assert.Equal(t, string(doc), string(back.AppendRecord(nil)))
	assert.Equal(t, pen.Thing.Complex(), back.Thing.Complex())

	rec := store.Record{Key: pen.RecordKey(), Index: pen.RecordIndex(), Doc: doc}
	for _, format := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		schema := transfer.Schema{Type: polyrec.PenRecord}
		var buf bytes.Buffer
		enc, err := transfer.NewEncoder(&buf, format, schema)
		require.NoError(t, err)
		require.NoError(t, enc.Encode(rec))
		require.NoError(t, enc.Flush())
		dec, err := transfer.NewDecoder(bytes.NewReader(buf.Bytes()), format, schema, transfer.DecodeOptions{})
		require.NoError(t, err)
		got, err := dec.Next()
		require.NoError(t, err)
		require.NoError(t, got.Err)
		assert.Equal(t, string(doc), string(got.Record.Doc), format)
	}
	types := map[string]string{}
	for i, ft := range polyrec.PenRecord.FieldTypes() {
		types[polyrec.PenRecord.Fields[i]] = ft
	}
	assert.Equal(t, "anyType", types["Thing"])
	assert.Equal(t, "array:anyType", types["Things"])
	assert.Equal(t, "raw", types["Note"])
	assert.Equal(t, "dataset", types["Data"])
}

// TestPolyRecordObjectOfArrayType: an object holding a value of one of the contract's array types
// keeps its type in the record, its items under "$items" (a bare JSON array could not be read back
// as an object), and reads back to the same value in both modes.
func TestPolyRecordObjectOfArrayType(t *testing.T) {
	hello := "hello"
	cat := &polyrec.Cat{Indoor: true}
	cat.Name = "Tom"
	for _, tc := range []struct {
		value anytype.Typed
		doc   string
	}{
		{&polyrec.ArrayOfString{Astring: []*string{&hello, nil}}, `{"$type":"ArrayOfString","$items":["hello",null]}`},
		{&polyrec.ArrayOfAnimal{Animal: []polyrec.AnyAnimal{cat, &polyrec.Animal{Name: "Rex"}}}, `{"$type":"ArrayOfAnimal","$items":[{"$type":"Cat","Name":"Tom","Indoor":true},{"Name":"Rex"}]}`},
	} {
		pen := &polyrec.Pen{Id: "a1", Thing: anytype.ObjectOf(tc.value)}
		doc := pen.AppendRecord(nil)
		assert.Contains(t, string(doc), `"Thing":`+tc.doc+`,`)
		for _, mode := range []recordwire.Mode{recordwire.Strict, recordwire.Lenient} {
			var back polyrec.Pen
			require.NoError(t, back.UnmarshalRecord(doc, mode), tc.doc)
			assert.Equal(t, tc.value, back.Thing.Complex(), tc.doc)
			assert.Equal(t, string(doc), string(back.AppendRecord(nil)))
		}
	}
}
