package xmlany_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// ns is the third zoo's service namespace (asmx-typezoo/shapes: Zoo3.cs).
const ns = "http://localhost:8080/zoo3/v1/"

var limits = xmlwire.Limits{MaxDepth: 32, MaxElements: 10000}

// envelope is the SOAP 1.1 envelope the shapes captures send, around a body.
func envelope(body string) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    ` + body + `
  </soap:Body>
</soap:Envelope>`
}

// param reads doc in full mode down to Envelope/Body/<operation>/<first child> and returns the reader
// positioned just after that parameter's start.
func param(t *testing.T, doc string, l xmlwire.Limits) (*xmlwire.Reader, xmlwire.Start) {
	t.Helper()
	r := xmlwire.NewReader([]byte(doc), ns, l, false)
	s, err := r.Root()
	require.NoError(t, err)
	for range 3 { // Body, the operation wrapper, the parameter
		s, _, err = r.Child()
		require.NoError(t, err)
	}
	return r, s
}

func TestCapture(t *testing.T) {
	for _, tt := range []struct {
		capture string
		body    string
		shape   xmlany.Shape
		want    string
	}{
		{"soap11-EchoElement", `<EchoElement xmlns="` + ns + `"><element><Report xmlns="urn:report" id="r1"><Line>a &amp; b</Line></Report></element></EchoElement>`,
			xmlany.Element, `<Report xmlns="urn:report" id="r1"><Line>a &amp; b</Line></Report>`},
		{"soap11-EchoElement-attributes", `<EchoElement xmlns="` + ns + `"><element lang="en" xmlns:p="urn:p" p:x="1"><p:c>v</p:c></element></EchoElement>`,
			xmlany.Element, `<p:c xmlns:p="urn:p">v</p:c>`},
		{"soap11-EchoElement-two-children", `<EchoElement xmlns="` + ns + `"><element><a>1</a><b>2</b></element></EchoElement>`,
			xmlany.Element, `<a xmlns="` + ns + `">1</a>`},
		{"soap11-EchoElement-empty", `<EchoElement xmlns="` + ns + `"><element /></EchoElement>`, xmlany.Element, ``},
		{"soap11-EchoNode", `<EchoNode xmlns="` + ns + `"><node><Report xmlns="urn:report" id="r1"><Line>a &amp; b</Line></Report></node></EchoNode>`,
			xmlany.Node, `<Report xmlns="urn:report" id="r1"><Line>a &amp; b</Line></Report>`},
		{"soap11-EchoNode-text", `<EchoNode xmlns="` + ns + `"><node>just text</node></EchoNode>`, xmlany.Node, `just text`},
		{"soap11-EchoNode-mixed", `<EchoNode xmlns="` + ns + `"><node>a<b>c</b>d</node></EchoNode>`, xmlany.Node, `a`},
		{"soap11-DescribeObject-untyped-mixed (Nodes)", `<DescribeObject xmlns="` + ns + `"><value>t<a>1</a></value></DescribeObject>`,
			xmlany.Nodes, `t<a xmlns="` + ns + `">1</a>`},
		{"soap11-EchoBox-untyped (Nodes)", `<EchoBox xmlns="` + ns + `"><Value><p>1</p><q>2</q></Value></EchoBox>`,
			xmlany.Nodes, `<p xmlns="` + ns + `">1</p><q xmlns="` + ns + `">2</q>`},
		{"Elements drops text", `<Op xmlns="` + ns + `"><v>t<a>1</a> u <b/></v></Op>`, xmlany.Elements,
			`<a xmlns="` + ns + `">1</a><b xmlns="` + ns + `"></b>`},
		{"Node skips white space first", `<Op xmlns="` + ns + `"><v>
		  <a/>x</v></Op>`, xmlany.Node, `<a xmlns="` + ns + `"></a>`},
		{"no namespace at the top declares xmlns=\"\"", `<Op xmlns="` + ns + `"><v><a xmlns=""><b/></a></v></Op>`, xmlany.Nodes,
			`<a xmlns=""><b></b></a>`},
		{"envelope prefixes used inside are declared, unused dropped", `<Op xmlns="` + ns + `"><v><x:a xmlns:x="urn:x" xmlns:y="urn:y" soap:mustUnderstand="1" xsi:nil="true"/></v></Op>`,
			xmlany.Nodes, `<x:a xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:x="urn:x" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" soap:mustUnderstand="1" xsi:nil="true"></x:a>`},
		{"soap11-DescribeObject-xsd-other-prefix: a QName value's prefix is declared", `<Op xmlns="` + ns + `"><v><value xmlns:x="http://www.w3.org/2001/XMLSchema" xsi:type="x:int">42</value></v></Op>`,
			xmlany.Nodes, `<value xmlns="` + ns + `" xmlns:x="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="x:int">42</value>`},
		{"an unprefixed xsi:type uses the default namespace", `<Op xmlns="` + ns + `"><v><p:a xmlns:p="urn:p" xsi:type="Dog"/></v></Op>`,
			xmlany.Nodes, `<p:a xmlns="` + ns + `" xmlns:p="urn:p" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Dog"></p:a>`},
		{"a schema's type=\"xs:int\"", `<Op xmlns="` + ns + `"><v><xs:element xmlns:xs="http://www.w3.org/2001/XMLSchema" name="Id" type="xsd:int"/></v></Op>`,
			xmlany.Nodes, `<xs:element xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsd="http://www.w3.org/2001/XMLSchema" name="Id" type="xsd:int"></xs:element>`},
		{"attributes sorted by namespace, then name; declarations by prefix", `<Op xmlns="` + ns + `"><v><a xmlns="" z="1" b:y="2" a:y="3" xmlns:b="urn:a" xmlns:a="urn:b" c="4"/></v></Op>`,
			xmlany.Nodes, `<a xmlns="" xmlns:a="urn:b" xmlns:b="urn:a" c="4" z="1" b:y="2" a:y="3"></a>`},
		{"a declaration inherited from an output ancestor is not repeated", `<Op xmlns="` + ns + `"><v><p:a xmlns:p="urn:p"><p:b xmlns:p="urn:p"/><p:c xmlns:p="urn:q"/></p:a></v></Op>`,
			xmlany.Nodes, `<p:a xmlns:p="urn:p"><p:b></p:b><p:c xmlns:p="urn:q"></p:c></p:a>`},
		{"escapes: text and attribute values, CDATA as text, comments dropped", `<Op xmlns="` + ns + `"><v><a xmlns="" t="&quot;&#9;&#10;&lt;&gt;&amp;">&gt;<![CDATA[<&]]><!-- c --><?pi data?></a></v></Op>`,
			xmlany.Nodes, `<a xmlns="" t="&quot;&#x9;&#xA;&lt;>&amp;">&gt;&lt;&amp;<?pi data?></a>`},
		{"xml:lang needs no declaration", `<Op xmlns="` + ns + `"><v><a xmlns="" xml:lang="en"/></v></Op>`,
			xmlany.Nodes, `<a xmlns="" xml:lang="en"></a>`},
		{"DataSet content (soap11-GetDataSet-2's form, abridged)", `<Op xmlns="` + ns + `"><ds><xs:schema id="Stock" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="Stock" msdata:IsDataSet="true"/></xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><Stock xmlns=""><Item diffgr:id="Item1" msdata:rowOrder="0"><Id>1</Id></Item></Stock></diffgr:diffgram></ds></Op>`,
			xmlany.Nodes, `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" id="Stock"><xs:element xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" name="Stock" msdata:IsDataSet="true"></xs:element></xs:schema>` +
				`<diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><Stock xmlns=""><Item xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" diffgr:id="Item1" msdata:rowOrder="0"><Id>1</Id></Item></Stock></diffgr:diffgram>`},
	} {
		t.Run(tt.capture, func(t *testing.T) {
			r, s := param(t, envelope(tt.body), limits)
			x, err := xmlany.Capture(r, s, tt.shape, "parameter "+s.Local())
			require.NoError(t, err)
			assert.Equal(t, tt.want, x.String())
			// The reader goes on after the element: the wrapper ends, then the Body.
			_, ok, err := r.Child()
			require.NoError(t, err)
			assert.False(t, ok, "the wrapper's end follows")
			// Written into another envelope, the nodes read the same (a fixed point).
			back, err := xmlany.ParseRawXML(x.String(), limits)
			require.NoError(t, err)
			assert.Equal(t, x, back)
		})
	}
}

