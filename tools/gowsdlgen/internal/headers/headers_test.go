package headers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/headers"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// headerWSDL is an ASMX-shaped contract whose one operation, Op(p) → OpResult, may declare the
// headers H and T (complex types with <s:anyAttribute />, as ASMX writes them). The verbs take: more
// schema components (line 12), the SOAP 1.1 binding's input headers and output headers (line 25),
// and the SOAP 1.2 binding's (line 26).
const headerWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types>
    <s:schema targetNamespace="urn:t">
      <s:element name="Op"><s:complexType><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="p" type="s:int" />
      </s:sequence></s:complexType></s:element>
      <s:element name="OpResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="OpResult" type="s:string" /></s:sequence></s:complexType></s:element>
      <s:element name="H" type="tns:H" />
      <s:complexType name="H"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="User" type="s:string" /></s:sequence><s:anyAttribute /></s:complexType>
      <s:element name="T" type="tns:T" />
      <s:complexType name="T"><s:sequence><s:element minOccurs="1" maxOccurs="1" name="Step" type="s:int" /></s:sequence><s:anyAttribute /></s:complexType>
      %s
    </s:schema>
  </types>
  <message name="In"><part name="parameters" element="tns:Op" /></message>
  <message name="Out"><part name="parameters" element="tns:OpResponse" /></message>
  <message name="OpH"><part name="H" element="tns:H" /></message>
  <message name="OpT"><part name="T" element="tns:T" /></message>
  <message name="OpP"><part name="P" element="tns:P" /></message>
  <message name="OpTyped"><part name="X" type="s:string" /></message>
  <message name="OpSec"><part name="S" element="wsse:Security" xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" /></message>
  <message name="OpOp"><part name="Op" element="tns:Op" /></message>
  <portType name="P"><operation name="Op"><input message="tns:In" /><output message="tns:Out" /></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="Op"><soap:operation soapAction="urn:t/Op" />
    <input><soap:body use="literal" />%s</input><output><soap:body use="literal" />%s</output></operation></binding>
  <binding name="B12" type="tns:P"><soap12:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="Op"><soap12:operation soapAction="urn:t/Op" /><input><soap12:body use="literal" />%s</input><output><soap12:body use="literal" />%s</output></operation></binding>
