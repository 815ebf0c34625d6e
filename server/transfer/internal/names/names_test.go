package names_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/transfer/internal/names"
)

func TestMap(t *testing.T) {
	m, err := names.New([]string{"Id", "PhoneWork"}, map[string]string{"phoneoffice": "phonework"})
	require.NoError(t, err)
	for _, c := range []struct {
		name      string
		i         int
		exact, ok bool
	}{
		{"Id", 0, true, true}, {"ID", 0, false, true}, {"PhoneOffice", 1, false, true}, {"PhoneWork", 1, true, true}, {"Nick", 0, false, false},
	} {
		i, exact, ok := m.Lookup([]byte(c.name))
		assert.Equal(t, c.ok, ok, c.name)
		if ok {
			assert.Equal(t, c.i, i, c.name)
			assert.Equal(t, c.exact, exact, c.name)
		}
	}
	_, err = names.New([]string{"Id"}, map[string]string{"Old": "Nowhere"})
	assert.ErrorContains(t, err, "Nowhere is not an element of the record type (its elements: Id)")
	_, err = names.New([]string{"Id", "A"}, map[string]string{"a": "Id"})
	assert.ErrorContains(t, err, "A is still an element of the record type")
}
