package bare_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/bare"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// TestWrapZoo3: the bare operations of zoo3's contract (shapes §8) become wrapped ones named
// <Name>Request and <Name>Response, with the part elements in order, their occurrence as the wrapped
// form of the same C# parameter has it, and every line of the contract where it was.
func TestWrapZoo3(t *testing.T) {
	data, err := os.ReadFile("../zoo/testdata/shapes/zoo3.wsdl")
	require.NoError(t, err)
	defs, err := wsdl.Read(data)
	require.NoError(t, err)
	wrapped, ops, err := bare.Wrap(defs)
	require.NoError(t, err)
	assert.Equal(t, map[string]bool{"BareOne": true, "BareTwo": true, "PlaceOrder": true, "BareNothing": true}, ops)
	assert.Equal(t, bytes.Count(data, []byte("\n")), bytes.Count(wrapped.Data, []byte("\n")), "the rewrite keeps the line count")
	got := string(wrapped.Data)
	for _, want := range []string{
		`<s:element name="BareTwoRequest"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="word" type="s:string" />` +
			`<s:element minOccurs="1" maxOccurs="1" name="times" type="s:int" /></s:sequence></s:complexType></s:element>`,
		`<s:element name="PlaceOrderResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="OrderAck" type="tns:OrderAck" />`,
		`<s:element name="BareNothingResponse"><s:complexType><s:sequence></s:sequence></s:complexType></s:element>`,
		`<wsdl:message name="BareTwoSoapIn"><wsdl:part name="parameters" element="bare:BareTwoRequest" xmlns:bare="http://localhost:8080/zoo3/v1/" />`,
	} {
		assert.Contains(t, got, want)
	}
	// The messages of the HTTP bindings and of the wrapped operations are left as written.
	assert.Contains(t, got, `<wsdl:message name="BareTwoHttpGetIn">
    <wsdl:part name="word" type="s:string" />`)
	assert.Contains(t, got, `<wsdl:part name="parameters" element="tns:EchoChar" />`)
}

// TestWrapLeavesWrappedContracts: a contract without bare messages is returned as it is.
func TestWrapLeavesWrappedContracts(t *testing.T) {
	data, err := os.ReadFile("../zoo/testdata/renamed/renamed.wsdl")
	require.NoError(t, err)
	defs, err := wsdl.Read(data)
	require.NoError(t, err)
	wrapped, ops, err := bare.Wrap(defs)
	require.NoError(t, err)
	assert.Same(t, defs, wrapped)
	assert.Empty(t, ops)
}

const contract = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types><s:schema targetNamespace="urn:t">%ELEMENTS%</s:schema></types>
  <message name="In">%IN%</message>
  <message name="Out"><part name="r" element="tns:r" /></message>
  <portType name="P"><operation name="Op"><input message="tns:In" /><output message="tns:Out" /></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="Op"><soap:operation soapAction="urn:t/Op" /></operation></binding>
</definitions>
`

// TestWrapRefuses: what the rewrite cannot carry is refused as not supported yet, with its line.
func TestWrapRefuses(t *testing.T) {
	tests := []struct {
		name, elements, in, want string
	}{
		{"a wrapper name already taken", `<s:element name="a" type="s:int" /><s:element name="r" type="s:int" /><s:element name="OpRequest" type="s:int" />`,
			`<part name="a" element="tns:a" />`, "line 3: <message>: the bare message In would be read as the wrapper OpRequest, a name the schema already uses: not supported yet"},
		{"a part of another namespace", `<s:element name="r" type="s:int" />`,
			`<part name="a" element="tns:r" /><part name="b" element="s:int" />`, "line 3: <part>: a bare message part that names no element of the service namespace: not supported yet"},
		{"a part of an anonymous type beside another", `<s:element name="r" type="s:int" /><s:element name="a"><s:complexType /></s:element>`,
			`<part name="a" element="tns:a" /><part name="b" element="tns:r" />`, "line 2: <s:element>: a bare message part whose element has an anonymous type: not supported yet"},
		{"a part element declaring its type's namespace", `<s:element name="r" type="s:int" /><s:element name="a" xmlns:x="urn:t" type="x:T" />`,
			`<part name="a" element="tns:a" />`, "line 2: <s:element>: a bare message part whose element declares the namespace of its own type: not supported yet"},
		{"a bare output beside a wrapped input", `<s:element name="r" type="s:int" /><s:element name="Op"><s:complexType /></s:element>`,
			`<part name="parameters" element="tns:Op" />`, "line 5: <operation>: operation Op has a bare message and a wrapped one (ASMX writes both bare or both wrapped): not supported yet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.NewReplacer("%ELEMENTS%", tt.elements, "%IN%", tt.in).Replace(contract)
			defs, err := wsdl.Read([]byte(doc))
			require.NoError(t, err)
			_, _, err = bare.Wrap(defs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
