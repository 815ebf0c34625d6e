package xmlwire

import (
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainAttrs: the full reader returns an element's attributes; the fast one returns none for an
// element without unqualified attributes (xmlns declarations, xsi:nil and prefixed attributes do not
// count, so today's documents are read without allocating) and steps aside (ErrFallback) for one with
// any, whichever element of the document it is.
func TestPlainAttrs(t *testing.T) {
	const ns = "urn:t"
	for _, tt := range []struct {
		name, doc string
		fallback  bool
		full      []xml.Attr
	}{
		{"none", `<a xmlns="urn:t"><b>1</b></a>`, false, []xml.Attr{}},
		{"declarations and prefixed only", `<a xmlns="urn:t"><b xmlns:p="urn:p" p:x="1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true" /></a>`, false,
			[]xml.Attr{{Name: xml.Name{Space: "xmlns", Local: "p"}, Value: "urn:p"}, {Name: xml.Name{Space: "urn:p", Local: "x"}, Value: "1"},
				{Name: xml.Name{Space: "xmlns", Local: "xsi"}, Value: "http://www.w3.org/2001/XMLSchema-instance"},
				{Name: xml.Name{Space: "http://www.w3.org/2001/XMLSchema-instance", Local: "nil"}, Value: "true"}}},
		{"unqualified", `<a xmlns="urn:t"><b Code="x y" rev="3">1</b></a>`, true,
			[]xml.Attr{{Name: xml.Name{Local: "Code"}, Value: "x y"}, {Name: xml.Name{Local: "rev"}, Value: "3"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, fast := range []bool{true, false} {
				r := NewReader([]byte(tt.doc), ns, Limits{MaxDepth: 8, MaxElements: 8}, fast)
				_, err := r.Root()
				require.NoError(t, err)
				b, ok, err := r.Child()
				require.NoError(t, err)
				require.True(t, ok)
				attrs, err := r.PlainAttrs(b)
				switch {
				case fast && tt.fallback:
					assert.ErrorIs(t, err, ErrFallback)
				case fast:
					require.NoError(t, err)
					assert.Nil(t, attrs)
				default:
					require.NoError(t, err)
					assert.Equal(t, len(tt.full), len(attrs))
					if len(tt.full) > 0 {
						assert.Equal(t, tt.full, attrs)
					}
				}
			}
		})
	}
	// A later element without attributes is not held to an earlier one's.
	r := NewReader([]byte(`<a xmlns="urn:t"><b c="1" /><d /></a>`), ns, Limits{MaxDepth: 8, MaxElements: 8}, true)
	_, err := r.Root()
	require.NoError(t, err)
	b, _, err := r.Child()
	require.NoError(t, err)
	require.NoError(t, r.Discard())
	_ = b
	d, ok, err := r.Child()
	require.NoError(t, err)
	require.True(t, ok)
	attrs, err := r.PlainAttrs(d)
	require.NoError(t, err)
	assert.Nil(t, attrs)
}

// TestReopenStart: attributes are added to an open start tag only; an empty element, a declaration or
// nothing is left as it is.
func TestReopenStart(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{`<a>`, `<a x="&lt;&amp;&quot;">`, true},
		{`<a />`, `<a />`, false},
		{`<?xml version="1.0"?>`, `<?xml version="1.0"?>`, false},
		{``, ``, false},
	} {
		b, ok := ReopenStart([]byte(tt.in))
		assert.Equal(t, tt.ok, ok, tt.in)
		if ok {
			b = append(AppendAttrValue(append(b, ` x="`...), `<&"`), '"', '>')
		}
		assert.Equal(t, tt.want, string(b), tt.in)
	}
}

// TestAppendAttrValue: a tab and a line feed in an attribute value are character references, so a
// reader that normalises attribute white space reads them back; the rest is escaped as text is.
func TestAppendAttrValue(t *testing.T) {
	assert.Equal(t, `a&#x9;b&#xA;c&amp;&lt;&quot;`, string(AppendAttrValue(nil, "a\tb\nc&<\"")))
	assert.Equal(t, `plain`, string(AppendAttrValue(nil, "plain")))
}