</definitions>
`

func hdr(prefix, message, part string) string {
	return fmt.Sprintf(`<%s:header message="tns:%s" part="%s" use="literal" />`, prefix, message, part)
}

func readHeaderContract(more, in, out string) (*model.Contract, error) {
	return readHeaderContract12(more, in, out, strings.ReplaceAll(in, "<soap:", "<soap12:"), strings.ReplaceAll(out, "<soap:", "<soap12:"))
}

func readHeaderContract12(more, in, out, in12, out12 string) (*model.Contract, error) {
	defs, err := wsdl.Read(fmt.Appendf(nil, headerWSDL, more, in, out, in12, out12))
	if err != nil {
		return nil, err
	}
	c, err := model.Read(defs)
	if err != nil {
		return nil, err
	}
	return c, headers.Read(defs, c)
}

// TestReadHeaders: In in the input, Out in the output, InOut in both; the header type's
// s:anyAttribute is carried (AnyAttribute), not refused.
func TestReadHeaders(t *testing.T) {
	c, err := readHeaderContract("", hdr("soap", "OpH", "H")+hdr("soap", "OpT", "T"), hdr("soap", "OpH", "H"))
	require.NoError(t, err)
	require.Len(t, c.Operations, 1)
	hs := c.Operations[0].Headers
	require.Len(t, hs, 2)
	assert.Equal(t, "H", hs[0].Element)
	assert.Equal(t, model.HeaderInOut, hs[0].Direction)
	assert.Equal(t, "H", hs[0].GoName)
	assert.NotNil(t, hs[0].Type.AnyAttribute)
	assert.Equal(t, "T", hs[1].Element)
	assert.Equal(t, model.HeaderIn, hs[1].Direction)

	c, err = readHeaderContract("", "", hdr("soap", "OpT", "T"))
	require.NoError(t, err)
	require.Len(t, c.Operations[0].Headers, 1)
	assert.Equal(t, model.HeaderOut, c.Operations[0].Headers[0].Direction)

	c, err = readHeaderContract(`<s:element name="P" type="tns:H" />`, hdr("soap", "OpP", "P"), "")
	require.NoError(t, err)
	require.Len(t, c.Operations[0].Headers, 1)
	assert.Equal(t, "PHeader", c.Operations[0].Headers[0].GoName, "a header named like a parameter's field takes the suffix Header")

	c, err = readHeaderContract("", "", "")
	require.NoError(t, err)
	assert.Nil(t, c.Operations[0].Headers, "an operation without headers has none")
}

// TestReadHeadersRefuses: what the generator cannot carry yet is refused with the construct, its
// line and "not supported yet", never ignored.
func TestReadHeadersRefuses(t *testing.T) {
	tests := []struct {
		name                       string
		more, in, out, in12, out12 string
		wantErr                    string
	}{
		{name: "encoded", in: `<soap:header message="tns:OpH" part="H" use="encoded" />`, in12: hdr("soap12", "OpH", "H"),
			wantErr: `line 25: <soap:header>: a soap:header with use="encoded"; ASMX writes use="literal" (operation Op) is not supported yet`},
		{name: "headerfault", in: `<soap:header message="tns:OpH" part="H" use="literal"><soap:headerfault message="tns:OpT" part="T" use="literal" /></soap:header>`,
			in12: hdr("soap12", "OpH", "H"), wantErr: `line 25: <soap:headerfault>: soap:headerfault (operation Op) is not supported yet`},
		{name: "a typed part", in: hdr("soap", "OpTyped", "X"), in12: hdr("soap12", "OpTyped", "X"),
			wantErr: `line 20: <part>: a header part with a type instead of an element (operation Op) is not supported yet`},
		{name: "wsse:Security", in: hdr("soap", "OpSec", "S"), in12: hdr("soap12", "OpSec", "S"),
			wantErr: `line 21: <part>: a soap:header whose element is {wsse}Security; the service reads WS-Security itself, beside the contract's headers (operation Op) is not supported yet`},
		{name: "an element with an anonymous type", more: `<s:element name="P"><s:complexType /></s:element>`, in: hdr("soap", "OpP", "P"), in12: hdr("soap12", "OpP", "P"),
			wantErr: `line 12: <s:element>: a header element without a named complex type; ASMX writes type="tns:P" (operation Op) is not supported yet`},
		{name: "a simple header", more: `<s:element name="P" type="s:string" />`, in: hdr("soap", "OpP", "P"), in12: hdr("soap12", "OpP", "P"),
			wantErr: `line 12: <s:element>: a header element of type string, not a complex type (operation Op) is not supported yet`},
		{name: "twice in the input", in: hdr("soap", "OpH", "H") + hdr("soap", "OpH", "H"), in12: hdr("soap12", "OpH", "H"),
			wantErr: `line 25: <soap:header>: the header H declared twice in the input of operation Op is not supported yet`},
		{name: "bindings disagree", in: hdr("soap", "OpH", "H"), in12: hdr("soap12", "OpT", "T"),
			wantErr: `line 26: <operation>: soap:header elements that differ between the SOAP11 and SOAP12 bindings (operation Op) is not supported yet`},
		{name: "anyAttribute on a body type", more: `<s:complexType name="Q"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="a" type="s:string" /></s:sequence><s:anyAttribute /></s:complexType>` +
			`<s:complexType name="R"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="q" type="tns:Q" /></s:sequence></s:complexType>`,
			wantErr: `line 12: <s:anyAttribute>: s:anyAttribute on the type Q, the type of R.q (it is carried on SOAP header types, where ASMX writes it) is not supported yet`},
		{name: "anyAttribute on a wrapper", more: `<s:element name="W"><s:complexType><s:anyAttribute /></s:complexType></s:element>`,
			wantErr: `line 12: <s:anyAttribute>: s:anyAttribute on the operation wrapper W is not supported yet`},
		{name: "a header type in a body", more: `<s:complexType name="Q"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="h" type="tns:H" /></s:sequence></s:complexType>`,
			in: hdr("soap", "OpH", "H"), in12: hdr("soap12", "OpH", "H"),
			wantErr: `line 9: <s:anyAttribute>: s:anyAttribute of the header type H, which is also the type of Q.h is not supported yet`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readHeaderContract12(tt.more, tt.in, tt.out, tt.in12, tt.out12)
			require.Error(t, err)
			assert.Equal(t, tt.wantErr, err.Error())
		})
	}
}
