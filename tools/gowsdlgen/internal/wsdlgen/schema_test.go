package wsdlgen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdlgen"
)

func TestRequiredFieldsOfContract(t *testing.T) {
	fields, err := wsdlgen.RequiredFields([]byte(readContract(t)))
	require.NoError(t, err)
	assert.Equal(t, []wsdlgen.Field{
		{Owner: "VersionMajorResponse", Path: []string{"VersionMajorResult"}},
		{Owner: "VersionMinorResponse", Path: []string{"VersionMinorResult"}},
	}, fields)
}

// inSchema wraps top-level schema components in a minimal WSDL document.
func inSchema(components string) []byte {
	return []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t">` + components + `</xs:schema></types>
</definitions>`)
}

func TestRequiredFields(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []wsdlgen.Field
	}{
		{
			name: "minOccurs 1, absent (XML Schema's default is 1) and 2 are required; 0 is not",
			schema: `<xs:element name="E"><xs:complexType><xs:sequence>
				<xs:element name="one" minOccurs="1" type="xs:int" />
				<xs:element name="absent" type="xs:int" />
				<xs:element name="two" minOccurs="2" maxOccurs="unbounded" type="xs:int" />
				<xs:element name="zero" minOccurs="0" type="xs:int" />
			</xs:sequence></xs:complexType></xs:element>`,
			want: []wsdlgen.Field{{"E", []string{"one"}}, {"E", []string{"absent"}}, {"E", []string{"two"}}},
		},
		{
			name: "named complex type, all group and ref",
			schema: `<xs:complexType name="C"><xs:all><xs:element ref="t:R" /><xs:element name="o" minOccurs="0" type="xs:int" /></xs:all></xs:complexType>
				<xs:element name="R" type="xs:int" />`,
			want: []wsdlgen.Field{{"C", []string{"R"}}},
		},
		{
			name: "optional group",
			schema: `<xs:complexType name="C"><xs:sequence minOccurs="0">
				<xs:element name="a" type="xs:int" />
				<xs:sequence><xs:element name="b" type="xs:int" /></xs:sequence>
			</xs:sequence></xs:complexType>`,
		},
		{
			name: "choice: one of several alternatives is never required, a lone one is",
			schema: `<xs:complexType name="C"><xs:sequence>
				<xs:choice><xs:element name="a" type="xs:int" /><xs:element name="b" type="xs:int" /></xs:choice>
				<xs:choice><xs:element name="only" type="xs:int" /></xs:choice>
			</xs:sequence></xs:complexType>`,
			want: []wsdlgen.Field{{"C", []string{"only"}}},
		},
		{
			name: "anonymous complex type of a child element, and complexContent",
			schema: `<xs:complexType name="C"><xs:complexContent><xs:extension base="t:Base"><xs:sequence>
				<xs:element name="outer" minOccurs="0"><xs:complexType><xs:sequence>
					<xs:element name="inner" type="xs:int" />
					<xs:element name="loose" minOccurs="0" type="xs:int" />
				</xs:sequence></xs:complexType></xs:element>
			</xs:sequence></xs:extension></xs:complexContent></xs:complexType>`,
			want: []wsdlgen.Field{{"C", []string{"outer", "inner"}}},
		},
		{
			name:   "top-level element with a named type has no struct of its own",
			schema: `<xs:element name="E" type="t:C" /><xs:complexType name="C"><xs:sequence><xs:element name="x" type="xs:int" /></xs:sequence></xs:complexType>`,
			want:   []wsdlgen.Field{{"C", []string{"x"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields, err := wsdlgen.RequiredFields(inSchema(tt.schema))
			require.NoError(t, err)
			assert.Equal(t, tt.want, fields)
		})
	}
}

func TestRequiredFieldsRejects(t *testing.T) {
	tests := []struct{ name, schema, wantErr string }{
		{"bad minOccurs", `<xs:complexType name="C"><xs:sequence><xs:element name="a" minOccurs="some" /></xs:sequence></xs:complexType>`, `minOccurs="some"`},
		{"negative minOccurs", `<xs:complexType name="C"><xs:sequence minOccurs="-1" /></xs:complexType>`, `minOccurs="-1"`},
		{"element without name or ref", `<xs:complexType name="C"><xs:sequence><xs:element type="xs:int" /></xs:sequence></xs:complexType>`, "neither name nor ref"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := wsdlgen.RequiredFields(inSchema(tt.schema))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}
