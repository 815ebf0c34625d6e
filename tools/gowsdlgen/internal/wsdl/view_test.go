package wsdl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

const contractPath = "../../../../wsdl/contactsync.wsdl"

func readContract(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(contractPath)
	require.NoError(t, err)
	return string(data)
}

// contractOps are the contract's operations in document order.
var contractOps = []string{"TestCreateContact", "TestUpdateContact", "DeleteContact", "ReadContact", "Version", "VersionMajor", "VersionMinor"}

// TestSOAPViewOfContract checks the view of the real contract against an independent derivation: the
// input with exactly the dropped components' lines deleted, found by plain string search.
func TestSOAPViewOfContract(t *testing.T) {
	contract := readContract(t)
	view, err := wsdl.SOAPView([]byte(contract))
	require.NoError(t, err)

	want := []string{"element Contact", "element string", "element int"}
	for _, op := range contractOps {
		for _, m := range []string{"HttpGetIn", "HttpGetOut", "HttpPostIn", "HttpPostOut"} {
			want = append(want, "message "+op+m)
		}
	}
	for _, op := range contractOps { // the descriptions, which the post-processing step writes instead
		want = append(want, "documentation SyncServiceSoap/"+op)
	}
	want = append(want,
		"portType SyncServiceHttpGet", "portType SyncServiceHttpPost",
		"binding SyncServiceHttpGet", "binding SyncServiceHttpPost",
		"port SyncService/SyncServiceHttpGet", "port SyncService/SyncServiceHttpPost")
	assert.Equal(t, want, componentStrings(view.Dropped))

	tags := map[string]string{"element": "s:element", "message": "wsdl:message", "portType": "wsdl:portType", "binding": "wsdl:binding", "port": "wsdl:port"}
	expected := contract
	for _, c := range view.Dropped {
		name := c.Name[strings.LastIndex(c.Name, "/")+1:]
		if c.Kind == "documentation" {
			expected = deleteDocumentation(t, expected, c.Name[:strings.Index(c.Name, "/")], name)
			continue
		}
		expected = deleteLines(t, expected, tags[c.Kind], name)
	}
	assert.Equal(t, expected, string(view.WSDL), "the view must be the contract minus whole lines of dropped components")

	// What stays, spelled out; each piece is also a byte-identical substring of the contract.
	kept := []string{
		`<wsdl:binding name="SyncServiceSoap" type="tns:SyncServiceSoap">`,
		`<wsdl:binding name="SyncServiceSoap12" type="tns:SyncServiceSoap">`,
		`<wsdl:portType name="SyncServiceSoap">`,
		`<wsdl:port name="SyncServiceSoap" binding="tns:SyncServiceSoap">`,
		`<wsdl:port name="SyncServiceSoap12" binding="tns:SyncServiceSoap12">`,
		`<s:complexType name="Contact">`,
		`<s:complexType name="ArrayOfString">`,
	}
	for _, op := range contractOps {
		kept = append(kept,
			`<wsdl:message name="`+op+`SoapIn">`, `<wsdl:message name="`+op+`SoapOut">`,
			`<s:element name="`+op+`">`, `<s:element name="`+op+`Response">`)
	}
	for _, k := range kept {
		assert.Equal(t, 1, strings.Count(string(view.WSDL), k), k)
	}
	for _, gone := range []string{"HttpGet", "HttpPost", "<http:", "<mime:", `<s:element name="int"`, `<s:element name="string"`} {
		assert.NotContains(t, string(view.WSDL), gone)
	}
	// The root start tag, with every namespace declaration, is untouched.
	root := contract[strings.Index(contract, "<wsdl:definitions"):]
	root = root[:strings.Index(root, ">")+1]
	assert.Contains(t, string(view.WSDL), root)
}

// deleteLines deletes the lines of the one element <tag name="name" …>, up to its end tag.
func deleteLines(t *testing.T, doc, tag, name string) string {
	t.Helper()
	open := "<" + tag + ` name="` + name + `"`
	require.Equal(t, 1, strings.Count(doc, open), open)
	i := strings.Index(doc, open)
	start := strings.LastIndex(doc[:i], "\n") + 1
	end := i + strings.Index(doc[i:], ">") + 1
	if doc[end-2] != '/' {
		end += strings.Index(doc[end:], "</"+tag+">") + len("</"+tag+">")
	}
	end += strings.Index(doc[end:], "\n") + 1
	return doc[:start] + doc[end:]
}

