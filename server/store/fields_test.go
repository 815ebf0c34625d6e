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
