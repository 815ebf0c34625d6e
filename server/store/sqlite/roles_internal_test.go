package sqlite

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRolesMatchEncodingJSON checks that the hand-written fast paths write exactly what json.Marshal
// writes and read back what json.Unmarshal reads, for plain ids and for every kind encoding/json escapes.
func TestRolesMatchEncodingJSON(t *testing.T) {
	for _, ids := range [][]string{
		{"role-user"},
		{"role-user", "role-de6a"},
		{"", "a"},
		{"a,b", `say "hi"`, `back\slash`, "<b>&amp;</b>", "tab\there", "Zoë", "emoji 😀", "\u2028"},
		{`","`, "]", "["},
	} {
		want, err := json.Marshal(ids)
		require.NoError(t, err)
		got, err := encodeRoles(ids)
		require.NoError(t, err)
		assert.Equal(t, string(want), got)
		back, err := decodeRoles(got)
		require.NoError(t, err)
		assert.Equal(t, ids, back)
	}
	for _, s := range []string{`[ "a" ]`, `["a" ,"b"]`, `["\u0061"]`, "[\"a\"]\n", `["a",]`, `[""]`, `["a""b"]`} {
		var want []string
		wantErr := json.Unmarshal([]byte(s), &want)
		got, err := decodeRoles(s)
		if wantErr != nil {
			assert.Error(t, err, s)
			continue
		}
		require.NoError(t, err, s)
		if len(want) == 0 {
			want = nil
		}
		assert.Equal(t, want, got, s)
	}
}

func FuzzDecodeRoles(f *testing.F) {
	for _, s := range []string{`[]`, `["a"]`, `["a","b"]`, `["a" ,"b"]`, `["\""]`, `[""]`, `["a",]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ids, ok := decodePlainRoles(s); ok {
			var want []string
			require.NoError(t, json.Unmarshal([]byte(s), &want), "fast path accepted what encoding/json rejects: %q", s)
			if len(want) == 0 {
				want = nil
			}
			require.Equal(t, want, ids, "%q", s)
		}
	})
}
