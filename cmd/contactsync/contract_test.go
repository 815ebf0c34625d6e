package main

import (
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire"
)

// The data commands' tests take the fields they write and read from the contract's record type
// (gen.ContactRecord), by role: its key, its indexed field, its text fields, its array of texts. So
// they hold after a field is added or renamed in wsdl/contactsync.wsdl; what the commands write in
// return (an export of the whole record) is a golden file under testdata/, which -update rewrites
// (`make update-golden` runs it after a contract edit).

// update rewrites the golden files under testdata/.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with the file, or rewrites the file under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run make update-golden")
	require.Equal(t, string(want), got, "%s differs; if the contract was edited on purpose, run make update-golden", path)
}

// recordFields are the top-level fields of the contract's record type, in schema order.
func recordFields() []wire.Field { return gen.ContactRecord.Type.Fields }

// textFields names the record's single-valued xsd:string fields other than its key and indexed
// field, in schema order (FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress in contract 1.0).
func textFields(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, f := range recordFields() {
		if f.Type.Kind == wire.KindString && f.MaxOccurs == 1 && f.Name != gen.ContactRecord.Key && f.Name != gen.ContactRecord.Index {
			names = append(names, f.Name)
		}
	}
	require.GreaterOrEqual(t, len(names), 2, "the tests need two text fields besides the key and the index")
	return names
}

// textArrayField names the record's first array of xsd:string (RoleIds in contract 1.0), "" when it
// has none.
func textArrayField() string {
	for _, f := range recordFields() {
		if f.Type.Kind == wire.KindArray && f.Type.Item != nil && f.Type.Item.Type.Kind == wire.KindString {
			return f.Name
		}
	}
	return ""
}

// sampleContact is a contact with key id and indexed field index, whose text fields take texts in
// schema order (the rest stay empty) and whose array of texts, if any, holds items (an empty array
// for none); every other field keeps its zero value.
func sampleContact(t *testing.T, id, index string, texts []string, items ...string) *gen.Contact {
	t.Helper()
	c := new(gen.Contact)
	v := reflect.ValueOf(c).Elem()
	setText(t, v, gen.ContactRecord.Key, id)
	setText(t, v, gen.ContactRecord.Index, index)
	for i, name := range textFields(t) {
		if i < len(texts) {
			setText(t, v, name, texts[i])
		}
	}
	if name := textArrayField(); name != "" {
		a := &gen.ArrayOfString{Astring: []*string{}}
		for _, item := range items {
			a.Astring = append(a.Astring, &item)
		}
		structField(t, v, name).Set(reflect.ValueOf(a))
	}
	return c
}

func setText(t *testing.T, v reflect.Value, name, s string) {
	t.Helper()
	structField(t, v, name).SetString(s)
}

// structField finds the field of the generated struct v that carries element name (its xml tag).
func structField(t *testing.T, v reflect.Value, name string) reflect.Value {
	t.Helper()
	for i := range v.NumField() {
		tag, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("xml"), ",")
		if tag == name {
			return v.Field(i)
		}
	}
	t.Fatalf("the generated %s has no field for element %s", v.Type(), name)
	return reflect.Value{}
}

// knownFields is the list of the record's fields the data commands name when they refuse an unknown
// one ("the known fields are Id, AccountId, …").
func knownFields() string {
	var names []string
	for _, f := range recordFields() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
