package xmlany_test

import (
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// xsiType reads doc (an envelope) down to its parameter in the mode given and returns what XSIType
// says of it.
func xsiType(t *testing.T, doc string, fast bool) (xml.Name, bool, error) {
	t.Helper()
	r := xmlwire.NewReader([]byte(doc), ns, limits, fast)
	s, err := r.Root()
	require.NoError(t, err)
	for range 3 {
		s, _, err = r.Child()
		if err != nil {
			return xml.Name{}, false, err
		}
	}
	return xmlany.XSIType(r, s)
}

func TestXSIType(t *testing.T) {
	for _, tt := range []struct {
		capture string
		param   string
		want    xml.Name
		typed   bool
		err     string // the full mode's fault message; fast mode steps aside instead
	}{
		{"soap11-EchoAnimal-base", `<animal><Name>Rex</Name></animal>`, xml.Name{}, false, ""},
		{"soap11-EchoAnimal-dog", `<animal xsi:type="Dog"><Name>Rex</Name></animal>`, xml.Name{Space: ns, Local: "Dog"}, true, ""},
		{"soap11-EchoAnimal-dog-other-prefix", `<animal xmlns:z="` + ns + `" xsi:type="z:Dog"><Name>Rex</Name></animal>`, xml.Name{Space: ns, Local: "Dog"}, true, ""},
		{"soap11-EchoAnimal-wrong-ns-type", `<animal xmlns:q="urn:wrong" xsi:type="q:Dog"/>`, xml.Name{Space: "urn:wrong", Local: "Dog"}, true, ""},
		{"soap11-EchoAnimal-xsd-string", `<animal xsi:type="xsd:string">Rex</animal>`, xml.Name{Space: xmlany.NSXSD, Local: "string"}, true, ""},
		{"soap11-EchoAnimal-unknown-type", `<animal xsi:type="Horse"><Name>Ed</Name></animal>`, xml.Name{Space: ns, Local: "Horse"}, true, ""},
		{"soap11-DescribeObject-xsd-other-prefix", `<value xmlns:x="http://www.w3.org/2001/XMLSchema" xsi:type="x:int">42</value>`, xml.Name{Space: xmlany.NSXSD, Local: "int"}, true, ""},
		{"soap11-DescribeObject-guid", `<value xmlns:q="http://microsoft.com/wsdl/types/" xsi:type="q:guid">0F8FAD5B-D9CB-469F-A165-70867728950E</value>`, xml.Name{Space: xmlany.NSMSTypes, Local: "guid"}, true, ""},
		{"soap11-DescribeObject-array-of-int", `<value xsi:type="ArrayOfInt"><int>1</int></value>`, xml.Name{Space: ns, Local: "ArrayOfInt"}, true, ""},
		{"white space around", `<value xsi:type=" xsd:int ">1</value>`, xml.Name{Space: xmlany.NSXSD, Local: "int"}, true, ""},
		{"another prefix for xsi", `<value xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:type="Dog"/>`, xml.Name{Space: ns, Local: "Dog"}, true, ""},
		{"type in another namespace is no xsi:type", `<value xmlns:i="urn:i" i:type="Dog"/>`, xml.Name{}, false, ""},
		{"soap11-EchoAnimal-undeclared-prefix", `<animal xsi:type="nope:Dog"><Name>Rex</Name></animal>`, xml.Name{}, false,
			`The xsi:type "nope:Dog" of the element animal uses the namespace prefix nope, which is not declared.`},
		{"a prefix bound to no namespace", `<animal xmlns:q="" xsi:type="q:Dog"/>`, xml.Name{}, false,
			`The xsi:type "q:Dog" of the element animal uses the namespace prefix q, which is not declared.`},
		{"not a QName", `<animal xsi:type="a:b:c"/>`, xml.Name{}, false, `The xsi:type of the element animal must be a qualified name; "a:b:c" is not.`},
		{"empty", `<animal xsi:type=""/>`, xml.Name{}, false, `The xsi:type of the element animal must be a qualified name; "" is not.`},
		{"prefix only", `<animal xsi:type="xsd:"/>`, xml.Name{}, false, `The xsi:type of the element animal must be a qualified name; "xsd:" is not.`},
	} {
		t.Run(tt.capture, func(t *testing.T) {
			doc := envelope(`<Op xmlns="` + ns + `">` + tt.param + `</Op>`)
			for _, fast := range []bool{false, true} {
				name, typed, err := xsiType(t, doc, fast)
				if tt.err != "" {
					if fast {
						assert.ErrorIs(t, err, xmlwire.ErrFallback)
						continue
					}
					require.Error(t, err)
					assert.Equal(t, fault.InvalidArgument, fault.As(err).Code)
					assert.Equal(t, tt.err, fault.As(err).Message)
					continue
				}
				if fast && err == xmlwire.ErrFallback {
					assert.Contains(t, tt.param, ":type=", "the fast reader steps aside only for a prefixed type attribute")
					continue
				}
				require.NoError(t, err, "fast %v", fast)
				assert.Equal(t, tt.typed, typed, "fast %v", fast)
				assert.Equal(t, tt.want, name, "fast %v", fast)
			}
		})
	}
}

func TestXSITypeErrors(t *testing.T) {
	err := xmlany.NotDerived("animal", xml.Name{Space: "urn:wrong", Local: "Dog"}, "Animal") // soap11-EchoAnimal-wrong-ns-type
	assert.Equal(t, fault.InvalidArgument, fault.As(err).Code)
	assert.Equal(t, `The xsi:type {urn:wrong}Dog of the element animal is not Animal or a type derived from it.`, fault.As(err).Message)
	err = xmlany.Abstract("shape", "Shape") // soap11-DescribeShape-no-type
	assert.Equal(t, `The element shape has the abstract type Shape: its xsi:type must name a type derived from it.`, fault.As(err).Message)
}

func TestAppendXSIType(t *testing.T) {
	for _, tt := range []struct {
		capture string
		name    xml.Name
		want    string
	}{
		{"soap11-GetAnimal-dog", xml.Name{Space: ns, Local: "Dog"}, ` xsi:type="Dog"`},
		{"soap11-GetObject-enum", xml.Name{Space: ns, Local: "Tier"}, ` xsi:type="Tier"`},
		{"soap11-GetObject-objects", xml.Name{Space: ns, Local: "ArrayOfAnyType"}, ` xsi:type="ArrayOfAnyType"`},
		{"soap11-GetObject-int", xml.Name{Space: xmlany.NSXSD, Local: "int"}, ` xsi:type="xsd:int"`},
		{"soap11-GetObject-sbyte", xml.Name{Space: xmlany.NSXSD, Local: "byte"}, ` xsi:type="xsd:byte"`},
		{"soap11-GetObject-guid", xml.Name{Space: xmlany.NSMSTypes, Local: "guid"}, ` xmlns:q1="http://microsoft.com/wsdl/types/" xsi:type="q1:guid"`},
		{"soap11-GetObject-char", xml.Name{Space: xmlany.NSMSTypes, Local: "char"}, ` xmlns:q1="http://microsoft.com/wsdl/types/" xsi:type="q1:char"`},
		{"a type of a second schema", xml.Name{Space: "urn:items", Local: "Item"}, ` xmlns:q1="urn:items" xsi:type="q1:Item"`},
	} {
		got := string(xmlany.AppendXSIType([]byte("<GetObjectResult"), tt.name, ns))
		assert.Equal(t, "<GetObjectResult"+tt.want, got, tt.capture)
		// What is written reads back as the same name.
		doc := envelope(`<Op xmlns="` + ns + `">` + got + `/></Op>`)
		name, typed, err := xsiType(t, doc, false)
		require.NoError(t, err, tt.capture)
		assert.True(t, typed)
		assert.Equal(t, tt.name, name, tt.capture)
	}
}

// FuzzXSIType: for any xsi:type value and any declaration beside it, XSIType gives a name or the
// caller's error, never a panic; the fast reader, when it answers, agrees with the full one; and a
// name read is written by AppendXSIType in a form that reads back as itself.
func FuzzXSIType(f *testing.F) {
	for _, s := range [][3]string{
		{"z", ns, "z:Dog"}, {"q", "urn:wrong", "q:Dog"}, {"x", "", "nope:Dog"}, {"x", "http://www.w3.org/2001/XMLSchema", "x:int"},
		{"q", "http://microsoft.com/wsdl/types/", "q:guid"}, {"p", "urn:p", "a:b:c"}, {"p", "urn:p", " Dog "}, {"p", "urn:p", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, prefix, uri, value string) {
		decl := ""
		if prefix != "" {
			decl = ` xmlns:` + prefix + `="` + string(xmlwire.AppendEscaped(nil, uri)) + `"`
		}
		doc := `<w xmlns="urn:d" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><e` +
			decl + ` xsi:type="` + string(xmlwire.AppendEscaped(nil, value)) + `"/></w>`
		full, fullTyped, ok, fullErr := readType(doc, false)
		if !ok {
			return // not a document: the reader's own tests cover that
		}
		if fullErr != nil {
			require.True(t, fault.As(fullErr).Code.CallerFault(), "%v", fullErr)
		} else {
			require.True(t, fullTyped)
		}
		if fast, fastTyped, ok, fastErr := readType(doc, true); ok && fastErr != xmlwire.ErrFallback {
			require.NoError(t, fastErr)
			require.Equal(t, full, fast)
			require.Equal(t, fullTyped, fastTyped)
			require.NoError(t, fullErr)
		}
		if fullErr != nil || full.Space == "" {
			return
		}
		back, typed, ok, err := readType(`<w xmlns="urn:d" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><e`+
			string(xmlany.AppendXSIType(nil, full, "urn:d"))+`/></w>`, false)
		require.True(t, ok)
		require.NoError(t, err)
		require.True(t, typed)
		require.Equal(t, full, back)
	})
}

// readType reads doc's first child element in the mode given; ok is false when the document is not
// read that far.
func readType(doc string, fast bool) (name xml.Name, typed, ok bool, err error) {
	r := xmlwire.NewReader([]byte(doc), "urn:d", limits, fast)
	if _, err := r.Root(); err != nil {
		return xml.Name{}, false, fast && err == xmlwire.ErrFallback, err
	}
	s, found, err := r.Child()
	if err != nil || !found {
		return xml.Name{}, false, fast && err == xmlwire.ErrFallback, err
	}
	name, typed, err = xmlany.XSIType(r, s)
	return name, typed, true, err
}
