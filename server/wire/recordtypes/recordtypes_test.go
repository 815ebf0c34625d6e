package recordtypes_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/recordtypes"
)

// TestOf holds the record type names the store records in record_fields: a change here is a change
// of every stored record type, which a start would then refuse as a type change.
func TestOf(t *testing.T) {
	animal := &wire.Type{Name: "Animal", Kind: wire.KindComplex}
	for _, tc := range []struct {
		typ  *wire.Type
		want string
	}{
		{&wire.Type{Name: "int", Kind: wire.KindInt}, "xsd:int"},
		{&wire.Type{Name: "guid", Kind: wire.KindGUID}, "ms:guid"},
		{&wire.Type{Name: "char", Kind: wire.KindChar}, "ms:char"},
		{&wire.Type{Name: "Tier", Kind: wire.KindEnum}, "enum:Tier"},
		{&wire.Type{Name: "Perm", Kind: wire.KindFlags}, "flags:Perm"},
		{&wire.Type{Name: "anyType", Kind: wire.KindObject}, "anyType"},
		{&wire.Type{Kind: wire.KindRawXML}, "raw"},
		{&wire.Type{Kind: wire.KindDataSet}, "dataset"},
		{animal, "complex:Animal"},
		{&wire.Type{Name: "ArrayOfAnimal", Kind: wire.KindArray, Item: &wire.Field{Name: "Animal", Type: animal}}, "array:complex:Animal"},
		{&wire.Type{Name: "ArrayOfX", Kind: wire.KindArray}, "array:"},
	} {
		assert.Equal(t, tc.want, recordtypes.Of(tc.typ), tc.typ.Name)
	}
}

// TestFieldsAndDerived walks a record type holding a polymorphic field with an abstract base: the
// derived types' elements sit under the base's path, the abstract base is named, and only concrete
// types are derived rows.
func TestFieldsAndDerived(t *testing.T) {
	str := &wire.Type{Name: "string", Kind: wire.KindString}
	intT := &wire.Type{Name: "int", Kind: wire.KindInt}
	parrot := &wire.Type{Name: "Parrot", Kind: wire.KindComplex, Fields: []wire.Field{{Name: "Name", Type: str, MaxOccurs: 1}, {Name: "Words", Type: intT, MaxOccurs: 1}}}
	bird := &wire.Type{Name: "Bird", Kind: wire.KindComplex, Abstract: true, Derived: []*wire.Type{parrot}, Fields: []wire.Field{{Name: "Name", Type: str, MaxOccurs: 1}}}
	contact := &wire.Type{Name: "Contact", Kind: wire.KindComplex, Fields: []wire.Field{
		{Name: "Id", Type: str, MaxOccurs: 1},
		{Name: "Pet", Type: bird, MaxOccurs: 1},
		{Name: "Pets", Type: bird, MaxOccurs: -1},
	}}
	assert.Equal(t, map[string]string{
		"Id": "xsd:string", "Pet": "complex:Bird", "Pet.Name": "xsd:string", "Pet.Words": "xsd:int",
		"Pets": "array:complex:Bird", "Pets[].Name": "xsd:string", "Pets[].Words": "xsd:int",
	}, recordtypes.Fields(contact))
	derived, abstract := recordtypes.Derived(contact)
	assert.Equal(t, map[string][]string{"Pet": {"Parrot"}, "Pets[]": {"Parrot"}}, derived)
	assert.Equal(t, map[string]string{"Pet": "Bird", "Pets[]": "Bird"}, abstract)
	assert.Empty(t, recordtypes.Fields(nil))
}

// TestObjects: every object element's path ("Extra", under a nested type "Home.Extra", under a
// derived type's own elements, "Things[]" for an object[]'s items and "Extras[]" for a repeated
// object) names the contract's object types as given (wire.Contract.ObjectTypes), each path its own
// copy; a record without object elements has no path.
func TestObjects(t *testing.T) {
	str := &wire.Type{Name: "string", Kind: wire.KindString}
	object := &wire.Type{Name: "anyType", Kind: wire.KindObject}
	tier := &wire.Type{Name: "Tier", Kind: wire.KindEnum, Enum: []string{"Gold"}}
	dog := &wire.Type{Name: "Dog", Kind: wire.KindComplex, Fields: []wire.Field{{Name: "Name", Type: str, MaxOccurs: 1}, {Name: "Toy", Type: object, MaxOccurs: 1}}}
	animal := &wire.Type{Name: "Animal", Kind: wire.KindComplex, Abstract: true, Derived: []*wire.Type{dog}, Fields: []wire.Field{{Name: "Name", Type: str, MaxOccurs: 1}}}
	animals := &wire.Type{Name: "ArrayOfAnimal", Kind: wire.KindArray, Item: &wire.Field{Name: "Animal", Type: animal, MaxOccurs: -1}}
	things := &wire.Type{Name: "ArrayOfAnyType", Kind: wire.KindArray, Item: &wire.Field{Name: "anyType", Type: object, MaxOccurs: -1}}
	home := &wire.Type{Name: "Home", Kind: wire.KindComplex, Fields: []wire.Field{{Name: "Extra", Type: object, MaxOccurs: 1}, {Name: "Level", Type: tier, MaxOccurs: 1}}}
	contact := &wire.Type{Name: "Contact", Kind: wire.KindComplex, Fields: []wire.Field{
		{Name: "Id", Type: str, MaxOccurs: 1},
		{Name: "Extra", Type: object, MaxOccurs: 1},
		{Name: "Extras", Type: object, MaxOccurs: -1},
		{Name: "Things", Type: things, MaxOccurs: 1},
		{Name: "Home", Type: home, MaxOccurs: 1},
		{Name: "Pets", Type: animals, MaxOccurs: 1},
	}}
	types := []string{"Contact", "Home", "ArrayOfAnimal", "Dog"}
	objects := recordtypes.Objects(contact, types)
	assert.Equal(t, map[string][]string{
		"Extra": types, "Extras[]": types, "Things[]": types, "Home.Extra": types, "Pets[].Toy": types,
	}, objects)
	objects["Extra"][0] = "changed"
	assert.Equal(t, "Contact", objects["Extras[]"][0], "each path holds its own list")
	assert.Equal(t, []string(nil), recordtypes.Objects(contact, nil)["Extra"], "no object types: the paths alone")
	assert.Empty(t, recordtypes.Objects(home.Fields[1].Type, types), "a type without elements")
	assert.Empty(t, recordtypes.Objects(nil, types))
	derived, _ := recordtypes.Derived(contact)
	assert.Equal(t, map[string][]string{"Pets[]": {"Dog"}}, derived, "object paths are not Derived's")
}
