package recordwire_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// TestAppendTyped: "$type" goes first in the object written at mark, with a comma only when the
// object has members; what is not an object is left alone.
func TestAppendTyped(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"Name":"Rex"}`, `{"$type":"Dog","Name":"Rex"}`},
		{`{}`, `{"$type":"Dog"}`},
		{`null`, `null`},
	} {
		b := append([]byte(`[1,`), tt.in...)
		assert.Equal(t, `[1,`+tt.want, string(recordwire.AppendTyped(b, 3, "Dog")))
	}
}

// TestPeekType: the "$type" member is found wherever it stands in the object, without moving the
// reader; an object without one, or a value that is not an object, has none; a malformed one is an
// error.
func TestPeekType(t *testing.T) {
	for _, tt := range []struct {
		doc, typ string
		ok       bool
		err      string
	}{
		{`{"$type":"Dog","Name":"Rex"}`, "Dog", true, ""},
		{` {"Name":{"$type":"Inner"},"Tags":[1,{"a":2}],"$type":"Dog"}`, "Dog", true, ""},
		{`{"Name":"Rex"}`, "", false, ""},
		{`null`, "", false, ""},
		{`[1]`, "", false, ""},
		{`{"$type":1}`, "", false, "must be a string"},
		{`{"$type":"A","$type":"B"}`, "", false, "appears twice"},
		{`{"Name":`, "", false, "the end of the document"},
	} {
		r := recordwire.NewReader([]byte(tt.doc), recordwire.Lenient)
		typ, ok, err := r.PeekType()
		if tt.err != "" {
			require.Error(t, err, tt.doc)
			assert.Contains(t, err.Error(), tt.err, tt.doc)
			continue
		}
		require.NoError(t, err, tt.doc)
		assert.Equal(t, tt.typ, typ, tt.doc)
		assert.Equal(t, tt.ok, ok, tt.doc)
		raw, err := r.RawValue() // the reader has not moved
		require.NoError(t, err)
		assert.Equal(t, []byte(tt.doc)[len(tt.doc)-len(raw):], raw)
		require.NoError(t, r.End())
	}
}

// TestUnknownDerived: Strict mode refuses a type the contract does not know; Lenient notes an unknown
// member for the writer's carry.
func TestUnknownDerived(t *testing.T) {
	r := recordwire.NewReader([]byte(`{}`), recordwire.Strict)
	require.ErrorContains(t, r.UnknownDerived("Horse", "Animal"), `the $type "Horse" is not Animal or a type derived from it`)
	r = recordwire.NewReader([]byte(`{}`), recordwire.Lenient)
	require.NoError(t, r.UnknownDerived("Horse", "Animal"))
	assert.True(t, r.SawUnknown())
}
