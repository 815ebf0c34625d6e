package zoo_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire/anytype"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// The Go twin of Zoo3.cs's DescribeObject and EchoBox (§3): describeObject writes what Zoo3.cs's
// Describe writes of the .NET value XmlSerializer reads, from the anytype.Object the generated code
// read, so the replay compares what each side understood.

func (zoo3Service) DescribeObjectContext(_ context.Context, req *zoo3.DescribeObject) (*zoo3.DescribeObjectResponse, error) {
	return &zoo3.DescribeObjectResponse{DescribeObjectResult: describeObject(req.Value)}, nil
}

func (zoo3Service) EchoBoxContext(_ context.Context, req *zoo3.EchoBox) (*zoo3.EchoBoxResponse, error) {
	box := req.Box
	if box == nil {
		return &zoo3.EchoBoxResponse{}, nil
	}
	items := "null"
	if box.Items != nil {
		items = describeItems(box.Items.AnyType)
	}
	box.Seen = "Value=" + describeObject(box.Value) + "; Items=" + items
	return &zoo3.EchoBoxResponse{EchoBoxResult: box}, nil
}

// dotnetNames are the .NET names of the XSD built-ins an object reads as (Describe writes t.Name).
var dotnetNames = map[string]string{
	"string": "String", "int": "Int32", "long": "Int64", "short": "Int16", "byte": "SByte", "unsignedByte": "Byte",
	"unsignedShort": "UInt16", "unsignedInt": "UInt32", "unsignedLong": "UInt64", "boolean": "Boolean",
	"decimal": "Decimal", "guid": "Guid",
}

func describeItems(items []anytype.Object) string {
	var parts []string
	for _, item := range items {
		parts = append(parts, describeObject(item))
	}
	return "Object[]{" + strings.Join(parts, ", ") + "}"
}

func describeObject(o anytype.Object) string {
	switch o.Kind() {
	case anytype.Nil:
		return "null"
	case anytype.Empty:
		return "Object=System.Object"
	case anytype.Array:
		return describeItems(o.Items())
	case anytype.Complex:
		switch v := o.Complex().(type) {
		case *zoo3.Dog:
			return fmt.Sprintf("Dog{Barks=Int32=%d,Name=String=%s}", v.Barks, v.Name)
		case *zoo3.Cat:
			return fmt.Sprintf("Cat{Indoor=Boolean=%s,Name=String=%s}", dotnetBool(v.Indoor), v.Name)
		}
		return fmt.Sprintf("%T", o.Complex())
	case anytype.Raw:
		nodes := rawNodes(o.Raw())
		if typ := o.XSDType(); typ.Local != "" { // the unknown xsi:type ASMX keeps among the nodes
			nodes = append([]string{`Attribute:xsi:type="` + typ.Local + `"`}, nodes...)
		}
		return "XmlNode[" + strconv.Itoa(len(nodes)) + "]" + prefixEach(nodes)
	}
	if v, ok := o.DateTime(); ok {
		kind := "Local" // an offset: ASMX converts to server time (a deviation: we keep the zone)
		switch {
		case v.NoZone:
			kind = "Unspecified"
		case strings.HasSuffix(o.Text(), "Z"):
			kind = "Utc"
		}
		return "DateTime=" + v.Time.Format("2006-01-02T15:04:05.0000000") + " Kind=" + kind
	}
	if v, ok := o.Base64(); ok {
		return "Byte[]=" + base64.StdEncoding.EncodeToString(v)
	}
	if v, ok := o.Char(); ok {
		return "Char=" + strconv.Itoa(int(v))
	}
	if v, ok := o.Bool(); ok {
		return "Boolean=" + dotnetBool(v)
	}
	if _, member, ok := o.Enum(); ok {
		return o.XSDType().Local + "=" + member
	}
	return dotnetNames[o.XSDType().Local] + "=" + o.Text()
}

func dotnetBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

func prefixEach(nodes []string) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(" " + n)
	}
	return b.String()
}

// rawNodes describes each top-level node of x as .NET's NodeType:OuterXml: an element as its
// canonical text (which declares the namespaces it uses, as OuterXml does), a text node as its
// escaped text.
func rawNodes(x xmlany.RawXML) []string {
	s := x.String()
	d := xml.NewDecoder(strings.NewReader(s))
	var nodes []string
	depth, start := 0, 0
	for {
		offset := int(d.InputOffset())
		tok, err := d.RawToken()
		if err == io.EOF || err != nil {
			return nodes
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				start = offset
			}
			depth++
		case xml.EndElement:
			depth--
			if depth == 0 {
				nodes = append(nodes, "Element:"+s[start:d.InputOffset()])
			}
		case xml.CharData:
			if depth == 0 {
				var b bytes.Buffer
				_ = xml.EscapeText(&b, t)
				nodes = append(nodes, "Text:"+b.String())
			}
		}
	}
}

