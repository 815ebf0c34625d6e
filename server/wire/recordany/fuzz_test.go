package recordany_test

import (
	"testing"

	"github.com/contactsync/contactsync/server/wire/recordany"
	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// FuzzRecordObject feeds arbitrary documents to the object and raw XML record decoders (a stored or
// imported record is untrusted input): they never panic, and a document that reads writes a form that
// reads back to the same form.
func FuzzRecordObject(f *testing.F) {
	for _, seed := range []string{
		`null`, `{}`, `{"$type":"xsd:int","$value":"1"}`, `{"$type":"Tier","$value":"Gold"}`,
		`{"$type":"Pet","Name":"Rex"}`, `{"$type":"Box","$xml":"<Label>x</Label>"}`,
		`{"$type":"ArrayOfAnyType","$items":[null,{}]}`, `{"$xml":"a<b xmlns=\"urn:x\"/>"}`,
		`{"$xsiType":"{urn:t}T","$xml":"<x/>"}`, `{"$type":"xsd:string","$value":"<&>"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if o, err := recordany.DecodeObject(recordwire.NewReader(doc, recordwire.Strict), reg); err == nil {
			form := recordany.AppendObject(nil, o)
			back, err := recordany.DecodeObject(recordwire.NewReader(form, recordwire.Strict), reg)
			if err != nil {
				t.Fatalf("%s wrote %s, which does not read: %v", doc, form, err)
			}
			if again := recordany.AppendObject(nil, back); string(again) != string(form) {
				t.Fatalf("%s: %s read back as %s", doc, form, again)
			}
		}
		if x, err := recordany.DecodeRaw(recordwire.NewReader(doc, recordwire.Strict)); err == nil {
			form := recordany.AppendRaw(nil, x)
			back, err := recordany.DecodeRaw(recordwire.NewReader(form, recordwire.Strict))
			if err != nil || back != x {
				t.Fatalf("%s: %s read back as %v, %v", doc, form, back, err)
			}
		}
	})
}
