package zoo_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/attrs"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/hierattrs"
)

// decodeTagged decodes content as the children of an EchoTagged wrapper of zoo/attrs in the mode
// given and returns the value written back.
func decodeTagged(content []byte, fast bool) ([]byte, *attrs.EchoTagged, error) {
	doc := append([]byte(`<EchoTagged xmlns="`+zoo3Namespace+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`), content...)
	doc = append(doc, `</EchoTagged>`...)
	rd := xmlwire.NewReader(doc, zoo3Namespace, xmlwire.Limits{MaxDepth: 32, MaxElements: 10000}, fast)
	if _, err := rd.Root(); err != nil {
		return nil, nil, err
	}
	m := new(attrs.EchoTagged)
	if err := m.DecodeXML(rd); err != nil {
		return nil, nil, err
	}
	if err := rd.End(); err != nil {
		return nil, nil, err
	}
	return m.AppendXML(nil), m, nil
}

// decodeShelf decodes content as the children of an EchoShelf wrapper of zoo/hierattrs in the mode
// given and returns the value written back.
func decodeShelf(content []byte, fast bool) ([]byte, *hierattrs.EchoShelf, error) {
	doc := append([]byte(`<EchoShelf xmlns="`+hierattrs.Contract.Namespace+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`), content...)
	doc = append(doc, `</EchoShelf>`...)
	rd := xmlwire.NewReader(doc, hierattrs.Contract.Namespace, xmlwire.Limits{MaxDepth: 32, MaxElements: 10000}, fast)
	if _, err := rd.Root(); err != nil {
		return nil, nil, err
	}
	m := new(hierattrs.EchoShelf)
	if err := m.DecodeXML(rd); err != nil {
		return nil, nil, err
	}
	if err := rd.End(); err != nil {
		return nil, nil, err
	}
	return m.AppendXML(nil), m, nil
}

// FuzzAttrs holds the generated attribute and simple-content decoders (decodeXMLElement over
// xmlwire.PlainAttrs, the text of Money, Note and Stamp) and those of attributes in a hierarchy
// (zoo/hierattrs: xsi:type dispatch, then the base chain's attributes and the derived type's) to the
// runtime's two modes agreeing (the fast reader steps aside for an element with attributes), to a
// fixed point (what decodes is written back and reads back the same), and to the record form carrying
// the same value. Each input is read as zoo/attrs's EchoTagged and as zoo/hierattrs's EchoShelf.
func FuzzAttrs(f *testing.F) {
	f.Add([]byte(`<tagged Code="A-1" rev="3" Access="Read Write" When="2026-11-27T10:15:30Z" Tier="Gold"><Name>n</Name>` +
		`<Price Currency="EUR">12.50</Price><Remark Lang="de">Grüße &amp; &lt;ok&gt;</Remark>` +
		`<Stamps><Stamp Seq="1" Ok="true">65535</Stamp><Stamp xsi:nil="true" /></Stamps></tagged>`))
	f.Add([]byte(`<tagged Access="  Write   Read " rev=" +7 " t:Code="x" xmlns:t="urn:t" />`))
	f.Add([]byte(`<tagged><Remark Lang="en">a<b>x</b>c</Remark></tagged>`))
	f.Add([]byte(`<shelf><Id>s</Id><Main xsi:type="Tool" Id="t" rev="2" Sharp="true" Grade="High"><Name>n</Name><Weight>7</Weight></Main>` +
		`<Items><Item Id="i" rev="1" /><Item xsi:type="Crate" rev="-3" Size="40" Lid="o"><Label>l</Label></Item><Item xsi:nil="true" /></Items>` +
		`<Spare rev="9" Sharp="0" Size="1"><Weight>1</Weight></Spare></shelf>`))
	f.Add([]byte(`<shelf><Main xsi:type="Box" Size="1" /><Main xsi:type="Crate" Size="x" /></shelf>`))
	files, _ := filepath.Glob("testdata/shapes/captures/soap1*-EchoTagged-*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, m := range wrapperContent.FindAllSubmatch(data, -1) {
			if string(m[1]) == "EchoTagged" {
				f.Add(m[2])
			}
		}
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		if v := checkAttrsDecoders(t, content, decodeTagged); v != nil && v.Tagged != nil {
			doc := v.Tagged.AppendRecord(nil)
			var back attrs.Tagged
			require.NoError(t, back.UnmarshalRecord(doc, recordwire.Strict), "record %s", doc)
			require.Equal(t, string(doc), string(back.AppendRecord(nil)))
		}
		if v := checkAttrsDecoders(t, content, decodeShelf); v != nil && v.Shelf != nil {
			doc := v.Shelf.AppendRecord(nil)
			var back hierattrs.Shelf
			require.NoError(t, back.UnmarshalRecord(doc, recordwire.Strict), "record %s", doc)
			require.Equal(t, string(doc), string(back.AppendRecord(nil)))
		}
	})
}

// checkAttrsDecoders holds decode (decodeTagged or decodeShelf) to its two modes agreeing and to a
// fixed point; it returns the value content decodes to, or nil when the decoders refuse it.
func checkAttrsDecoders[M any](t *testing.T, content []byte, decode func([]byte, bool) ([]byte, *M, error)) *M {
	fast, _, fastErr := decode(content, true)
	full, v, fullErr := decode(content, false)
	switch {
	case fastErr == xmlwire.ErrFallback:
	case fastErr != nil:
		if fullErr == nil || fastErr.Error() != fullErr.Error() {
			t.Fatalf("the fast path reported %v, the full decoder %v: %q", fastErr, fullErr, content)
		}
	case fullErr != nil:
		t.Fatalf("the fast path accepted what the full decoder refuses (%v): %q", fullErr, content)
	case !bytes.Equal(fast, full):
		t.Fatalf("fast path %s, full decoder %s: %q", fast, full, content)
	}
	if fullErr != nil {
		return nil
	}
	again, _, err := decode(full, false)
	require.NoError(t, err, "written back: %s", full)
	require.Equal(t, string(full), string(again))
	return v
}
