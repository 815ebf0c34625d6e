package xmlwire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScope: the prefixes in scope at an element are its ancestors' and its own declarations, the
// innermost in force, and a sibling's are gone once it ends; in both modes (InScope: full mode only).
func TestScope(t *testing.T) {
	doc := `<r xmlns="urn:r" xmlns:a="urn:a1"><s xmlns:b="urn:b"><t/></s><u xmlns:a="urn:a2" xsi:type="a:T" xmlns:xsi="` + NSXSI + `"/><v/></r>`
	for _, fast := range []bool{false, true} {
		r := NewReader([]byte(doc), "urn:r", Limits{MaxDepth: 8, MaxElements: 8}, fast)
		_, err := r.Root()
		require.NoError(t, err)
		s, _, err := r.Child() // <s>
		require.NoError(t, err)
		uri, ok := r.LookupPrefix("b")
		assert.True(t, ok)
		assert.Equal(t, "urn:b", uri)
		_, typed, _ := r.TypeAttr(s)
		assert.False(t, typed)
		if !fast {
			assert.Equal(t, []NS{{"", "urn:r"}, {"a", "urn:a1"}, {"b", "urn:b"}}, r.InScope(nil))
		}
		require.NoError(t, r.Skip(s))
		s, _, err = r.Child() // <u>
		require.NoError(t, err)
		_, ok = r.LookupPrefix("b")
		assert.False(t, ok, "fast %v: a sibling's declaration is out of scope", fast)
		uri, _ = r.LookupPrefix("a")
		assert.Equal(t, "urn:a2", uri, "the innermost declaration is in force")
		uri, ok = r.LookupPrefix("")
		assert.True(t, ok)
		assert.Equal(t, "urn:r", uri)
		uri, _ = r.LookupPrefix("xml")
		assert.Equal(t, NSXML, uri)
		v, typed, err := r.TypeAttr(s)
		if fast {
			assert.ErrorIs(t, err, ErrFallback, "fast mode keeps no xsi:type value")
		} else {
			assert.True(t, typed)
			assert.Equal(t, "a:T", v)
		}
		if fast {
			_, err = r.RawContent()
			assert.ErrorIs(t, err, ErrFallback)
			require.NoError(t, r.Skip(s))
			w, _, err := r.Child()
			require.NoError(t, err)
			_, typed, _ = r.TypeAttr(w)
			assert.False(t, typed, "a sibling's xsi:type is not this element's")
			continue
		}
		content, err := r.RawContent()
		require.NoError(t, err)
		assert.Empty(t, content)
		w, _, err := r.Child()
		require.NoError(t, err)
		_, typed, _ = r.TypeAttr(w)
		assert.False(t, typed, "a sibling's xsi:type is not this element's")
		require.NoError(t, r.Skip(w))
		_, more, err := r.Child()
		require.NoError(t, err)
		assert.False(t, more)
		require.NoError(t, r.End())
	}
}