// deleteDocumentation deletes the line of the wsdl:documentation of operation op of portType pt.
func deleteDocumentation(t *testing.T, doc, pt, op string) string {
	t.Helper()
	i := strings.Index(doc, `<wsdl:portType name="`+pt+`"`)
	require.GreaterOrEqual(t, i, 0, pt)
	j := strings.Index(doc[i:], `<wsdl:operation name="`+op+`"`)
	require.GreaterOrEqual(t, j, 0, op)
	k := strings.Index(doc[i+j:], "<wsdl:documentation")
	require.GreaterOrEqual(t, k, 0, op)
	at := i + j + k
	start := strings.LastIndex(doc[:at], "\n") + 1
	end := at + strings.Index(doc[at:], "\n") + 1
	return doc[:start] + doc[end:]
}

func componentStrings(cs []wsdl.Component) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// pingWSDL exercises what the contract does not: WSDL elements in the default namespace, unusual
// prefixes, binding names that lie about their protocol, an element kept only by a schema ref, an
// element no message uses, an orphan message, a service with only HTTP ports and components sharing
// a line.
const pingWSDL = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:x="urn:ping" xmlns:s11="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:h="http://schemas.xmlsoap.org/wsdl/http/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:ping">
  <types>
    <xsd:schema targetNamespace="urn:ping">
      <xsd:element name="Ping">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element ref="x:Reffed" />
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="Shared" type="xsd:string" />
      <xsd:element name="Reffed" type="xsd:int" />
      <xsd:element name="Lonely" type="xsd:int" />
      <xsd:element name="Unused" type="xsd:int" />
    </xsd:schema>
  </types>
  <message name="PingIn"><part name="parameters" element="x:Ping" /></message>
  <message name="PingOut"><part name="parameters" element="x:Shared" /></message>
  <message name="PingHttpIn" />
  <message name="PingHttpOut"><part name="Body" element="x:Shared" /></message>
  <message name="LonelyOut"><part name="Body" element="x:Lonely" /></message>
  <message name="Orphan"><part name="Body" element="x:Reffed" /></message>
  <portType name="PingSoapPort">
    <operation name="Ping"><input message="x:PingIn" /><output message="x:PingOut" /></operation>
  </portType>
  <portType name="PingHttpPort">
    <operation name="Ping"><input message="x:PingHttpIn" /><output message="x:PingHttpOut" /></operation>
    <operation name="Lonely"><input message="x:PingHttpIn" /><output message="x:LonelyOut" /></operation>
  </portType>
  <binding name="PingHttp" type="x:PingSoapPort">
    <!-- Named like an HTTP binding, but SOAP 1.2. -->
    <s12:binding transport="http://schemas.xmlsoap.org/soap/http" />
  </binding>
  <binding name="PingSoap" type="x:PingHttpPort">
    <!-- Named like a SOAP binding, but HTTP. -->
    <h:binding verb="GET" />
  </binding>
  <service name="Ping">
    <port name="A" binding="x:PingHttp" /><port name="B" binding="x:PingSoap" />
  </service>
  <service name="OnlyHttp">
    <port name="C" binding="x:PingSoap" />
  </service>
</definitions>
`

const pingView = `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:x="urn:ping" xmlns:s11="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:h="http://schemas.xmlsoap.org/wsdl/http/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:ping">
  <types>
    <xsd:schema targetNamespace="urn:ping">
      <xsd:element name="Ping">
        <xsd:complexType>
          <xsd:sequence>
            <xsd:element ref="x:Reffed" />
          </xsd:sequence>
        </xsd:complexType>
      </xsd:element>
      <xsd:element name="Shared" type="xsd:string" />
      <xsd:element name="Reffed" type="xsd:int" />
      <xsd:element name="Unused" type="xsd:int" />
    </xsd:schema>
  </types>
  <message name="PingIn"><part name="parameters" element="x:Ping" /></message>
  <message name="PingOut"><part name="parameters" element="x:Shared" /></message>
  <portType name="PingSoapPort">
    <operation name="Ping"><input message="x:PingIn" /><output message="x:PingOut" /></operation>
  </portType>
  <binding name="PingHttp" type="x:PingSoapPort">
    <!-- Named like an HTTP binding, but SOAP 1.2. -->
    <s12:binding transport="http://schemas.xmlsoap.org/soap/http" />
  </binding>
  <service name="Ping">
    <port name="A" binding="x:PingHttp" />
  </service>
