package recordany_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/recordany"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// pet is a contract complex type with an XML and a record codec, as the generator writes them.
type pet struct{ Name string }

func (p *pet) AppendXML(b []byte) []byte { return xmlwire.AppendString(b, "Name", p.Name) }
func (p *pet) DecodeXML(r *xmlwire.Reader) error {
	for {
		el, ok, err := r.Child()
		if err != nil || !ok {
			return err
		}
		if p.Name, err = r.Text(el, "element Name"); err != nil {
			return err
		}
	}
}
func (*pet) XSDType() string { return "Pet" }
func (p *pet) AppendRecord(b []byte) []byte {
	return append(recordwire.AppendString(append(b, `{"Name":`...), p.Name), '}')
}
func (p *pet) DecodeRecord(r *recordwire.Reader) error {
	if err := r.BeginObject(); err != nil {
		return err
	}
	for {
		key, ok, err := r.Key()
		if err != nil || !ok {
			return err
		}
		switch string(key) {
		case "Name":
			p.Name, err = r.String()
		case recordwire.TypeKey:
			err = r.Skip()
		default:
			err = r.Unknown(key, []string{"Name"})
		}
		if err != nil {
			return err
		}
	}
}

// box is a complex type without a record codec: its value travels as its XML content.
type box struct{ Label string }

func (v *box) AppendXML(b []byte) []byte { return xmlwire.AppendString(b, "Label", v.Label) }
func (v *box) DecodeXML(r *xmlwire.Reader) error {
	for {
		el, ok, err := r.Child()
		if err != nil || !ok {
			return err
		}
		if v.Label, err = r.Text(el, "element Label"); err != nil {
			return err
		}
	}
}
func (*box) XSDType() string { return "Box" }

var reg = &anytype.Registry{
	Namespace: "urn:zoo",
	Types: map[string]func() anytype.Typed{
		"Pet": func() anytype.Typed { return new(pet) },
		"Box": func() anytype.Typed { return new(box) },
	},
	Enums: map[string][]string{"Tier": {"Bronze", "Gold"}},
}

func mustRaw(t *testing.T, s string) xmlany.RawXML {
	t.Helper()
	x, err := xmlany.ParseRawXML(s, xmlwire.Limits{MaxDepth: 16, MaxElements: 100})
	require.NoError(t, err)
	return x
}

