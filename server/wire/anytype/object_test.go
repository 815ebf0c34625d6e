package anytype_test

import (
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// ns is the third zoo's service namespace (asmx-typezoo/shapes: Zoo3.cs); the cases name its captures.
const ns = "http://localhost:8080/zoo3/v1/"

var limits = xmlwire.Limits{MaxDepth: 32, MaxElements: 10000}

// dog is a hand-written twin of the generated Dog (Name, Barks) of Zoo3.cs.
type dog struct {
	Name  string
	Barks int32
}

func (d *dog) XSDType() string { return "Dog" }

func (d *dog) AppendXML(b []byte) []byte {
	b = xmlwire.AppendString(b, "Name", d.Name)
	return xmlwire.AppendInt(b, "Barks", int64(d.Barks))
}

func (d *dog) DecodeXML(r *xmlwire.Reader) error {
	for {
		s, ok, err := r.Child()
		if err != nil || !ok {
			return err
		}
		switch {
		case s.Is("Name"):
			if d.Name, err = r.Text(s, "element Name"); err != nil {
				return err
			}
		case s.Is("Barks"):
			n, err := r.ReadInt(s, "element Barks", "int", 32)
			if err != nil {
				return err
			}
			d.Barks = int32(n)
		default:
			if err := r.Skip(s); err != nil {
				return err
			}
		}
	}
}

// widget is a complex value of no contract (soap11-GetObject-widget).
type widget struct{ dog }

func (*widget) XSDType() string { return "Widget" }

var reg = &anytype.Registry{
	Namespace: ns,
	Types:     map[string]func() anytype.Typed{"Dog": func() anytype.Typed { return new(dog) }},
	Enums:     map[string][]string{"Tier": {"Bronze", "Silver", "Gold"}},
}

const envelopeStart = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`

// read reads the first parameter of <DescribeObject> in an envelope as an object.
func read(t *testing.T, value string, fast bool) (anytype.Object, error) {
	t.Helper()
	doc := envelopeStart + `<DescribeObject xmlns="` + ns + `">` + value + `</DescribeObject></soap:Body></soap:Envelope>`
	r := xmlwire.NewReader([]byte(doc), ns, limits, fast)
	s, err := r.Root()
	if err != nil {
		return anytype.Object{}, err
	}
	for range 3 {
		if s, _, err = r.Child(); err != nil {
			return anytype.Object{}, err
		}
	}
	return anytype.Read(r, s, "parameter value", reg)
}

func TestRead(t *testing.T) {
	guid := xsd.MustParseGUID("0f8fad5b-d9cb-469f-a165-70867728950e")
	raw := func(s string) xmlany.RawXML {
		x, err := xmlany.ParseRawXML(s, limits)
		require.NoError(t, err)
		return x
	}
	for _, tt := range []struct {
		capture string
		value   string
		check   func(t *testing.T, o anytype.Object)
	}{
		{"soap11-DescribeObject-xsd-string", `<value xsi:type="xsd:string">hello</value>`, func(t *testing.T, o anytype.Object) {
			s, ok := o.String()
			assert.True(t, ok)
			assert.Equal(t, "hello", s)
		}},
		{"soap11-DescribeObject-xsd-int", `<value xsi:type="xsd:int">42</value>`, func(t *testing.T, o anytype.Object) {
			n, ok := o.Int()
			assert.True(t, ok)
			assert.Equal(t, int32(42), n)
			_, ok = o.Long()
			assert.False(t, ok, "an int is no long")
		}},
		{"soap11-DescribeObject-xsd-other-prefix", `<value xmlns:x="http://www.w3.org/2001/XMLSchema" xsi:type="x:int"> +42 </value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.ObjectInt(42), o, "held in canonical form")
		}},
		{"soap11-DescribeObject-xsd-base64Binary", `<value xsi:type="xsd:base64Binary">AQL7/w==</value>`, func(t *testing.T, o anytype.Object) {
			v, ok := o.Base64()
			assert.True(t, ok)
			assert.Equal(t, []byte{1, 2, 251, 255}, v)
		}},
		{"soap11-DescribeObject-xsd-dateTime-offset (zone kept: deviation)", `<value xsi:type="xsd:dateTime">2026-11-22T10:15:30+02:00</value>`, func(t *testing.T, o anytype.Object) {
			v, ok := o.DateTime()
			assert.True(t, ok)
			assert.Equal(t, "2026-11-22T10:15:30+02:00", v.String())
		}},
		{"soap11-DescribeObject-xsd-duration", `<value xsi:type="xsd:duration">PT1H</value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.ObjectString("PT1H"), o)
		}},
		{"soap11-DescribeObject-guid", `<value xmlns:q="http://microsoft.com/wsdl/types/" xsi:type="q:guid">0F8FAD5B-D9CB-469F-A165-70867728950E</value>`, func(t *testing.T, o anytype.Object) {
			g, ok := o.GUID()
			assert.True(t, ok)
			assert.Equal(t, guid, g)
		}},
		{"char (soap11-GetObject-char's form)", `<value xmlns:q1="http://microsoft.com/wsdl/types/" xsi:type="q1:char">65</value>`, func(t *testing.T, o anytype.Object) {
			c, ok := o.Char()
			assert.True(t, ok)
			assert.Equal(t, xsd.Char('A'), c)
		}},
		{"sbyte (soap11-GetObject-sbyte's form)", `<value xsi:type="xsd:byte">-5</value>`, func(t *testing.T, o anytype.Object) {
			n, ok := o.Byte()
			assert.True(t, ok)
			assert.Equal(t, int8(-5), n)
		}},
		{"unsignedLong", `<value xsi:type="xsd:unsignedLong">18446744073709551615</value>`, func(t *testing.T, o anytype.Object) {
			n, ok := o.Unsigned()
			assert.True(t, ok)
			assert.Equal(t, uint64(18446744073709551615), n)
		}},
		{"soap11-DescribeObject-dog", `<value xsi:type="Dog"><Name>Rex</Name><Barks>3</Barks></value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.Complex, o.Kind())
			assert.Equal(t, &dog{Name: "Rex", Barks: 3}, o.Complex())
			assert.Equal(t, xml.Name{Local: "Dog"}, o.XSDType())
			assert.Equal(t, anytype.ObjectOf(&dog{Name: "Rex", Barks: 3}), o)
		}},
		{"soap11-DescribeObject-enum", `<value xsi:type="Tier">Gold</value>`, func(t *testing.T, o anytype.Object) {
			enum, member, ok := o.Enum()
			assert.True(t, ok)
			assert.Equal(t, "Tier", enum)
			assert.Equal(t, "Gold", member)
		}},
		{"soap11-DescribeObject-array-of-anytype", `<value xsi:type="ArrayOfAnyType"><anyType xsi:type="xsd:int">1</anyType><anyType>x</anyType></value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.Array, o.Kind())
			require.Len(t, o.Items(), 2)
			assert.Equal(t, anytype.ObjectInt(1), o.Items()[0])
			assert.Equal(t, anytype.ObjectRaw(raw("x")), o.Items()[1], "an untyped item is raw")
			assert.Equal(t, anytype.ObjectArray(anytype.ObjectInt(1), anytype.ObjectRaw(raw("x"))), o)
		}},
		{"soap11-DescribeObject-array-of-int", `<value xsi:type="ArrayOfInt"><int>1</int><int>2</int></value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.Raw, o.Kind())
			assert.Equal(t, xml.Name{Space: ns, Local: "ArrayOfInt"}, o.XSDType(), "the unknown type is kept")
			assert.Equal(t, `<int xmlns="`+ns+`">1</int><int xmlns="`+ns+`">2</int>`, o.Raw().String())
		}},
		{"soap11-DescribeObject-unknown-type", `<value xsi:type="Nope">x</value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.Raw, o.Kind())
			assert.Equal(t, xml.Name{Space: ns, Local: "Nope"}, o.XSDType())
			assert.Equal(t, "x", o.Raw().String())
		}},
		{"soap11-DescribeObject-untyped-text", `<value>hello</value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.ObjectRaw(raw("hello")), o)
		}},
		{"soap11-DescribeObject-untyped-elements", `<value><a>1</a><b xmlns="urn:x">2</b></value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, `<a xmlns="`+ns+`">1</a><b xmlns="urn:x">2</b>`, o.Raw().String())
		}},
		{"soap11-DescribeObject-untyped-mixed", `<value>t<a>1</a></value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, `t<a xmlns="`+ns+`">1</a>`, o.Raw().String())
		}},
		{"soap11-DescribeObject-untyped-attribute (attribute not kept: limit)", `<value lang="en">hi</value>`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, "hi", o.Raw().String())
		}},
		{"soap11-DescribeObject-untyped-empty", `<value />`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.Empty, o.Kind())
		}},
		{"soap11-DescribeObject-nil (nil: deviation)", `<value xsi:nil="true" />`, func(t *testing.T, o anytype.Object) {
			assert.Equal(t, anytype.Nil, o.Kind())
		}},
	} {
		t.Run(tt.capture, func(t *testing.T) {
			o, err := read(t, tt.value, false)
			require.NoError(t, err)
			tt.check(t, o)
			if fo, err := read(t, tt.value, true); err != xmlwire.ErrFallback {
				require.NoError(t, err, "fast mode")
				assert.Equal(t, o, fo, "fast mode reads what full mode reads")
			}
		})
	}
}