func TestCaptureDataSet(t *testing.T) {
	// soap11-EchoDataSet-full: the content is carried untouched (canonical), schema and diffgram.
	body := `<EchoDataSet xmlns="` + ns + `"><ds><xs:schema id="Stock" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema"/><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1" /></ds></EchoDataSet>`
	r, s := param(t, envelope(body), limits)
	ds, err := xmlany.CaptureDataSet(r, s, "parameter ds")
	require.NoError(t, err)
	assert.Equal(t, `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" id="Stock"></xs:schema><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"></diffgr:diffgram>`,
		ds.Content.String())
	out := xmlany.AppendElement(nil, "EchoDataSetResult", ds.Content)
	assert.Equal(t, `<EchoDataSetResult>`+ds.Content.String()+`</EchoDataSetResult>`, string(out))
	assert.Equal(t, `<EchoElementResult />`, string(xmlany.AppendElement(nil, "EchoElementResult", xmlany.RawXML{})))
}

func TestCaptureRefuses(t *testing.T) {
	for _, tt := range []struct {
		capture string
		body    string
		shape   xmlany.Shape
		code    fault.Code
		msg     string
	}{
		{"soap11-EchoElement-text", `<EchoElement xmlns="` + ns + `"><element>just text</element></EchoElement>`, xmlany.Element,
			fault.InvalidArgument, "The parameter element must hold an XML element, not text."},
		{"undeclared element prefix", `<Op xmlns="` + ns + `"><v><nope:a/></v></Op>`, xmlany.Nodes,
			fault.InvalidArgument, "The parameter v is not namespace-well-formed XML: the prefix nope of the element nope:a is not declared."},
		{"undeclared attribute prefix", `<Op xmlns="` + ns + `"><v><a nope:x="1"/></v></Op>`, xmlany.Nodes,
			fault.InvalidArgument, "The parameter v is not namespace-well-formed XML: the prefix nope of the attribute nope:x is not declared."},
		{"one attribute under two prefixes", `<Op xmlns="` + ns + `"><v><a xmlns:p="urn:p" xmlns:q="urn:p" p:x="1" q:x="2"/></v></Op>`, xmlany.Nodes,
			fault.InvalidArgument, "The parameter v is not namespace-well-formed XML: the attribute {urn:p}x is given twice."},
		{"an empty prefixed declaration", `<Op xmlns="` + ns + `"><v><a xmlns:p=""/></v></Op>`, xmlany.Nodes,
			fault.InvalidArgument, `The parameter v is not namespace-well-formed XML: xmlns:p="" is not a declaration that may be made.`},
	} {
		t.Run(tt.capture, func(t *testing.T) {
			r, s := param(t, envelope(tt.body), limits)
			_, err := xmlany.Capture(r, s, tt.shape, "parameter "+s.Local())
			require.Error(t, err)
			assert.Equal(t, tt.code, fault.As(err).Code)
			assert.Equal(t, tt.msg, fault.As(err).Message)
		})
	}
}

