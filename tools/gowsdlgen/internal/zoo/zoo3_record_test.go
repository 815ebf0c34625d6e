package zoo_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// TestZoo3RecordSmalls: the record codec generated for zoo3's Smalls writes the small and unsigned
// types and char as JSON numbers (uint64 exact, char its code unit's number), reads them back to the
// same value, and refuses a number outside a type's range; the key and index are their digits.
func TestZoo3RecordSmalls(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    *zoo3.Smalls
		doc  string
	}{
		{"max (GetSmalls max=true)", makeSmalls(true),
			`{"B":255,"SB":127,"US":65535,"UI":4294967295,"UL":18446744073709551615,"C":65535,"Span":{},"Bytes":"APv/","SBytes":[-128,-1,0,127]}`},
		{"min (GetSmalls max=false)", makeSmalls(false),
			`{"B":0,"SB":-128,"US":0,"UI":0,"UL":0,"C":233,"Span":{},"Bytes":"","SBytes":null}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := tt.v.AppendRecord(nil)
			assert.Equal(t, tt.doc, string(doc))
			var back zoo3.Smalls
			require.NoError(t, back.UnmarshalRecord(doc, recordwire.Strict))
			assert.Equal(t, tt.v, &back)
		})
	}
	assert.Equal(t, "18446744073709551615", makeSmalls(true).RecordKey())
	assert.Equal(t, "255", makeSmalls(true).RecordIndex())

	for _, bad := range []struct{ doc, want string }{
		{`{"B":256}`, "unsignedByte"},
		{`{"SB":-129}`, "byte"},
		{`{"UI":-1}`, "unsignedInt"},
		{`{"UL":18446744073709551616}`, "unsignedLong"},
		{`{"C":65536}`, "char"},
		{`{"C":"A"}`, "C"},
	} {
		var v zoo3.Smalls
		err := v.UnmarshalRecord([]byte(bad.doc), recordwire.Strict)
		require.Error(t, err, bad.doc)
		assert.Contains(t, err.Error(), bad.want, bad.doc)
	}
}