func TestReadRefuses(t *testing.T) {
	for _, tt := range []struct {
		capture, value, msg string
	}{
		{"soap11-DescribeObject-bad-int", `<value xsi:type="xsd:int">abc</value>`, `The parameter value must be an xsd:int; "abc" is not.`},
		{"bad enum member", `<value xsi:type="Tier">Platinum</value>`, `The parameter value must be an xsd:Tier; "Platinum" is not.`},
		{"bad item", `<value xsi:type="ArrayOfAnyType"><anyType xsi:type="xsd:boolean">yes</anyType></value>`,
			`The item 1 of the parameter value must be an xsd:boolean; "yes" is not.`},
		{"undeclared prefix", `<value xsi:type="nope:int">1</value>`,
			`The xsi:type "nope:int" of the element value uses the namespace prefix nope, which is not declared.`},
	} {
		_, err := read(t, tt.value, false)
		require.Error(t, err, tt.capture)
		assert.Equal(t, fault.InvalidArgument, fault.As(err).Code, tt.capture)
		assert.Equal(t, tt.msg, fault.As(err).Message, tt.capture)
	}
}

func TestAppend(t *testing.T) {
	nodes, err := xmlany.ParseRawXML(`plain <b xmlns="urn:x">bold</b>`, limits)
	require.NoError(t, err)
	when, _ := xsd.ParseDateTime("2026-11-22T10:15:30Z")
	for _, tt := range []struct {
		capture string
		o       anytype.Object
		want    string
	}{
		{"soap11-GetObject-string", anytype.ObjectString("hello"), `<GetObjectResult xsi:type="xsd:string">hello</GetObjectResult>`},
		{"soap11-GetObject-int", anytype.ObjectInt(42), `<GetObjectResult xsi:type="xsd:int">42</GetObjectResult>`},
		{"soap11-GetObject-datetime", anytype.ObjectDateTime(when), `<GetObjectResult xsi:type="xsd:dateTime">2026-11-22T10:15:30Z</GetObjectResult>`},
		{"soap11-GetObject-bytes", anytype.ObjectBase64([]byte{1, 2, 251, 255}), `<GetObjectResult xsi:type="xsd:base64Binary">AQL7/w==</GetObjectResult>`},
		{"soap11-GetObject-sbyte", anytype.ObjectByte(-5), `<GetObjectResult xsi:type="xsd:byte">-5</GetObjectResult>`},
		{"soap11-GetObject-guid", anytype.ObjectGUID(xsd.MustParseGUID("0f8fad5b-d9cb-469f-a165-70867728950e")),
			`<GetObjectResult xmlns:q1="http://microsoft.com/wsdl/types/" xsi:type="q1:guid">0f8fad5b-d9cb-469f-a165-70867728950e</GetObjectResult>`},
		{"soap11-GetObject-char", anytype.ObjectChar('A'), `<GetObjectResult xmlns:q1="http://microsoft.com/wsdl/types/" xsi:type="q1:char">65</GetObjectResult>`},
		{"soap11-GetObject-enum", anytype.ObjectEnum(reg, "Tier", "Gold"), `<GetObjectResult xsi:type="Tier">Gold</GetObjectResult>`},
		{"soap11-GetObject-dog", anytype.ObjectOf(&dog{Name: "Rex", Barks: 3}), `<GetObjectResult xsi:type="Dog"><Name>Rex</Name><Barks>3</Barks></GetObjectResult>`},
		{"soap11-GetObject-objects (Cat left out: one derived type in this registry)",
			anytype.ObjectArray(anytype.ObjectInt(1), anytype.ObjectString("x"), anytype.Object{}, anytype.ObjectOf(&dog{Name: "Tom"})),
			`<GetObjectResult xsi:type="ArrayOfAnyType"><anyType xsi:type="xsd:int">1</anyType><anyType xsi:type="xsd:string">x</anyType><anyType xsi:nil="true" /><anyType xsi:type="Dog"><Name>Tom</Name><Barks>0</Barks></anyType></GetObjectResult>`},
		{"soap11-GetObject-nodes", anytype.ObjectRaw(nodes), `<GetObjectResult>plain <b xmlns="urn:x">bold</b></GetObjectResult>`},
		{"soap11-GetObject-null", anytype.Object{}, ``},
		{"soap11-DescribeObject-untyped-empty", anytype.ObjectEmpty(), `<GetObjectResult />`},
		{"empty string", anytype.ObjectString(""), `<GetObjectResult xsi:type="xsd:string" />`},
	} {
		got, err := anytype.Append(nil, "GetObjectResult", tt.o, reg)
		require.NoError(t, err, tt.capture)
		assert.Equal(t, tt.want, string(got), tt.capture)
	}
	_, err = anytype.Append(nil, "GetObjectResult", anytype.ObjectOf(&widget{}), reg) // soap11-GetObject-widget
	require.Error(t, err)
	assert.Equal(t, fault.Internal, fault.As(err).Code)
}

