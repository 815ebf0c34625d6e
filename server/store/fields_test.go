package store_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
}

func TestDerivedPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		want [][]string
	}{
		{"Pet", [][]string{{"Pet"}}},
		{"A.Pet", [][]string{{"A", "Pet"}}},
		{"Pets[]", [][]string{{"Pets"}, nil}},
		{"A.Pets[].Pet", [][]string{{"A", "Pets"}, {"Pet"}}},
		{"Groups[].Pets[]", [][]string{{"Groups"}, {"Pets"}, nil}},
	} {
		got, err := store.DerivedPath(tc.path)
		require.NoError(t, err, tc.path)
		assert.Equal(t, tc.want, got, tc.path)
	}
	for _, bad := range []string{"", "[]", "A.", "A..B", "A.[]", `A"B`, `A\B`, "A[]]", "A[][]", "A[x]"} {
		_, err := store.DerivedPath(bad)
		assert.Error(t, err, "%q", bad)
	}
}

func TestRenameRows(t *testing.T) {
	recorded := []store.Field{
		{Path: "Old", Type: "complex:Animal"}, {Path: "Old", Type: "Dog", Derived: true}, {Path: "Old", Type: "Cat", Derived: true},
		{Path: "Old.Barks", Type: "xsd:int"}, {Path: "Older", Type: "xsd:string"}, {Path: "Olds", Type: "array:complex:Animal"},
		{Path: "New", Type: "complex:Animal"}, {Path: "New", Type: "Dog", Derived: true},
		{Path: "OldList", Type: "array:complex:Animal"}, {Path: "OldList[]", Type: "Dog", Derived: true}, {Path: "OldList[].Barks", Type: "xsd:int"},
	}
	assert.Equal(t, []store.RowRename{
		{Row: recorded[0], Path: "New", Drop: true},
		{Row: recorded[1], Path: "New", Drop: true},
		{Row: recorded[2], Path: "New"},
		{Row: recorded[3], Path: "New.Barks"},
	}, store.RenameRows(recorded, "Old", "New"), "the new path keeps its own field row and its derived rows")
	assert.Equal(t, []store.RowRename{
		{Row: recorded[8], Path: "Pets"},
		{Row: recorded[9], Path: "Pets[]"},
		{Row: recorded[10], Path: "Pets[].Barks"},
	}, store.RenameRows(recorded, "OldList", "Pets"), "an array's items' rows follow it")
}
