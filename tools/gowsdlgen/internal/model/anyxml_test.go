package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// TestOpenTypes: an element with no type is an object, and the anonymous types ASMX writes for
// XmlElement, XmlNode, XmlNode[] and both forms of a DataSet are read into the built-in open types
// (model/anyxml), with the Go types the post-processing gives their fields (shapes README §3, §4).
func TestOpenTypes(t *testing.T) {
	tests := []struct {
		name, element   string
		kind            model.Kind
		typeName, goTyp string
	}{
		{"object", `<xs:element minOccurs="0" name="v" />`, model.KindObject, "anyType", "anytype.Object"},
		{"XmlElement", `<xs:element minOccurs="0" name="v"><xs:complexType><xs:sequence><xs:any /></xs:sequence></xs:complexType></xs:element>`,
			model.KindRawXML, "XmlElement", "xmlany.RawXML"},
		{"XmlNode", `<xs:element minOccurs="0" name="v"><xs:complexType mixed="true"><xs:sequence><xs:any /></xs:sequence></xs:complexType></xs:element>`,
			model.KindRawXML, "XmlNode", "xmlany.RawXML"},
		{"XmlNode[]", `<xs:element minOccurs="0" name="v"><xs:complexType mixed="true"><xs:sequence><xs:any minOccurs="0" maxOccurs="unbounded" /></xs:sequence></xs:complexType></xs:element>`,
			model.KindRawXML, "ArrayOfXmlNode", "xmlany.RawXML"},
		{"DataSet as real contracts write it", `<xs:element minOccurs="0" name="v"><xs:complexType><xs:sequence><xs:element ref="xs:schema" /><xs:any /></xs:sequence></xs:complexType></xs:element>`,
			model.KindDataSet, "DataSet", "*xmlany.DataSet"},
		{"DataSet as zoo3's ASMX wrote it", `<xs:element minOccurs="0" name="v"><xs:complexType><xs:sequence maxOccurs="unbounded">
			<xs:any minOccurs="0" namespace="http://www.w3.org/2001/XMLSchema" processContents="lax" />
			<xs:any minOccurs="0" namespace="urn:schemas-microsoft-com:xml-diffgram-v1" processContents="lax" /></xs:sequence></xs:complexType></xs:element>`,
			model.KindDataSet, "DataSet", "*xmlany.DataSet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := inContract(`<xs:complexType name="C"><xs:sequence>` + tt.element + `</xs:sequence></xs:complexType>
				<xs:element name="Use"><xs:complexType><xs:sequence><xs:element name="c" type="t:C" /></xs:sequence></xs:complexType></xs:element>`)
			defs, err := wsdl.Read(data)
			require.NoError(t, err)
			c, err := model.Read(defs)
			require.NoError(t, err)
			var found *model.Type
			for _, s := range c.Structs {
				if s.Name == "C" {
					found = s
				}
			}
			require.NotNil(t, found)
			f := found.Fields[0]
			assert.Equal(t, tt.kind, f.Type.Kind)
			assert.Equal(t, tt.typeName, f.Type.Name)
			assert.Equal(t, tt.goTyp, model.GoFieldOf(f).Type)
			assert.False(t, f.Type.Simple(), "an open type is not simple")
		})
	}
}

// TestOpenTypesRefused: what of s:any the generator does not carry is refused as not supported yet.
func TestOpenTypesRefused(t *testing.T) {
	tests := []struct{ name, element, want string }{
		{"XmlElement[]", `<xs:element name="v"><xs:complexType><xs:sequence><xs:any maxOccurs="unbounded" /></xs:sequence></xs:complexType></xs:element>`,
			"an unbounded s:any without mixed content (XmlElement[], an [XmlAnyElement] array) is not supported yet"},
		{"a nested class", `<xs:element name="v"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int" /></xs:sequence></xs:complexType></xs:element>`,
			"other than ASMX's XmlElement, XmlNode and DataSet shapes (an [XmlAnyElement] member or a nested class) is not supported yet"},
		{"an array of XmlElement values", `<xs:element name="v" maxOccurs="unbounded"><xs:complexType><xs:sequence><xs:any /></xs:sequence></xs:complexType></xs:element>`,
			"a repeated element of an anonymous type (an array of XmlElement, XmlNode or DataSet values) is not supported yet"},
		{"an s:any of another namespace", `<xs:element name="v"><xs:complexType><xs:sequence><xs:any namespace="urn:x" /></xs:sequence></xs:complexType></xs:element>`,
			`attribute namespace="urn:x" on the s:any of an XmlElement or XmlNode is not supported yet`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defs, err := wsdl.Read(inContract(`<xs:complexType name="C"><xs:sequence>` + tt.element + `</xs:sequence></xs:complexType>`))
			require.NoError(t, err)
			_, err = model.Read(defs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