// TestCaptureLimits: the parse budget's depth and element count apply inside raw content.
func TestCaptureLimits(t *testing.T) {
	deep := `<Op xmlns="` + ns + `"><v>` + strings.Repeat("<a>", 40) + strings.Repeat("</a>", 40) + `</v></Op>`
	r, s := param(t, envelope(deep), limits)
	_, err := xmlany.Capture(r, s, xmlany.Nodes, "parameter v")
	require.Error(t, err)
	assert.Equal(t, fault.TooLarge, fault.As(err).Code)
	assert.Contains(t, fault.As(err).Message, "nested deeper than 32")

	many := `<Op xmlns="` + ns + `"><v>` + strings.Repeat("<a/>", 200) + `</v></Op>`
	r, s = param(t, envelope(many), xmlwire.Limits{MaxDepth: 32, MaxElements: 100})
	_, err = xmlany.Capture(r, s, xmlany.Nodes, "parameter v")
	require.Error(t, err)
	assert.Equal(t, fault.TooLarge, fault.As(err).Code)

	_, err = xmlany.ParseRawXML(strings.Repeat("<a>", 40)+strings.Repeat("</a>", 40), limits)
	assert.Equal(t, fault.TooLarge, fault.As(err).Code)
}

// TestCaptureFastModeStepsAside: the fast reader leaves open content to the full one.
func TestCaptureFastModeStepsAside(t *testing.T) {
	doc := envelope(`<EchoNode xmlns="` + ns + `"><node>just text</node></EchoNode>`)
	r := xmlwire.NewReader([]byte(doc), ns, limits, true)
	s, err := r.Root()
	require.NoError(t, err)
	for range 3 {
		s, _, err = r.Child()
		require.NoError(t, err)
	}
	_, err = xmlany.Capture(r, s, xmlany.Node, "parameter node")
	assert.ErrorIs(t, err, xmlwire.ErrFallback)
}

