package zoo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// newZoo3AttrsServer serves zoo3 on every binding and the JSON endpoint.
func newZoo3AttrsServer(t *testing.T) *httptest.Server {
	t.Helper()
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// TestZoo3AttrsClient: the generated client and the runtime's client carry attributes (a value type
// always, an optional string when set, [Flags]) and [XmlText] content (decimal and string) both ways,
// on every binding that offers the operation and on the JSON endpoint: GetTagged's value comes back
// equal to what the service returned, and EchoTagged echoes what it was sent.
func TestZoo3AttrsClient(t *testing.T) {
	srv := newZoo3AttrsServer(t)
	want, err := zoo3Service{}.GetTaggedContext(context.Background(), &zoo3.GetTagged{Variant: 0})
	require.NoError(t, err)
	for _, b := range []client.Binding{client.SOAP11, client.SOAP12, client.HTTPGet, client.HTTPPost, client.JSON} {
		t.Run(string(b), func(t *testing.T) {
			c := &zoo3.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + zoo3.Contract.Path, Namespace: oneWayNamespace, Binding: b, HTTP: srv.Client()}}
			got, err := c.GetTagged(&zoo3.GetTagged{Variant: 0})
			require.NoError(t, err)
			assert.Equal(t, want.GetTaggedResult, got.GetTaggedResult)
			if b == client.HTTPGet || b == client.HTTPPost {
				return // EchoTagged takes a complex parameter: SOAP and JSON only, as ASMX offers it
			}
			sent := want.GetTaggedResult
			echo, err := c.EchoTagged(&zoo3.EchoTagged{Tagged: sent})
			require.NoError(t, err)
			assert.Equal(t, sent, echo.EchoTaggedResult)
			bare := &zoo3.Tagged{Remark: &zoo3.Note{Lang: "en"}}
			echo, err = c.EchoTagged(&zoo3.EchoTagged{Tagged: bare})
			require.NoError(t, err)
			assert.Equal(t, bare, echo.EchoTaggedResult, "optional string attributes omitted when empty, text empty")
		})
	}
}

// TestZoo3AttrsJSON: on the JSON endpoint the attributes are keys after the elements under their XML
// names, and simple content is an object of its attributes and "Value" (our choice: ASP.NET AJAX
// uses C# member names, which the WSDL does not carry); a bad attribute value is the caller's error.
func TestZoo3AttrsJSON(t *testing.T) {
	srv := newZoo3AttrsServer(t)
	post := func(op, body string) (int, string) {
		resp, err := srv.Client().Post(srv.URL+zoo3.Contract.Path+"/"+op, "application/json; charset=utf-8", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(out)
	}
	status, body := post("GetTagged", `{"variant":0}`)
	require.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, `"Price":{"Currency":"EUR","Value":12.50},"Remark":{"Lang":"de","Value":"Grüße \u0026 \u003cok\u003e"},"Code":"A-1","rev":3,"Access":"Read Write"`)
	status, body = post("EchoTagged", `{"tagged":{"rev":7,"Access":"Write","Price":{"Value":1.5}}}`)
	require.Equal(t, http.StatusOK, status, body)
	assert.Contains(t, body, `"Price":{"Currency":"","Value":1.5}`)
	assert.Contains(t, body, `"rev":7,"Access":"Write"`)
	status, body = post("EchoTagged", `{"tagged":{"rev":"x"}}`)
	assert.Equal(t, http.StatusInternalServerError, status, body)
	assert.Contains(t, body, `"ExceptionType":"InvalidArgument"`)
}

