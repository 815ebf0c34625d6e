package model_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

const contractPath = "../../../../wsdl/contactsync.wsdl"

func readContract(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(contractPath)
	require.NoError(t, err)
	return string(data)
}

func TestRequiredFieldsOfContract(t *testing.T) {
	fields, err := model.RequiredFields([]byte(readContract(t)))
	require.NoError(t, err)
	assert.Equal(t, []model.StructField{
		{Owner: "VersionMajorResponse", Path: []string{"VersionMajorResult"}},
		{Owner: "VersionMinorResponse", Path: []string{"VersionMinorResult"}},
	}, fields)
}

// inContract puts top-level schema components on line 3 of a one-operation SOAP contract whose
// wrappers are empty, so the required fields found are the components' own.
func inContract(components string) []byte {
	return []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t"><xs:element name="Op"><xs:complexType /></xs:element><xs:element name="OpResponse"><xs:complexType /></xs:element>
` + components + `
  </xs:schema></types>
  <message name="In"><part name="parameters" element="t:Op" /></message>
  <message name="Out"><part name="parameters" element="t:OpResponse" /></message>
  <portType name="P"><operation name="Op"><input message="t:In" /><output message="t:Out" /></operation></portType>
  <binding name="B" type="t:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" /><operation name="Op"><soap:operation soapAction="urn:t/Op" /></operation></binding>
</definitions>`)
}

// TestRequiredFields: the required fields are those of the contract model's structs, every
// anonymous-typed top-level element and named complex type, whether an operation reaches it or not,
// as gowsdl emits them all.
func TestRequiredFields(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []model.StructField
	}{
		{
			name: "minOccurs 1 and absent (XML Schema's default is 1) are required, repeated or not; 0 is not",
			schema: `<xs:element name="E"><xs:complexType><xs:sequence>
				<xs:element name="one" minOccurs="1" type="xs:int" />
				<xs:element name="absent" type="xs:int" />
				<xs:element name="many" maxOccurs="unbounded" type="xs:int" />
				<xs:element name="zero" minOccurs="0" type="xs:int" />
			</xs:sequence></xs:complexType></xs:element>`,
			want: []model.StructField{{Owner: "E", Path: []string{"one"}}, {Owner: "E", Path: []string{"absent"}}, {Owner: "E", Path: []string{"many"}}},
		},
		{
			name:   "named complex type",
			schema: `<xs:complexType name="C"><xs:sequence><xs:element name="o" minOccurs="0" type="xs:int" /><xs:element name="r" type="xs:int" /></xs:sequence></xs:complexType>`,
			want:   []model.StructField{{Owner: "C", Path: []string{"r"}}},
		},
		{
			name:   "top-level element with a named type has no struct of its own",
			schema: `<xs:element name="E" type="t:C" /><xs:complexType name="C"><xs:sequence><xs:element name="x" type="xs:int" /></xs:sequence></xs:complexType>`,
			want:   []model.StructField{{Owner: "C", Path: []string{"x"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields, err := model.RequiredFields(inContract(tt.schema))
			require.NoError(t, err)
			assert.Equal(t, tt.want, fields)
		})
	}
}

// TestRequiredFieldsRejects: the constructs that could make a field optional after all (an optional
// or choice group, minOccurs above 1, an all group, a ref, a nested anonymous type, a derivation), or
// that name no field, are outside the XSD subset: the contract model refuses them with their line, so
// the required fields are never derived from them.
func TestRequiredFieldsRejects(t *testing.T) {
	tests := []struct{ name, schema, wantErr string }{
		{"bad minOccurs", `<xs:complexType name="C"><xs:sequence><xs:element name="a" minOccurs="some" type="xs:int" /></xs:sequence></xs:complexType>`,
			`line 3: <xs:element>: minOccurs="some": only 0 and 1 are supported`},
		{"negative minOccurs", `<xs:complexType name="C"><xs:sequence><xs:element name="a" minOccurs="-1" type="xs:int" /></xs:sequence></xs:complexType>`,
			`line 3: <xs:element>: minOccurs="-1": only 0 and 1 are supported`},
		{"minOccurs 2", `<xs:complexType name="C"><xs:sequence><xs:element name="a" minOccurs="2" maxOccurs="unbounded" type="xs:int" /></xs:sequence></xs:complexType>`,
			`line 3: <xs:element>: minOccurs="2": only 0 and 1 are supported`},
		{"optional group", `<xs:complexType name="C"><xs:sequence minOccurs="0"><xs:element name="a" type="xs:int" /></xs:sequence></xs:complexType>`,
			"line 3: <xs:sequence>: occurrence on a sequence is outside the XSD subset"},
		{"choice", `<xs:complexType name="C"><xs:sequence><xs:choice><xs:element name="a" type="xs:int" /><xs:element name="b" type="xs:int" /></xs:choice></xs:sequence></xs:complexType>`,
			"line 3: <xs:choice>: choice (an [XmlChoiceIdentifier] or [XmlElement] choice member) is not supported yet"},
		{"all group", `<xs:complexType name="C"><xs:all><xs:element name="a" type="xs:int" /></xs:all></xs:complexType>`,
			"line 3: <xs:all>: all is outside the XSD subset"},
		{"ref", `<xs:complexType name="C"><xs:sequence><xs:element ref="t:R" /></xs:sequence></xs:complexType><xs:element name="R" type="xs:int" />`,
			"line 3: <xs:element>: an element reference (ref=, which ASMX writes for a DataSet's s:schema) is not supported yet"},
		{"element without name or ref", `<xs:complexType name="C"><xs:sequence><xs:element type="xs:int" /></xs:sequence></xs:complexType>`,
			"line 3: <xs:element>: has neither name nor ref"},
		{"anonymous complex type of a child element", `<xs:element name="E"><xs:complexType><xs:sequence><xs:element name="outer"><xs:complexType><xs:sequence><xs:element name="inner" type="xs:int" /></xs:sequence></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>`,
			"line 3: <xs:sequence>: an anonymous type below the operation wrappers other than ASMX's XmlElement, XmlNode and DataSet shapes (an [XmlAnyElement] member or a nested class) is not supported yet"},
		{"complexContent of an undefined base", `<xs:complexType name="C"><xs:complexContent><xs:extension base="t:B"><xs:sequence><xs:element name="a" type="xs:int" /></xs:sequence></xs:extension></xs:complexContent></xs:complexType>`,
			"line 3: <xs:extension>: the base {urn:t}B of a complexContent extension is not a complex type of this contract"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := model.RequiredFields(inContract(tt.schema))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}