func TestParseRawXML(t *testing.T) {
	x, err := xmlany.ParseRawXML(`plain <b xmlns="urn:x">bold</b>`, limits) // soap11-GetObject-nodes
	require.NoError(t, err)
	assert.Equal(t, `plain <b xmlns="urn:x">bold</b>`, x.String())
	for _, bad := range []string{`</raw><raw>`, `<a>`, `<p:a/>`, `a & b`, `<!DOCTYPE x>`, `<a></b>`} {
		_, err := xmlany.ParseRawXML(bad, limits)
		assert.Error(t, err, bad)
		assert.True(t, fault.As(err).Code.CallerFault(), bad)
	}
	x, err = xmlany.ParseRawXML("", limits)
	require.NoError(t, err)
	assert.True(t, x.IsZero())
}

// FuzzRawXML: any content a capture accepts is canonical: captured again from its own form, in an
// envelope that declares nothing, it is the same bytes (a fixed point), and the capture of each shape
// is a part of the capture of all nodes.
func FuzzRawXML(f *testing.F) {
	for _, s := range []string{
		`<Report xmlns="urn:report" id="r1"><Line>a &amp; b</Line></Report>`,
		`<p:c xmlns:p="urn:p">v</p:c>`, `a<b>c</b>d`, `<a>1</a><b>2</b>`, `just text`,
		`<value xmlns:x="http://www.w3.org/2001/XMLSchema" xsi:type="x:int">42</value>`,
		`<a xmlns="" t="&quot;&#9;"><![CDATA[<&]]><!-- c --><?pi d?></a>`, `<a xsi:type="nope:x"/>`,
		`<q:a xmlns:q="urn:q" xmlns="urn:d"><b xmlns=""/><q:c xmlns:q="urn:r" q:x="1"/></q:a>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc := `<w xmlns="urn:w" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:p="urn:p">` + s + `</w>`
		all, err := capture(doc, xmlany.Nodes)
		if err != nil {
			return
		}
		again, err := capture(`<w>`+all.String()+`</w>`, xmlany.Nodes)
		require.NoError(t, err, "%q", all)
		require.Equal(t, all, again)
		for _, shape := range []xmlany.Shape{xmlany.Element, xmlany.Node, xmlany.Elements} {
			x, err := capture(doc, shape)
			if err != nil {
				require.Equal(t, xmlany.Element, shape, "only Element refuses what Nodes takes")
				continue
			}
			back, err := capture(`<w>`+x.String()+`</w>`, shape)
			require.NoError(t, err)
			require.Equal(t, x, back)
		}
	})
}

func capture(doc string, shape xmlany.Shape) (xmlany.RawXML, error) {
	r := xmlwire.NewReader([]byte(doc), "urn:w", limits, false)
	s, err := r.Root()
	if err != nil {
		return xmlany.RawXML{}, err
	}
	x, err := xmlany.Capture(r, s, shape, "element w")
	if err != nil {
		return xmlany.RawXML{}, err
	}
	return x, r.End()
}