// openTargets are zoo3's generated messages holding open values (object, raw XML, DataSet).
func openTargets() []hierarchyTarget {
	var ts []hierarchyTarget
	for _, op := range zoo3.Operations {
		switch op.Name {
		case "GetObject", "DescribeObject", "EchoBox", "EchoElement", "EchoNode", "MakeElement", "GetDataSet", "DescribeDataSet", "EchoDataSet":
			ts = append(ts, hierarchyTarget{op.RequestElement, op.NewRequest}, hierarchyTarget{op.ResponseElement, op.NewResponse})
		}
	}
	return ts
}

// FuzzZoo3Open holds the generated readers of the open values (anytype.Read over the generated
// Registry, xmlany.Capture by shape, CaptureDataSet) to the runtime's two modes agreeing and to a
// fixed point: what decodes is written back (xsi:type, canonical nodes) and reads back the same.
func FuzzZoo3Open(f *testing.F) {
	targets := openTargets()
	if len(targets) != 18 {
		f.Fatalf("zoo3 carries %d of the 18 open messages", len(targets))
	}
	files, _ := filepath.Glob("testdata/shapes/captures/soap1*-*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, m := range wrapperContent.FindAllSubmatch(data, -1) {
			for i, tg := range targets {
				if string(m[1]) == tg.element {
					f.Add(m[2], uint8(i))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, content []byte, which uint8) {
		tg := targets[int(which)%len(targets)]
		fast, fastErr := decodeHierarchy(tg, content, true)
		full, fullErr := decodeHierarchy(tg, content, false)
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
		again, err := decodeHierarchy(tg, full, false)
		require.NoError(t, err, "written back: %s", full)
		require.Equal(t, string(full), string(again))
	})
}

// TestZoo3OpenSeeds keeps FuzzZoo3Open meaningful: the captures seed every message with content, and
// an object, an XmlElement and a DataSet among them read and are written back as ASMX wrote them.
func TestZoo3OpenSeeds(t *testing.T) {
	targets := openTargets()
	seeded := map[string]bool{}
	files, _ := filepath.Glob("testdata/shapes/captures/soap1*-*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, m := range wrapperContent.FindAllSubmatch(data, -1) {
			seeded[string(m[1])] = true
		}
	}
	for _, tg := range targets {
		require.True(t, seeded[tg.element], "no capture seeds %s", tg.element)
	}
	byElement := map[string]hierarchyTarget{}
	for _, tg := range targets {
		byElement[tg.element] = tg
	}
	for _, tt := range []struct{ element, content string }{
		{"GetObjectResponse", `<GetObjectResult xsi:type="ArrayOfAnyType"><anyType xsi:type="xsd:int">1</anyType><anyType xsi:type="xsd:string">x</anyType><anyType xsi:nil="true" /><anyType xsi:type="Cat"><Name>Tom</Name><Indoor>true</Indoor></anyType></GetObjectResult>`},
		{"EchoElementResponse", `<EchoElementResult><Report xmlns="urn:report" id="r1"><Line>a &amp; b</Line></Report></EchoElementResult>`},
		{"EchoDataSetResponse", `<EchoDataSetResult><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" id="Stock"></xs:schema><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"></diffgr:diffgram></EchoDataSetResult>`},
	} {
		got, err := decodeHierarchy(byElement[tt.element], []byte(tt.content), false)
		require.NoError(t, err, tt.element)
		assert.Equal(t, tt.content, string(got), tt.element)
	}
}

