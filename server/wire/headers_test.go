package wire_test

import (
	"context"
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// TestForeignAttrs: a header block's foreign attributes are kept, SOAP's own and namespace
// declarations left out, and written back so that they read as the same attributes.
func TestForeignAttrs(t *testing.T) {
	doc := `<h xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:s12="http://www.w3.org/2003/05/soap-envelope">` +
		`<A xmlns="urn:t" xmlns:q="urn:q" q:trace="on" plain="x &amp; y" soap:mustUnderstand="1" s12:role="r" xml:lang="de" /></h>`
	rd := xmlwire.NewReader([]byte(doc), "urn:t", xmlwire.Limits{MaxDepth: 8, MaxElements: 8}, false)
	_, err := rd.Root()
	require.NoError(t, err)
	s, ok, err := rd.Child()
	require.NoError(t, err)
	require.True(t, ok)
	attrs := wire.ForeignAttrs(s)
	want := []xml.Attr{{Name: xml.Name{Space: "urn:q", Local: "trace"}, Value: "on"}, {Name: xml.Name{Local: "plain"}, Value: "x & y"},
		{Name: xml.Name{Space: "http://www.w3.org/XML/1998/namespace", Local: "lang"}, Value: "de"}}
	assert.Equal(t, want, attrs)

	written := append(wire.AppendForeignAttrs([]byte(`<A xmlns="urn:t"`), append(attrs, xml.Attr{Name: xml.Name{Space: "xmlns", Local: "z"}, Value: "urn:z"})), " />"...)
	assert.Equal(t, `<A xmlns="urn:t" xmlns:a1="urn:q" a1:trace="on" plain="x &amp; y" xml:lang="de" />`, string(written))
	var back struct {
		Attrs []xml.Attr `xml:",any,attr"`
	}
	require.NoError(t, xml.Unmarshal(written, &back))
	var read []xml.Attr
	for _, a := range back.Attrs {
		if a.Name.Space != "xmlns" && a.Name.Local != "xmlns" {
			read = append(read, a)
		}
	}
	assert.Equal(t, want, read)

	s2, _ := xmlwire.NewReader([]byte(`<A />`), "", xmlwire.Limits{MaxDepth: 8, MaxElements: 8}, false).Root()
	assert.Nil(t, wire.ForeignAttrs(s2), "none: nil")
}

func TestUnknownHeaders(t *testing.T) {
	assert.Nil(t, wire.UnknownHeaders(context.Background()))
	blocks := []wire.HeaderBlock{{Name: xml.Name{Space: "urn:o", Local: "Foo"}, XML: []byte(`<Foo xmlns="urn:o">x</Foo>`)}}
	assert.Equal(t, blocks, wire.UnknownHeaders(wire.WithUnknownHeaders(context.Background(), blocks)))
	assert.NotNil(t, wire.UnknownHeaders(wire.WithUnknownHeaders(context.Background(), []wire.HeaderBlock{})), "empty, not nil")
}