</definitions>
`

var pingDropped = []string{
	"element Lonely",
	"message PingHttpIn", "message PingHttpOut", "message LonelyOut", "message Orphan",
	"portType PingHttpPort", "binding PingSoap", "port Ping/B", "service OnlyHttp",
}

func TestSOAPView(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	tests := []struct {
		name        string
		wsdl        string
		wantView    string
		wantDropped []string
	}{
		{name: "prefixes, lying names and schema refs", wsdl: pingWSDL, wantView: pingView, wantDropped: pingDropped},
		{name: "CRLF line ends", wsdl: crlf(pingWSDL), wantView: crlf(pingView), wantDropped: pingDropped},
		{
			name: "SOAP 1.1 binding by another prefix, nothing to drop",
			wsdl: `<w:definitions xmlns:w="http://schemas.xmlsoap.org/wsdl/" xmlns:soapy="http://schemas.xmlsoap.org/wsdl/soap/" targetNamespace="urn:t" xmlns:t="urn:t">` +
				`<w:message name="M" /><w:portType name="P"><w:operation name="O"><w:input message="t:M" /></w:operation></w:portType>` +
				`<w:binding name="B" type="t:P"><soapy:binding style="document" /></w:binding></w:definitions>`,
			wantView: `<w:definitions xmlns:w="http://schemas.xmlsoap.org/wsdl/" xmlns:soapy="http://schemas.xmlsoap.org/wsdl/soap/" targetNamespace="urn:t" xmlns:t="urn:t">` +
				`<w:message name="M" /><w:portType name="P"><w:operation name="O"><w:input message="t:M" /></w:operation></w:portType>` +
				`<w:binding name="B" type="t:P"><soapy:binding style="document" /></w:binding></w:definitions>`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			view, err := wsdl.SOAPView([]byte(tt.wsdl))
			require.NoError(t, err)
			assert.Equal(t, tt.wantView, string(view.WSDL))
			assert.Equal(t, tt.wantDropped, componentStrings(view.Dropped))
		})
	}
}

func TestSOAPViewRejects(t *testing.T) {
	const head = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:t="urn:t" targetNamespace="urn:t">`
	tests := []struct {
		name, wsdl, wantErr string
	}{
		{"not WSDL", `<schema xmlns="http://www.w3.org/2001/XMLSchema" />`, "not a WSDL 1.1 definitions element"},
		{"malformed XML", head + `<message name="M"></portType></definitions>`, "is closed by"},
		{"unclosed element", head + `<message name="M">`, "never closed"},
		{"undeclared element prefix", head + `<q:message /></definitions>`, "undeclared prefix"},
		{"no SOAP binding", head + `<portType name="P" /><binding name="B" type="t:P"><other /></binding></definitions>`, "no wsdl:binding has a SOAP"},
		{"unknown portType", head + `<binding name="B" type="t:Nope"><soap:binding /></binding></definitions>`, `type="Nope" names no wsdl:portType`},
		{"portType in another namespace", head + `<portType name="P" /><binding name="B" type="soap:P"><soap:binding /></binding></definitions>`, "names no wsdl:portType"},
		{"undeclared QName prefix", head + `<portType name="P" /><binding name="B" type="u:P"><soap:binding /></binding></definitions>`, "declared prefix"},
		{"unknown message", head + `<portType name="P"><operation name="O"><input message="t:Nope" /></operation></portType><binding name="B" type="t:P"><soap:binding /></binding></definitions>`, "names no wsdl:message"},
		{"duplicate message", head + `<message name="M" /><message name="M" /></definitions>`, `wsdl:message "M" is defined twice`},
		{"port of unknown binding", head + `<portType name="P" /><binding name="B" type="t:P"><soap:binding /></binding><service name="S"><port name="X" binding="t:Nope" /></service></definitions>`, "names no wsdl:binding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := wsdl.SOAPView([]byte(tt.wsdl))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}