// TestZoo3OpenJSON: on the JSON endpoint an open value is a string holding its XML (docs/bindings.md):
// an object its anyType element with the declarations its xsi:type needs, read back the same; raw XML
// and a DataSet their canonical nodes; null for none.
func TestZoo3OpenJSON(t *testing.T) {
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	call := func(op, body string) (int, string) {
		r := httptest.NewRequest(http.MethodPost, zoo3.Contract.Path+"/"+op, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json; charset=utf-8")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	decl := `xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns=\"` + zoo3Namespace + `\"`
	for _, tt := range []struct {
		op, body string
		status   int
		want     string
	}{
		{"GetObject", `{"kind":"int"}`, 200, `{"d":"\u003canyType ` + decl + ` xsi:type=\"xsd:int\"\u003e42\u003c/anyType\u003e"}`},
		{"GetObject", `{"kind":"none"}`, 200, `{"d":null}`},
		{"DescribeObject", `{"value":"<anyType ` + decl + ` xsi:type=\"Dog\"><Name>Rex</Name><Barks>3</Barks></anyType>"}`, 200, `{"d":"Dog{Barks=Int32=3,Name=String=Rex}"}`},
		{"DescribeObject", `{"value":"<anyType>plain</anyType>"}`, 200, `{"d":"XmlNode[1] Text:plain"}`},
		{"DescribeObject", `{"value":"<anyType"}`, 400, `not well-formed XML`},
		{"EchoElement", `{"element":"<a xmlns=\"urn:a\">1</a>"}`, 200, `{"d":"\u003ca xmlns=\"urn:a\"\u003e1\u003c/a\u003e"}`},
		{"EchoElement", `{"element":null}`, 200, `{"d":null}`},
		{"EchoDataSet", `{"ds":"<x/><y/>"}`, 200, `{"d":"\u003cx xmlns=\"\"\u003e\u003c/x\u003e\u003cy xmlns=\"\"\u003e\u003c/y\u003e"}`},
	} {
		status, body := call(tt.op, tt.body)
		assert.Equal(t, tt.status, status, "%s %s: %s", tt.op, tt.body, body)
		assert.Contains(t, body, tt.want, "%s %s", tt.op, tt.body)
	}
}

// TestZoo3OpenClient: the generated client stub sends and reads every open value on every binding
// that offers the operation: an object (simple, complex, array, raw, nil), an XmlElement (the GET/POST
// document's root itself), a DataSet.
func TestZoo3OpenClient(t *testing.T) {
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	report, err := xmlany.ParseRawXML(`<Report xmlns="urn:report" id="r7"><Line>first &amp; &lt;second&gt;</Line></Report>`, xmlwire.Limits{MaxDepth: 8, MaxElements: 8})
	require.NoError(t, err)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &zoo3.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + zoo3.Contract.Path, Namespace: zoo3Namespace, Binding: b, HTTP: srv.Client()}}
			for kind, want := range map[string]string{"int": "Int32=42", "guid": "Guid=0f8fad5b-d9cb-469f-a165-70867728950e",
				"dog": "Dog{Barks=Int32=3,Name=String=Rex}", "objects": "Object[]{Int32=1, String=x, null, Cat{Indoor=Boolean=True,Name=String=Tom}}",
				"nodes": `XmlNode[2] Text:plain  Element:<b xmlns="urn:x">bold</b>`, "none": "null"} {
				got, err := c.GetObject(&zoo3.GetObject{Kind: kind})
				require.NoError(t, err, kind)
				assert.Equal(t, want, describeObject(got.GetObjectResult), kind)
			}
			made, err := c.MakeElement(&zoo3.MakeElement{Name: "r7"})
			require.NoError(t, err)
			assert.Equal(t, report.String(), strings.TrimSpace(made.MakeElementResult.String()))
			ds, err := c.GetDataSet(&zoo3.GetDataSet{Rows: 2})
			require.NoError(t, err)
			require.NotNil(t, ds.GetDataSetResult)
			assert.Contains(t, describeDataSet(ds.GetDataSetResult), "rows=2 [Unchanged Int32=1,")
			none, err := c.GetDataSet(&zoo3.GetDataSet{Rows: -1})
			require.NoError(t, err)
			assert.Nil(t, none.GetDataSetResult)
			if b == client.HTTPGet || b == client.HTTPPost {
				return // the rest is offered over SOAP (and JSON) only
			}
			echoed, err := c.EchoElement(&zoo3.EchoElement{Element: report})
			require.NoError(t, err)
			assert.Equal(t, report, echoed.EchoElementResult)
			described, err := c.DescribeObject(&zoo3.DescribeObject{Value: anytype.ObjectOf(makeAnimal("dog").(*zoo3.Dog))})
			require.NoError(t, err)
			assert.Equal(t, "Dog{Barks=Int32=3,Name=String=Rex}", described.DescribeObjectResult)
			back, err := c.EchoDataSet(&zoo3.EchoDataSet{Ds: ds.GetDataSetResult})
			require.NoError(t, err)
			assert.Equal(t, ds.GetDataSetResult, back.EchoDataSetResult)
		})
	}
}

// TestZoo3OpenHelpPages: the operation pages of the open operations render, their samples showing raw
// XML as xml and a DataSet as xml xml, as Mono's help page does (doc-op-GetDataSet-msg), and an object
// as its type's name.
func TestZoo3OpenHelpPages(t *testing.T) {
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	for op, want := range map[string]string{
		"GetDataSet": "&lt;GetDataSetResult&gt;xml xml&lt;/GetDataSetResult&gt;", "EchoElement": "&lt;element&gt;xml&lt;/element&gt;",
		"EchoNode": "&lt;node&gt;xml&lt;/node&gt;", "DescribeObject": "&lt;value&gt;anyType&lt;/value&gt;",
		"GetObject": "&lt;GetObjectResult&gt;anyType&lt;/GetObjectResult&gt;", "MakeElement": "&lt;MakeElementResult&gt;xml&lt;/MakeElementResult&gt;",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, zoo3.Contract.Path+"?op="+op, nil))
		require.Equal(t, http.StatusOK, rec.Code, op)
		assert.Contains(t, rec.Body.String(), want, op)
	}
}
