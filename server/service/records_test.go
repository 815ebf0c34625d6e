package service_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/service"
)

func TestCheckRecord(t *testing.T) {
	bad, ok := "r\x01", "r"
	for _, c := range []struct {
		contact *gen.Contact
		want    string
	}{
		{&gen.Contact{Id: "c1", FirstName: "Ann", RoleIds: &gen.ArrayOfString{Astring: []*string{&ok, nil}}}, ""},
		{&gen.Contact{}, "Id is not a valid contact id: The parameter id is required and must not be empty."},
		{&gen.Contact{Id: "c\x01"}, "Id is not a valid contact id: The parameter id contains a control character (U+0001)."},
		{&gen.Contact{Id: "c1", LastName: "a\uFFFEb"}, "LastName holds a character XML cannot carry (U+FFFE)"},
		{&gen.Contact{Id: "c1", RoleIds: &gen.ArrayOfString{Astring: []*string{&ok, &bad}}}, "RoleIds[1] holds a character XML cannot carry (U+0001)"},
	} {
		err := service.Records.Check(c.contact)
		if c.want == "" {
			assert.NoError(t, err)
		} else {
			assert.EqualError(t, err, c.want)
		}
	}
	assert.Same(t, gen.ContactRecord, service.Records.Type)
}