// FuzzObject: any object value the reader accepts is written in a form that reads back as the same
// value (read → write → read equal), and written again the same bytes.
func FuzzObject(f *testing.F) {
	for _, s := range []string{
		`<value xsi:type="xsd:int">42</value>`, `<value xsi:type="xsd:duration">PT1H</value>`, `<value xsi:type="Dog"><Name>Rex</Name><Barks>3</Barks></value>`,
		`<value xsi:type="ArrayOfAnyType"><anyType xsi:type="xsd:int">1</anyType><anyType>x</anyType><anyType xsi:nil="true"/></value>`,
		`<value xsi:type="ArrayOfInt"><int>1</int></value>`, `<value>t<a>1</a></value>`, `<value />`, `<value xsi:type="Tier">Gold</value>`,
		`<value xmlns:q="http://microsoft.com/wsdl/types/" xsi:type="q:guid">0F8FAD5B-D9CB-469F-A165-70867728950E</value>`,
		`<value xmlns:q="urn:q" xsi:type="q:T"><q:a/></value>`, `<value xsi:type="xsd:double">1e400</value>`, `<value xsi:type="xsd:string"></value>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		o, err := read(t, value, false)
		if err != nil {
			return
		}
		written, err := anytype.Append(nil, "value", o, reg)
		require.NoError(t, err)
		if o.Kind() == anytype.Nil {
			require.Empty(t, written)
			return
		}
		back, err := read(t, string(written), false)
		require.NoError(t, err, "%s", written)
		require.Equal(t, o, back, "%s", written)
		again, err := anytype.Append(nil, "value", back, reg)
		require.NoError(t, err)
		require.Equal(t, string(written), string(again))
	})
}
