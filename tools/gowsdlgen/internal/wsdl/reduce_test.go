package wsdl_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// reduceWSDL has two operations: Keep, whose result is an Animal (from which Dog derives), and Drop,
// whose parameter is a Box only it uses; both are on SOAP and on HTTP GET.
const reduceWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types>
    <s:schema targetNamespace="urn:t">
      <s:element name="Keep"><s:complexType /></s:element>
      <s:element name="KeepResponse"><s:complexType><s:sequence><s:element name="KeepResult" type="tns:Animal" /></s:sequence></s:complexType></s:element>
      <s:complexType name="Animal"><s:sequence><s:element name="Name" type="s:string" /></s:sequence></s:complexType>
      <s:complexType name="Dog"><s:complexContent><s:extension base="tns:Animal" /></s:complexContent></s:complexType>
      <s:element name="Drop"><s:complexType><s:sequence><s:element name="b" type="tns:Box" /></s:sequence></s:complexType></s:element>
      <s:element name="DropResponse"><s:complexType /></s:element>
      <s:complexType name="Box"><s:sequence><s:element name="Value" /></s:sequence></s:complexType>
    </s:schema>
  </types>
  <message name="KeepIn"><part name="parameters" element="tns:Keep" /></message>
  <message name="KeepOut"><part name="parameters" element="tns:KeepResponse" /></message>
  <message name="DropIn"><part name="parameters" element="tns:Drop" /></message>
  <message name="DropOut"><part name="parameters" element="tns:DropResponse" /></message>
  <portType name="P">
    <operation name="Keep"><input message="tns:KeepIn" /><output message="tns:KeepOut" /></operation>
    <operation name="Drop"><input message="tns:DropIn" /><output message="tns:DropOut" /></operation>
  </portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <operation name="Keep"><soap:operation soapAction="urn:t/Keep" /></operation>
    <operation name="Drop"><soap:operation soapAction="urn:t/Drop" /></operation>
  </binding>
</definitions>
`

// TestWithoutOperations: the operations dropped go from the portType and every binding, with the
// messages and schema components only they use, each with its line; a type derived from one a kept
// operation uses stays (a value of the base may be one of it).
func TestWithoutOperations(t *testing.T) {
	defs, err := wsdl.Read([]byte(reduceWSDL))
	require.NoError(t, err)
	got, err := defs.WithoutOperations(func(name string) bool { return name == "Drop" })
	require.NoError(t, err)
	want := reduceWSDL
	for _, gone := range []string{`<s:element name="Drop">`, `<s:element name="DropResponse">`, `<s:complexType name="Box">`,
		`<message name="DropIn">`, `<message name="DropOut">`, `<operation name="Drop"><input`, `<operation name="Drop"><soap:`} {
		i := strings.Index(want, gone)
		require.GreaterOrEqual(t, i, 0, gone)
		start := strings.LastIndex(want[:i], "\n") + 1
		end := i + strings.Index(want[i:], "\n") + 1
		want = want[:start] + want[end:]
	}
	assert.Equal(t, want, string(got))
	assert.Contains(t, string(got), `<s:complexType name="Dog">`)

	all, err := defs.WithoutOperations(func(string) bool { return false })
	require.NoError(t, err)
	assert.Equal(t, reduceWSDL, string(all), "dropping nothing changes nothing")
}
