package wsdlgen_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdlgen"
)

// subsetWSDL is an ASMX-shaped contract with one operation, Op(p) → OpResult, offered on SOAP 1.1
// and HTTP GET. The verbs take: the type of parameter p (line 6), more schema components (from line
// 9), and the type of the result (line 8).
const subsetWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:s1="http://microsoft.com/wsdl/types/" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types>
    <s:schema targetNamespace="urn:t">
      <s:import namespace="http://microsoft.com/wsdl/types/" />
      <s:element name="Op"><s:complexType><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="p" type="%s" />
      </s:sequence></s:complexType></s:element>
      <s:element name="OpResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="OpResult" type="%s" /></s:sequence></s:complexType></s:element>
      %s
    </s:schema>
    <s:schema targetNamespace="http://microsoft.com/wsdl/types/">
      <s:simpleType name="guid"><s:restriction base="s:string"><s:pattern value="[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}" /></s:restriction></s:simpleType>
    </s:schema>
  </types>
  <message name="In"><part name="parameters" element="tns:Op" /></message>
  <message name="Out"><part name="parameters" element="tns:OpResponse" /></message>
  <message name="GetIn"><part name="p" type="s:string" /></message>
  <message name="GetOut" />
  <portType name="P"><operation name="Op"><input message="tns:In" /><output message="tns:Out" /></operation></portType>
  <portType name="G"><operation name="Op"><input message="tns:GetIn" /><output message="tns:GetOut" /></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="Op"><soap:operation soapAction="urn:t/Op" /></operation></binding>
  <binding name="HB" type="tns:G"><http:binding verb="GET" /><operation name="Op"><http:operation location="/Op" /></operation></binding>
