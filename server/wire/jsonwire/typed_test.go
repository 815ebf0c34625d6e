package jsonwire_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/jsonwire"
)

func TestInsertType(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"Name":"Rex"}`, `{"__type":"Dog","Name":"Rex"}`},
		{`{}`, `{"__type":"Dog"}`},
		{`null`, `null`},
	} {
		b := append([]byte(`[1,`), tt.in...)
		assert.Equal(t, `[1,`+tt.want, string(jsonwire.InsertType(b, 3, "Dog")))
	}
}

// TestTypeKey: "__type" is read when it comes first, and nothing is read otherwise; the object's
// members then read as before.
func TestTypeKey(t *testing.T) {
	for _, tt := range []struct {
		doc, typ, first string
		ok              bool
		err             string
	}{
		{`{"__type":"Dog","Name":"Rex"}`, "Dog", "Name", true, ""},
		{`{"Name":"Rex","__type":"Dog"}`, "", "Name", false, ""},
		{`{}`, "", "", false, ""},
		{`{"__type":1}`, "", "", false, "The __type of the element animal must be a string, not a number."},
	} {
		r := jsonwire.NewReader([]byte(tt.doc), 8)
		tok, err := r.Token()
		require.NoError(t, err)
		require.True(t, tok.Opens('{'))
		typ, ok, err := r.TypeKey("element animal")
		if tt.err != "" {
			require.Error(t, err)
			assert.Equal(t, tt.err, fault.As(err).Message)
			continue
		}
		require.NoError(t, err, tt.doc)
		assert.Equal(t, tt.ok, ok, tt.doc)
		assert.Equal(t, tt.typ, typ, tt.doc)
		key, more, err := r.Key()
		require.NoError(t, err)
		assert.Equal(t, tt.first != "", more)
		assert.Equal(t, tt.first, key)
	}
}
