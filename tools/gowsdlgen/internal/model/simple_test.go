package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// smallsWSDL offers one operation whose parameters are the small and unsigned types and ASMX's char,
// on SOAP and GET, as ASMX writes them (shapes/zoo3.wsdl: Unsigned, EchoChar).
const smallsWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:s1="http://microsoft.com/wsdl/types/" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types>
    <s:schema targetNamespace="urn:t">
      <s:import namespace="http://microsoft.com/wsdl/types/" />
      <s:element name="Op"><s:complexType><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="sb" type="s:byte" />
        <s:element minOccurs="1" maxOccurs="1" name="b" type="s:unsignedByte" />
        <s:element minOccurs="1" maxOccurs="1" name="us" type="s:unsignedShort" />
        <s:element minOccurs="1" maxOccurs="1" name="ui" type="s:unsignedInt" />
        <s:element minOccurs="1" maxOccurs="1" name="ul" type="s:unsignedLong" />
        <s:element minOccurs="1" maxOccurs="1" name="c" type="s1:char" />
      </s:sequence></s:complexType></s:element>
      <s:element name="OpResponse"><s:complexType><s:sequence><s:element minOccurs="1" maxOccurs="1" name="OpResult" type="s1:char" /></s:sequence></s:complexType></s:element>
    </s:schema>
    <s:schema targetNamespace="http://microsoft.com/wsdl/types/">
      <s:simpleType name="char"><s:restriction base="s:unsignedShort" /></s:simpleType>
    </s:schema>
  </types>
  <message name="In"><part name="parameters" element="tns:Op" /></message>
  <message name="Out"><part name="parameters" element="tns:OpResponse" /></message>
  <message name="GetIn"><part name="sb" type="s:string" /><part name="b" type="s:string" /><part name="us" type="s:string" /><part name="ui" type="s:string" /><part name="ul" type="s:string" /><part name="c" type="s:string" /></message>
  <message name="GetOut"><part name="Body" element="tns:char" /></message>
  <portType name="P"><operation name="Op"><input message="tns:In" /><output message="tns:Out" /></operation></portType>
  <portType name="G"><operation name="Op"><input message="tns:GetIn" /><output message="tns:GetOut" /></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="Op"><soap:operation soapAction="urn:t/Op" /></operation></binding>
  <binding name="HB" type="tns:G"><http:binding verb="GET" /><operation name="Op"><http:operation location="/Op" /></operation></binding>
</definitions>
`

// TestReadSmallTypes: xsd:byte, the unsigned types and {ms}char are read as their kinds, with the Go
// types of generator-model §3.8 (gowsdl's own, char the runtime's xsd.Char, which TypedFields asks
// PostProcess for), offered on GET as simple parameters.
func TestReadSmallTypes(t *testing.T) {
	c, err := readModel(t, []byte(smallsWSDL))
	require.NoError(t, err)
	require.Len(t, c.Operations, 1)
	op := c.Operations[0]
	want := []struct {
		name   string
		kind   model.Kind
		goType string
		bits   int
	}{
		{"sb", model.KindByte, "int8", 8},
		{"b", model.KindUnsignedByte, "byte", 8},
		{"us", model.KindUnsignedShort, "uint16", 16},
		{"ui", model.KindUnsignedInt, "uint32", 32},
		{"ul", model.KindUnsignedLong, "uint64", 64},
		{"c", model.KindChar, "xsd.Char", 16},
	}
	require.Len(t, op.Request.Fields, len(want))
	for i, w := range want {
		f := op.Request.Fields[i]
		assert.Equal(t, w.name, f.Name)
		assert.Equal(t, w.kind, f.Type.Kind, w.name)
		assert.True(t, f.Type.Simple(), w.name)
		assert.Equal(t, w.goType, model.GoFieldOf(f).Type, w.name)
		bits, unsigned := emit.IntBits(w.kind)
		assert.Equal(t, w.bits, bits, w.name)
		assert.Equal(t, w.kind != model.KindByte, unsigned, w.name)
		assert.Equal(t, w.kind != model.KindByte && w.kind != model.KindChar, emit.Unsigned(w.kind), w.name)
	}
	assert.Equal(t, model.KindChar, op.Response.Fields[0].Type.Kind)
	require.Len(t, op.HTTPParams, len(want), "every small type is offered on GET as one value")
	for _, p := range op.HTTPParams {
		assert.Nil(t, p.Item, p.Field.Name)
	}

	_, typed := c.FieldsToFix(nil)
	var chars []string
	for _, tf := range typed {
		if tf.GoType == "xsd.Char" {
			chars = append(chars, strings.Join(append([]string{tf.Owner}, tf.Path...), "."))
		}
	}
	assert.Equal(t, []string{"Op.c", "OpResponse.OpResult"}, chars, "a char is retyped to the runtime's xsd.Char")
}

// TestReadSmallTypesRefusals: a Microsoft type other than guid and char is still refused, naming it.
func TestReadSmallTypesRefusals(t *testing.T) {
	doc := strings.Replace(smallsWSDL, `name="c" type="s1:char"`, `name="c" type="s1:other"`, 1)
	_, err := readModel(t, []byte(doc))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "type {http://microsoft.com/wsdl/types/}other (guid and char are the Microsoft types carried) is not supported yet")
}

// bytesWSDL is Zoo3.cs's EchoBytes(byte[] data) as ASMX describes it: base64Binary on SOAP, an
// AbstractTypes array part on GET (shapes/zoo3.wsdl).
const bytesWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s2="urn:t/AbstractTypes" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t/" targetNamespace="urn:t/">
  <types>
    <s:schema targetNamespace="urn:t/">
      <s:element name="EchoBytes"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="data" type="s:base64Binary" /></s:sequence></s:complexType></s:element>
      <s:element name="EchoBytesResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="EchoBytesResult" type="s:base64Binary" /></s:sequence></s:complexType></s:element>
      <s:element name="base64Binary" nillable="true" type="s:base64Binary" />
    </s:schema>
    <s:schema targetNamespace="urn:t/AbstractTypes">
      <s:import namespace="http://schemas.xmlsoap.org/soap/encoding/" />
      <s:complexType name="StringArray"><s:complexContent mixed="false"><s:restriction base="soapenc:Array"><s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="String" type="s:string" /></s:sequence></s:restriction></s:complexContent></s:complexType>
    </s:schema>
  </types>
  <message name="In"><part name="parameters" element="tns:EchoBytes" /></message>
  <message name="Out"><part name="parameters" element="tns:EchoBytesResponse" /></message>
  <message name="GetIn"><part name="data" type="s2:StringArray" /></message>
  <message name="GetOut"><part name="Body" element="tns:base64Binary" /></message>
  <portType name="P"><operation name="EchoBytes"><input message="tns:In" /><output message="tns:Out" /></operation></portType>
  <portType name="G"><operation name="EchoBytes"><input message="tns:GetIn" /><output message="tns:GetOut" /></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="EchoBytes"><soap:operation soapAction="urn:t/EchoBytes" /></operation></binding>
  <binding name="HB" type="tns:G"><http:binding verb="GET" /><operation name="EchoBytes"><http:operation location="/EchoBytes" /></operation></binding>
</definitions>
`

