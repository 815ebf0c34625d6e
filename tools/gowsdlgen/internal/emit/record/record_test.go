package record_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit/record"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// TestRecordHierarchies: a record type reaching a type with derived types, or itself in a hierarchy,
// gets the record codec of every type of the hierarchy ("$type" naming a derived value's type: design
// §4) and the hierarchy's dispatch functions; a record type outside every hierarchy gets neither.
func TestRecordHierarchies(t *testing.T) {
	str := &model.Type{Name: "string", Kind: model.KindString}
	animal := &model.Type{Name: "Animal", GoName: "Animal", Kind: model.KindComplex,
		Fields: []*model.Field{{Name: "Name", GoName: "Name", Type: str, MaxOccurs: 1}}}
	dog := &model.Type{Name: "Dog", GoName: "Dog", Kind: model.KindComplex, Base: animal,
		Fields: []*model.Field{{Name: "Tag", GoName: "Tag", Type: str, MaxOccurs: 1}}}
	animal.Derived = []*model.Type{dog}
	kennel := &model.Type{Name: "Kennel", GoName: "Kennel", Kind: model.KindComplex, Fields: []*model.Field{
		{Name: "Name", GoName: "Name", Type: str, MaxOccurs: 1}, {Name: "Owner", GoName: "Owner", Type: str, MaxOccurs: 1},
		{Name: "Favorite", GoName: "Favorite", Type: animal, MaxOccurs: 1}}}
	plain := &model.Type{Name: "Plain", GoName: "Plain", Kind: model.KindComplex, Fields: []*model.Field{
		{Name: "Name", GoName: "Name", Type: str, MaxOccurs: 1}, {Name: "Owner", GoName: "Owner", Type: str, MaxOccurs: 1}}}
	c := &model.Contract{Types: []*model.Type{kennel, animal, dog, plain}}
	for typ, index := range map[string]string{"Kennel": "Owner", "Animal": "Name", "Dog": "Tag"} {
		w := &emit.Writer{}
		require.NoError(t, record.Emit(w, c, &record.Options{Type: typ, Key: "Name", Index: index}), typ)
		src := string(w.Bytes())
		for _, want := range []string{"func (v *Animal) DecodeRecord", "func (v *Dog) AppendRecord", "func decodeRecordAnimalAny",
			"case recordwire.TypeKey:", `recordwire.AppendTyped(x.AppendRecord(b), len(b), "Dog")`} {
			assert.Contains(t, src, want, typ)
		}
	}
	w := &emit.Writer{}
	require.NoError(t, record.Emit(w, c, &record.Options{Type: "Plain", Key: "Name", Index: "Owner"}))
	assert.NotContains(t, string(w.Bytes()), "TypeKey")
	assert.NotContains(t, string(w.Bytes()), "Animal")
}

// TestRecordOpenTypes: an object, raw XML and a DataSet reachable from the record type are written and
// read by server/wire/recordany (an object through the contract's registry), and get no record codec of
// their own.
func TestRecordOpenTypes(t *testing.T) {
	str := &model.Type{Name: "string", Kind: model.KindString}
	for open, want := range map[*model.Type][]string{
		{Name: "anyType", Kind: model.KindObject}:    {"recordany.AppendObject(b, v.V)", "v.V, err = recordany.DecodeObject(r, objectRegistry)"},
		{Name: "XmlElement", Kind: model.KindRawXML}: {"recordany.AppendRaw(b, v.V)", "v.V, err = recordany.DecodeRaw(r)"},
		{Name: "DataSet", Kind: model.KindDataSet}:   {"recordany.AppendDataSet(b, v.V)", "v.V, err = recordany.DecodeDataSet(r)"},
	} {
		inner := &model.Type{Name: "Inner", GoName: "Inner", Kind: model.KindComplex, Fields: []*model.Field{{Name: "V", GoName: "V", Type: open, MaxOccurs: 1}}}
		rec := &model.Type{Name: "Rec", GoName: "Rec", Kind: model.KindComplex, Fields: []*model.Field{
			{Name: "Id", GoName: "Id", Type: str, MaxOccurs: 1, MinOccurs: 1}, {Name: "Owner", GoName: "Owner", Type: str, MaxOccurs: 1, MinOccurs: 1},
			{Name: "Inner", GoName: "Inner", Type: inner, MaxOccurs: 1}}}
		c := &model.Contract{Types: []*model.Type{rec, inner, open}}
		w := &emit.Writer{}
		require.NoError(t, record.Emit(w, c, &record.Options{Type: "Rec", Key: "Id", Index: "Owner"}), open.Name)
		for _, x := range want {
			assert.Contains(t, string(w.Bytes()), x, open.Name)
		}
		assert.NotContains(t, string(w.Bytes()), "func (v *"+open.GoName+") AppendRecord", open.Name)
	}
}
