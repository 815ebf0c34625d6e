package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/server/store"
)

func TestSameRecordType(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"xsd:string", "xsd:string", true},
		{"xsd:string", "xsd:int", false},
		{"", "xsd:int", true},
		{"complex:A", "complex:B", true},
		{"array:complex:A", "array:complex:B", true},
		{"array:xsd:int", "array:xsd:string", false},
		{"array:xsd:int", "xsd:int", false},
		{"complex:A", "xsd:string", false},
		{"enum:Color", "xsd:string", false},
	} {
		assert.Equal(t, c.same, store.SameRecordType(c.a, c.b), "%s %s", c.a, c.b)
	}
}

func TestCompare(t *testing.T) {
	recorded := []store.Field{{Path: "A", Type: "xsd:int"}, {Path: "B", Type: ""}, {Path: "Z", Type: "xsd:string"}}
	plan := store.Compare(recorded, []store.Field{{Path: "A", Type: "xsd:int"}, {Path: "B", Type: "xsd:double"}, {Path: "C", Type: "xsd:string"}})
	assert.Equal(t, store.FieldsPlan{
		Report: store.FieldsReport{Carried: []store.Field{{Path: "Z", Type: "xsd:string"}}},
		Add:    []store.Field{{Path: "C", Type: "xsd:string"}},
		Fill:   []store.Field{{Path: "B", Type: "xsd:double"}},
	}, plan)
	plan = store.Compare(recorded, []store.Field{{Path: "A", Type: "xsd:long"}, {Path: "C", Type: "xsd:string"}})
	assert.Equal(t, store.FieldsPlan{Report: store.FieldsReport{
		Carried: []store.Field{{Path: "B"}, {Path: "Z", Type: "xsd:string"}},
		Changed: []store.TypeChange{{Path: "A", Stored: "xsd:int", Contract: "xsd:long"}},
	}}, plan, "a type change records nothing")
}

// TestCompareDerived: derived rows are compared by path and type, apart from the field rows: a
// recorded one the contract lacks is Dropped (never Carried), a contract's one not recorded is added,
// and a field row and a derived row at one path do not meet.
func TestCompareDerived(t *testing.T) {
	recorded := []store.Field{
		{Path: "Pet", Type: "complex:Animal"},
		{Path: "Pet", Type: "Horse", Derived: true}, {Path: "Pet", Type: "Dog", Derived: true},
	}
	plan := store.Compare(recorded, []store.Field{
		{Path: "Pet", Type: "complex:Animal"},
		{Path: "Pet", Type: "Dog", Derived: true}, {Path: "Pet", Type: "Cat", Derived: true},
		{Path: "Pets[]", Type: "Cat", Derived: true},
	})
	assert.Equal(t, store.FieldsPlan{
		Report: store.FieldsReport{Dropped: []store.Field{{Path: "Pet", Type: "Horse", Derived: true}}},
		Add:    []store.Field{{Path: "Pet", Type: "Cat", Derived: true}, {Path: "Pets[]", Type: "Cat", Derived: true}},
	}, plan)
	assert.Equal(t, []store.Field{{Path: "Pet", Type: "complex:Animal"}}, store.FieldRows(recorded))
	_, err := store.DerivedPath("Pets[]")
	assert.ErrorIs(t, err, store.ErrPathInArray)
	segs, err := store.DerivedPath("A.Pet")
	assert.NoError(t, err)
	assert.Equal(t, []string{"A", "Pet"}, segs)
}