</definitions>
`

// noGowsdl fails the test if generation gets as far as running gowsdl: the contract model must refuse
// the construct first.
func noGowsdl(t *testing.T) func([]byte, string) (map[string][]byte, error) {
	return func([]byte, string) (map[string][]byte, error) {
		t.Error("gowsdl ran although the contract is outside the subset")
		return nil, errors.New("gowsdl must not run")
	}
}

// TestGenerateRefusesOutsideTheSubset: every construct outside the XSD subset an ASMX contract uses
// fails generation with the construct and its line in the WSDL, before gowsdl runs.
func TestGenerateRefusesOutsideTheSubset(t *testing.T) {
	tests := []struct {
		name                string
		param, result, more string
		wantErr             string
	}{
		{"an XSD type outside the subset", "s:anyURI", "s:int", "",
			`line 6: <s:element>: type xsd:anyURI is outside the XSD subset an ASMX contract uses`},
		{"xsd:unsignedInt", "s:int", "s:unsignedInt", "",
			`line 8: <s:element>: type xsd:unsignedInt is outside the XSD subset`},
		{"a Microsoft type other than guid", "s1:char", "s:int", "",
			`line 6: <s:element>: type {http://microsoft.com/wsdl/types/}char is outside the XSD subset an ASMX contract uses (guid is the one Microsoft type supported)`},
		{"an undefined type", "tns:Nope", "s:int", "",
			`line 6: <s:element>: type Nope is not defined in this contract`},
		{"a type of another namespace", "urn:x:T", "s:int", "",
			`is not a QName with a declared prefix`},
		{"complex content (derivation)", "s:int", "tns:D",
			`<s:complexType name="D"><s:complexContent><s:extension base="tns:D" /></s:complexContent></s:complexType>`,
			`line 9: <s:complexContent>: complexContent is outside the XSD subset an ASMX contract uses (sequences of elements only)`},
		{"an attribute", "s:int", "tns:D",
			`<s:complexType name="D"><s:attribute name="a" type="s:int" /></s:complexType>`,
			`line 9: <s:attribute>: attribute is outside the XSD subset`},
		{"a choice", "s:int", "tns:D",
			`<s:complexType name="D"><s:choice><s:element name="a" type="s:int" /></s:choice></s:complexType>`,
			`line 9: <s:choice>: choice is outside the XSD subset`},
		{"xs:any in a sequence", "s:int", "tns:D",
			`<s:complexType name="D"><s:sequence><s:any /></s:sequence></s:complexType>`,
			`line 9: <s:any>: only xs:element is supported inside a sequence`},
		{"occurrence on a sequence", "s:int", "tns:D",
			`<s:complexType name="D"><s:sequence minOccurs="0"><s:element name="a" type="s:int" /></s:sequence></s:complexType>`,
			`line 9: <s:sequence>: occurrence on a sequence is outside the XSD subset`},
		{"minOccurs 2", "s:int", "tns:D",
			`<s:complexType name="D"><s:sequence><s:element minOccurs="2" name="a" type="s:int" /></s:sequence></s:complexType>`,
			`line 9: <s:element>: minOccurs="2": only 0 and 1 are supported`},
		{"maxOccurs 5", "s:int", "tns:D",
			`<s:complexType name="D"><s:sequence><s:element maxOccurs="5" name="a" type="s:int" /></s:sequence></s:complexType>`,
			`line 9: <s:element>: maxOccurs="5": only 1 and unbounded are supported`},
		{"an element reference", "s:int", "tns:D",
			`<s:complexType name="D"><s:sequence><s:element ref="tns:Op" /></s:sequence></s:complexType>`,
			`line 9: <s:element>: element references (ref=) are outside the XSD subset`},
		{"a default value", "s:int", "tns:D",
			`<s:complexType name="D"><s:sequence><s:element name="a" type="s:int" default="1" /></s:sequence></s:complexType>`,
			`line 9: <s:element>: attribute default is outside the XSD subset`},
		{"an anonymous type below the wrappers", "s:int", "tns:D",
			`<s:complexType name="D"><s:sequence><s:element name="a"><s:complexType /></s:element></s:sequence></s:complexType>`,
			`line 9: <s:element>: anonymous types are supported only on operation wrappers`},
		{"a simple type that is not an enumeration", "tns:S", "s:int",
			`<s:simpleType name="S"><s:restriction base="s:int"><s:minInclusive value="0" /></s:restriction></s:simpleType>`,
			`line 9: <s:restriction>: an enumeration must restrict xsd:string`},
		{"a pattern facet", "tns:S", "s:int",
			`<s:simpleType name="S"><s:restriction base="s:string"><s:pattern value="a*" /></s:restriction></s:simpleType>`,
			`line 9: <s:pattern>: only xs:enumeration facets are supported`},
		{"a list type", "tns:S", "s:int",
			`<s:simpleType name="S"><s:list itemType="s:int" /></s:simpleType>`,
			`line 9: <s:simpleType>: only enumerations (a restriction of xsd:string) are supported simple types`},
		{"a global attribute", "s:int", "s:int",
			`<s:attribute name="a" type="s:int" />`,
			`line 9: <s:attribute>: schema component attribute is outside the XSD subset an ASMX contract uses`},
		{"a complex parameter on HTTP GET", "tns:D", "s:int",
			`<s:complexType name="D"><s:sequence><s:element name="a" type="s:int" /></s:sequence></s:complexType>`,
			`line 19: <operation>: operation Op is offered on HTTPGet, but its parameter p is not a simple type; ASMX offers only operations with simple parameters on HTTP GET/POST`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wsdl := fmt.Sprintf(subsetWSDL, tt.param, tt.result, tt.more)
			_, err := wsdlgen.Generate([]byte(wsdl), wsdlgen.Options{Package: "p", Wire: true, Gowsdl: noGowsdl(t)})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

// TestSubsetTypesReachGowsdlAsItCanRead: the view gowsdl runs on has the Microsoft guid as a plain
// xsd:string, without the import gowsdl cannot resolve and without the Microsoft schema.
func TestSubsetTypesReachGowsdlAsItCanRead(t *testing.T) {
	wsdl := fmt.Sprintf(subsetWSDL, "s1:guid", "s:decimal", "")
	view, err := wsdlgen.SOAPView([]byte(wsdl))
	require.NoError(t, err)
	got := string(view.WSDL)
	assert.Contains(t, got, `<s:element minOccurs="1" maxOccurs="1" name="p" type="s:string" />`)
	assert.NotContains(t, got, "microsoft.com/wsdl/types/\" />", "the import goes")
	assert.NotContains(t, got, "guid")
	assert.Equal(t, 1, strings.Count(got, "<s:schema"), "the Microsoft schema goes")
	assert.Contains(t, componentStrings(view.Dropped), "import http://microsoft.com/wsdl/types/")
	assert.Contains(t, componentStrings(view.Dropped), "schema http://microsoft.com/wsdl/types/")

	typed, err := wsdlgen.TypedFields([]byte(wsdl))
	require.NoError(t, err)
	assert.Equal(t, []wsdlgen.TypedField{
		{Field: wsdlgen.Field{Owner: "Op", Path: []string{"p"}}, GoType: "wire.GUID"},
		{Field: wsdlgen.Field{Owner: "OpResponse", Path: []string{"OpResult"}}, GoType: "wire.Decimal"},
	}, typed)
}

// TestGUIDViewUsesAnXSDPrefixInScope: the rewritten QName uses whatever prefix is bound to XML Schema
// where the element is, the default namespace included.
func TestGUIDViewUsesAnXSDPrefixInScope(t *testing.T) {
	wsdl := strings.Replace(fmt.Sprintf(subsetWSDL, "s1:guid", "s:int", ""),
		`<s:element minOccurs="1" maxOccurs="1" name="p" type="s1:guid" />`,
		`<element xmlns="http://www.w3.org/2001/XMLSchema" minOccurs="1" maxOccurs="1" name="p" type='s1:guid' />`, 1)
	view, err := wsdlgen.SOAPView([]byte(wsdl))
	require.NoError(t, err)
	assert.Contains(t, string(view.WSDL), `name="p" type='string' />`, "of the prefixes in scope, the default namespace sorts first")
}