// TestReadByteArrayOnHTTP: a byte[] parameter whose GET part is the AbstractTypes array is offered as
// ASMX offers it, one decimal number per byte (HTTPParam.Bytes), not refused; typed s:string, it stays
// one base64 value as before.
func TestReadByteArrayOnHTTP(t *testing.T) {
	for _, tt := range []struct {
		name, part string
		bytes      bool
	}{
		{"an AbstractTypes array part (as ASMX writes it)", `type="s2:StringArray"`, true},
		{"an s:string part", `type="s:string"`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.Replace(bytesWSDL, `<part name="data" type="s2:StringArray" />`, `<part name="data" `+tt.part+` />`, 1)
			c, err := readModel(t, []byte(doc))
			require.NoError(t, err)
			require.Len(t, c.Operations, 1)
			params := c.Operations[0].HTTPParams
			require.Len(t, params, 1)
			assert.Equal(t, model.KindBase64, params[0].Field.Type.Kind)
			assert.Nil(t, params[0].Item)
			assert.Equal(t, tt.bytes, params[0].Bytes)
		})
	}
}

// flagsWSDL is Zoo3.cs's EchoPerm(Perm p) with its [Flags] Perm (shapes/zoo3.wsdl), %s the members.
const flagsWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types>
    <s:schema targetNamespace="urn:t">
      <s:element name="EchoPerm"><s:complexType><s:sequence><s:element minOccurs="1" maxOccurs="1" name="p" type="tns:Perm" /></s:sequence></s:complexType></s:element>
      <s:simpleType name="Perm">
        <s:list>
          <s:simpleType>
            <s:restriction base="s:string">%s</s:restriction>
          </s:simpleType>
        </s:list>
      </s:simpleType>
      <s:element name="EchoPermResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="EchoPermResult" type="tns:Perm" /></s:sequence></s:complexType></s:element>
    </s:schema>
  </types>
  <message name="In"><part name="parameters" element="tns:EchoPerm" /></message>
  <message name="Out"><part name="parameters" element="tns:EchoPermResponse" /></message>
  <portType name="P"><operation name="EchoPerm"><input message="tns:In" /><output message="tns:Out" /></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="EchoPerm"><soap:operation soapAction="urn:t/EchoPerm" /></operation></binding>
</definitions>
`

func flagMembers(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(`<s:enumeration value="` + n + `" />`)
	}
	return b.String()
}

// TestReadFlags: a named simple type holding an xs:list of an anonymous enumeration is a [Flags]
// enumeration with its members in declaration order, declared (gowsdl names it), a value type when
// required (as an enum: Deref) and a pointer when optional; 64 members besides None are the most
// a uint64 holds.
func TestReadFlags(t *testing.T) {
	doc := fmt.Sprintf(flagsWSDL, flagMembers("None", "Read", "Write", "Execute"))
	c, err := readModel(t, []byte(doc))
	require.NoError(t, err)
	op := c.Operations[0]
	perm := op.Request.Fields[0].Type
	assert.Equal(t, model.KindFlags, perm.Kind)
	assert.Equal(t, []string{"None", "Read", "Write", "Execute"}, perm.Enum)
	assert.Equal(t, "Perm", perm.GoName)
	assert.Contains(t, c.Declared, perm)
	assert.Equal(t, "Perm", model.GoFieldOf(op.Request.Fields[0]).Type, "required: the value")
	assert.Equal(t, "*Perm", model.GoFieldOf(op.Response.Fields[0]).Type, "optional: a pointer, as gowsdl writes it")
	_, typed := c.FieldsToFix(nil)
	require.Len(t, typed, 1)
	assert.Equal(t, []string{"p"}, typed[0].Path)
	assert.True(t, typed[0].Deref)

	many := make([]string, 65)
	for i := range many {
		many[i] = fmt.Sprintf("M%d", i)
	}
	_, err = readModel(t, []byte(fmt.Sprintf(flagsWSDL, flagMembers(append([]string{"None"}, many[:64]...)...))))
	require.NoError(t, err, "64 bits besides None")
	_, err = readModel(t, []byte(fmt.Sprintf(flagsWSDL, flagMembers(many...))))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a [Flags] enumeration needs 1 to 64 members besides None (one bit each); this one has 65")
}