// TestZoo3AttrsSOAPReading: the SOAP reader takes the attributes in any order, ignores qualified and
// unknown ones, leaves absent ones at their zero value and refuses a bad value as the caller's error
// naming the attribute, in fast and full reading alike (a document with attributes falls back to the
// full reader, PlainAttrs).
func TestZoo3AttrsSOAPReading(t *testing.T) {
	srv := newZoo3AttrsServer(t)
	call := func(tagged string) (int, string) {
		env := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
			`<EchoTagged xmlns="http://localhost:8080/zoo3/v1/">` + tagged + `</EchoTagged></soap:Body></soap:Envelope>`
		req, err := http.NewRequest(http.MethodPost, srv.URL+zoo3.Contract.Path, strings.NewReader(env))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		req.Header.Set("SOAPAction", `"http://localhost:8080/zoo3/v1/EchoTagged"`)
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(out)
	}
	for _, tt := range []struct{ name, in, want string }{
		{"in any order", `<tagged Access="Write" extra="1" rev=" 12 " Code="c&amp;d"><Price Currency="USD">+3.10</Price></tagged>`,
			`<EchoTaggedResult Code="c&amp;d" rev="12" Access="Write">`},
		{"qualified ignored", `<tagged xmlns:t="urn:t" t:Code="no" t:rev="5"><Remark t:Lang="x" Lang="en">hi</Remark></tagged>`,
			`<EchoTaggedResult rev="0" Access="None">`},
		{"absent", `<tagged />`, `<EchoTaggedResult rev="0" Access="None">`},
		{"money text", `<tagged><Price Currency="EUR"> 12.50 </Price></tagged>`, `<Price Currency="EUR">12.50</Price>`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body := call(tt.in)
			require.Equal(t, http.StatusOK, status, body)
			assert.Contains(t, body, tt.want)
		})
	}
	for _, tt := range []struct{ in, says string }{
		{`<tagged rev="x" />`, `The attribute rev must be an xsd:int; &quot;x&quot; is not.`},
		{`<tagged rev="2147483648" />`, `attribute rev`},
		{`<tagged Access="Bogus" />`, `attribute Access`},
		{`<tagged><Price>abc</Price></tagged>`, `the text of Money`},
		{`<tagged><Remark>a<b>x</b>c</Remark></tagged>`, `The content of Note must hold text, not elements.`},
	} {
		status, body := call(tt.in)
		assert.Equal(t, http.StatusInternalServerError, status, body)
		assert.Contains(t, body, "<faultcode>soap:Client</faultcode>", tt.in)
		assert.Contains(t, body, tt.says, tt.in)
	}
}

// TestZoo3AttrsHelpSamples: the operation page's sample messages show a type's attributes with their
// placeholders in its start tag and simple content's text type, on SOAP and as the GET/POST result
// root; the JSON sample shows them as members after the elements.
func TestZoo3AttrsHelpSamples(t *testing.T) {
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	for op, wants := range map[string][]string{
		"EchoTagged": {`&lt;tagged Code=&#34;string&#34; rev=&#34;int&#34; Access=&#34;None or Read or Write or Execute&#34;&gt;`,
			`&lt;Price Currency=&#34;string&#34;&gt;decimal&lt;/Price&gt;`, `&lt;Remark Lang=&#34;string&#34;&gt;string&lt;/Remark&gt;`},
		"GetTagged": {`Code=&#34;string&#34; rev=&#34;int&#34; Access=&#34;None or Read or Write or Execute&#34;`},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, zoo3.Contract.Path+"?page=op&tab=msg&op="+op+"&bnd=SyncSoap", nil))
		require.Equal(t, http.StatusOK, rec.Code, op)
		for _, want := range wants {
			assert.Contains(t, rec.Body.String(), want, op)
		}
	}
}

// TestZoo3AttrsInObject: an object (xsd:anyType) holding a value with attributes keeps them: its
// xsi:type, then its attributes, are written in the start tag, and anytype.Read hands the start to the
// generated DecodeXMLElement, so Tagged's attributes and Money's text and attribute read back.
func TestZoo3AttrsInObject(t *testing.T) {
	for _, fast := range []bool{true, false} {
		doc := `<EchoBox xmlns="http://localhost:8080/zoo3/v1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><box>` +
			`<Value xsi:type="Tagged" Code="A-1" rev="3" Access="Read Write"><Name>n</Name></Value>` +
			`<Items><anyType xsi:type="Money" Currency="EUR">12.50</anyType></Items></box></EchoBox>`
		rd := xmlwire.NewReader([]byte(doc), zoo3.Contract.Namespace, xmlwire.Limits{MaxDepth: 32, MaxElements: 1000}, fast)
		_, err := rd.Root()
		require.NoError(t, err)
		var m zoo3.EchoBox
		err = m.DecodeXML(rd)
		if fast && err == xmlwire.ErrFallback {
			continue // the fast reader steps aside for attributes
		}
		require.NoError(t, err)
		require.NotNil(t, m.Box)
		tagged, ok := m.Box.Value.Complex().(*zoo3.Tagged)
		require.True(t, ok, "%#v", m.Box.Value)
		assert.Equal(t, &zoo3.Tagged{Code: "A-1", Rev: 3, Access: zoo3.PermRead | zoo3.PermWrite, Name: "n"}, tagged)
		require.NotNil(t, m.Box.Items)
		require.Len(t, m.Box.Items.AnyType, 1)
		assert.Equal(t, &zoo3.Money{Currency: "EUR", Value: xsd.MustParseDecimal("12.50")}, m.Box.Items.AnyType[0].Complex())
		assert.Equal(t, `<box><Value xsi:type="Tagged" Code="A-1" rev="3" Access="Read Write"><Name>n</Name><Permissions>None</Permissions><Maybe xsi:nil="true" /></Value>`+
			`<Items><anyType xsi:type="Money" Currency="EUR">12.50</anyType></Items><Seen /></box>`, string(m.AppendXML(nil)))
	}
}
