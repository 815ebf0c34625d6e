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

// FuzzAttrs holds the generated attribute and simple-content decoders (decodeXMLElement over
// xmlwire.PlainAttrs, the text of Money, Note and Stamp) to the runtime's two modes agreeing (the fast
// reader steps aside for an element with attributes), to a fixed point (what decodes is written back
// and reads back the same), and to the record form carrying the same value.
func FuzzAttrs(f *testing.F) {
	f.Add([]byte(`<tagged Code="A-1" rev="3" Access="Read Write" When="2026-11-27T10:15:30Z" Tier="Gold"><Name>n</Name>` +
		`<Price Currency="EUR">12.50</Price><Remark Lang="de">Grüße &amp; &lt;ok&gt;</Remark>` +
		`<Stamps><Stamp Seq="1" Ok="true">65535</Stamp><Stamp xsi:nil="true" /></Stamps></tagged>`))
	f.Add([]byte(`<tagged Access="  Write   Read " rev=" +7 " t:Code="x" xmlns:t="urn:t" />`))
	f.Add([]byte(`<tagged><Remark Lang="en">a<b>x</b>c</Remark></tagged>`))
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
		fast, _, fastErr := decodeTagged(content, true)
		full, v, fullErr := decodeTagged(content, false)
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
			return
		}
		again, _, err := decodeTagged(full, false)
		require.NoError(t, err, "written back: %s", full)
		require.Equal(t, string(full), string(again))
		if v.Tagged == nil {
			return
		}
		doc := v.Tagged.AppendRecord(nil)
		var back attrs.Tagged
		require.NoError(t, back.UnmarshalRecord(doc, recordwire.Strict), "record %s", doc)
		require.Equal(t, string(doc), string(back.AppendRecord(nil)))
	})
}