// TestObjectRecordForm: every kind of object value has one record form, and reads back to the same
// value (written again, the same document).
func TestObjectRecordForm(t *testing.T) {
	dt, ok := xsd.ParseDateTime("2026-11-22T10:15:30.5+05:45")
	require.True(t, ok)
	for _, tt := range []struct {
		name string
		o    anytype.Object
		doc  string
	}{
		{"nil", anytype.Object{}, `null`},
		{"empty", anytype.ObjectEmpty(), `{}`},
		{"int", anytype.ObjectInt(-42), `{"$type":"xsd:int","$value":"-42"}`},
		{"string", anytype.ObjectString(`a <b> & "c"`), `{"$type":"xsd:string","$value":"a <b> & \"c\""}`},
		{"dateTime", anytype.ObjectDateTime(dt), `{"$type":"xsd:dateTime","$value":"2026-11-22T10:15:30.5+05:45"}`},
		{"double", anytype.ObjectDouble(0.1), `{"$type":"xsd:double","$value":"0.1"}`},
		{"char", anytype.ObjectChar(233), `{"$type":"ms:char","$value":"233"}`},
		{"enum", anytype.ObjectEnum(reg, "Tier", "Gold"), `{"$type":"Tier","$value":"Gold"}`},
		{"complex", anytype.ObjectOf(&pet{Name: "Rex"}), `{"$type":"Pet","Name":"Rex"}`},
		{"complex without a record codec", anytype.ObjectOf(&box{Label: "x"}), `{"$type":"Box","$xml":"<Label>x</Label>"}`},
		{"array", anytype.ObjectArray(anytype.ObjectInt(1), anytype.Object{}, anytype.ObjectOf(&pet{Name: "A"})),
			`{"$type":"ArrayOfAnyType","$items":[{"$type":"xsd:int","$value":"1"},null,{"$type":"Pet","Name":"A"}]}`},
		{"raw", anytype.ObjectRaw(mustRaw(t, `plain <b xmlns="urn:x">bold</b>`)), `{"$xml":"plain <b xmlns=\"urn:x\">bold</b>"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := recordany.AppendObject(nil, tt.o)
			assert.Equal(t, tt.doc, string(doc))
			r := recordwire.NewReader(doc, recordwire.Strict)
			back, err := recordany.DecodeObject(r, reg)
			require.NoError(t, err)
			require.NoError(t, r.End())
			assert.Equal(t, tt.doc, string(recordany.AppendObject(nil, back)))
			assert.Equal(t, tt.o.Kind(), back.Kind())
		})
	}
}

// TestObjectRecordErrors: a value the wire would refuse is refused in the record too.
func TestObjectRecordErrors(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{`{"$type":"xsd:int","$value":"x"}`, "int"},
		{`{"$type":"Tier","$value":"Silver"}`, "Tier"},
		{`{"$type":"Horse","Name":"x"}`, `"Horse"`},
		{`{"$type":"Pet","Legs":4}`, `unknown field "Legs"`},
	} {
		_, err := recordany.DecodeObject(recordwire.NewReader([]byte(tt.doc), recordwire.Strict), reg)
		require.Error(t, err, tt.doc)
		assert.Contains(t, err.Error(), tt.want, tt.doc)
	}
}

// TestRawRecordForm: raw XML is its canonical text under "$xml"; no nodes is null.
func TestRawRecordForm(t *testing.T) {
	x := mustRaw(t, `<a:b xmlns:a="urn:a" k="v">t</a:b>`)
	doc := recordany.AppendRaw(nil, x)
	assert.Equal(t, `{"$xml":"<a:b xmlns:a=\"urn:a\" k=\"v\">t</a:b>"}`, string(doc))
	back, err := recordany.DecodeRaw(recordwire.NewReader(doc, recordwire.Strict))
	require.NoError(t, err)
	assert.Equal(t, x, back)
	assert.Equal(t, `null`, string(recordany.AppendRaw(nil, xmlany.RawXML{})))
	back, err = recordany.DecodeRaw(recordwire.NewReader([]byte(`null`), recordwire.Strict))
	require.NoError(t, err)
	assert.True(t, back.IsZero())
	_, err = recordany.DecodeRaw(recordwire.NewReader([]byte(`{"$xml":"<a>"}`), recordwire.Strict))
	require.Error(t, err)
}

// TestObjectOfDroppedType holds what the store's derived rows of an object path rely on: an object
// naming a complex type the contract no longer has cannot be read in either mode, in its members'
// form or its XML content's (so the commands refuse a store whose records hold one), while a value of
// a dropped enumeration reads back as untyped content keeping its type (kept, so no row is recorded
// for enumerations).
func TestObjectOfDroppedType(t *testing.T) {
	for _, mode := range []recordwire.Mode{recordwire.Strict, recordwire.Lenient} {
		for _, doc := range []string{`{"$type":"Dog","Name":"Rex"}`, `{"Name":"Rex","$type":"Dog"}`, `{"$type":"Dog","$xml":"<Name>Rex</Name>"}`} {
			_, err := recordany.DecodeObject(recordwire.NewReader([]byte(doc), mode), reg)
			require.Error(t, err, doc)
			assert.Contains(t, err.Error(), `the $type "Dog" is not an object's types`, doc)
		}
		doc := []byte(`{"$type":"Level","$value":"Gold"}`)
		o, err := recordany.DecodeObject(recordwire.NewReader(doc, mode), reg)
		require.NoError(t, err)
		assert.Equal(t, anytype.Raw, o.Kind())
		assert.Equal(t, `{"$xsiType":"{urn:zoo}Level","$xml":"Gold"}`, string(recordany.AppendObject(nil, o)))
	}
}
