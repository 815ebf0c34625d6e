package wsdl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// TestViewGivesFlagsAsUnsignedLong: the SOAP-only view gives gowsdl a [Flags] enumeration (a named
// simple type holding an xs:list, zoo3's Perm) as a restriction of xsd:unsignedLong, under the
// prefix bound to XML Schema there, so gowsdl declares `type Perm uint64`; an enumeration is kept.
func TestViewGivesFlagsAsUnsignedLong(t *testing.T) {
	doc := `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types>
    <xs:schema targetNamespace="urn:t">
      <xs:element name="Op"><xs:complexType><xs:sequence><xs:element minOccurs="1" maxOccurs="1" name="p" type="tns:Perm" /><xs:element minOccurs="1" maxOccurs="1" name="t" type="tns:Tier" /></xs:sequence></xs:complexType></xs:element>
      <xs:simpleType name="Perm">
        <xs:list>
          <xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value="None" /><xs:enumeration value="Read" /></xs:restriction></xs:simpleType>
        </xs:list>
      </xs:simpleType>
      <xs:simpleType name="Tier"><xs:restriction base="xs:string"><xs:enumeration value="Gold" /></xs:restriction></xs:simpleType>
    </xs:schema>
  </types>
  <message name="In"><part name="parameters" element="tns:Op" /></message>
  <portType name="P"><operation name="Op"><input message="tns:In" /></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="Op"><soap:operation soapAction="urn:t/Op" /></operation></binding>
</definitions>
`
	defs, err := wsdl.Read([]byte(doc))
	require.NoError(t, err)
	view, _, err := defs.View()
	require.NoError(t, err)
	assert.Contains(t, string(view.WSDL), `<xs:simpleType name="Perm">
        <xs:restriction base="xs:unsignedLong" />
      </xs:simpleType>`)
	assert.NotContains(t, string(view.WSDL), "xs:list")
	assert.Contains(t, string(view.WSDL), `<xs:simpleType name="Tier"><xs:restriction base="xs:string"><xs:enumeration value="Gold" />`)
}
