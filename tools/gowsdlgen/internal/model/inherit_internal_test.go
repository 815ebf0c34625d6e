package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// inheritWSDL holds zoo3's hierarchies (shapes/zoo3.wsdl: Animal with Cat and Dog, the abstract
// Shape with Square and Circle, Kennel with an Animal field and an ArrayOfAnimal), a second level
// (Puppy extends Dog, declared before Dog) and a hierarchy no operation reaches (Plant, Tree).
const inheritWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
  <types>
    <s:schema elementFormDefault="qualified" targetNamespace="urn:t">
      <s:element name="GetKennel"><s:complexType /></s:element>
      <s:element name="GetKennelResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="GetKennelResult" type="tns:Kennel" /></s:sequence></s:complexType></s:element>
      <s:complexType name="Kennel"><s:sequence>
        <s:element minOccurs="0" maxOccurs="1" name="Owner" type="s:string" />
        <s:element minOccurs="0" maxOccurs="1" name="Favorite" type="tns:Animal" />
        <s:element minOccurs="0" maxOccurs="1" name="Animals" type="tns:ArrayOfAnimal" />
      </s:sequence></s:complexType>
      <s:complexType name="ArrayOfAnimal"><s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="Animal" nillable="true" type="tns:Animal" /></s:sequence></s:complexType>
      <s:complexType name="Animal"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="Name" type="s:string" /></s:sequence></s:complexType>
      <s:complexType name="Cat"><s:complexContent mixed="false"><s:extension base="tns:Animal"><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="Indoor" type="s:boolean" /></s:sequence></s:extension></s:complexContent></s:complexType>
      <s:complexType name="Puppy"><s:complexContent mixed="false"><s:extension base="tns:Dog"><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="Age" type="s:int" /></s:sequence></s:extension></s:complexContent></s:complexType>
      <s:complexType name="Dog"><s:complexContent mixed="false"><s:extension base="tns:Animal"><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="Barks" type="s:int" /></s:sequence></s:extension></s:complexContent></s:complexType>
      <s:element name="GetShape"><s:complexType /></s:element>
      <s:element name="GetShapeResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="GetShapeResult" type="tns:Shape" /></s:sequence></s:complexType></s:element>
      <s:complexType name="Shape" abstract="true"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="Label" type="s:string" /></s:sequence></s:complexType>
      <s:complexType name="Square"><s:complexContent mixed="false"><s:extension base="tns:Shape"><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="Side" type="s:double" /></s:sequence></s:extension></s:complexContent></s:complexType>
      <s:complexType name="Circle"><s:complexContent mixed="false"><s:extension base="tns:Shape"><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="Radius" type="s:double" /></s:sequence></s:extension></s:complexContent></s:complexType>
      <s:complexType name="Plant"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="Genus" type="s:string" /></s:sequence></s:complexType>
      <s:complexType name="Tree"><s:complexContent mixed="false"><s:extension base="tns:Plant"><s:sequence>
        <s:element minOccurs="1" maxOccurs="1" name="Height" type="s:double" /></s:sequence></s:extension></s:complexContent></s:complexType>
    </s:schema>
  </types>
  <message name="GetKennelIn"><part name="parameters" element="tns:GetKennel" /></message>
  <message name="GetKennelOut"><part name="parameters" element="tns:GetKennelResponse" /></message>
  <message name="GetShapeIn"><part name="parameters" element="tns:GetShape" /></message>
  <message name="GetShapeOut"><part name="parameters" element="tns:GetShapeResponse" /></message>
  <portType name="P">
    <operation name="GetKennel"><input message="tns:GetKennelIn" /><output message="tns:GetKennelOut" /></operation>
    <operation name="GetShape"><input message="tns:GetShapeIn" /><output message="tns:GetShapeOut" /></operation>
  </portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <operation name="GetKennel"><soap:operation soapAction="urn:t/GetKennel" style="document" /><input><soap:body use="literal" /></input><output><soap:body use="literal" /></output></operation>
    <operation name="GetShape"><soap:operation soapAction="urn:t/GetShape" style="document" /><input><soap:body use="literal" /></input><output><soap:body use="literal" /></output></operation>
  </binding>
</definitions>`

func typeNames(ts []*Type) []string {
	var names []string
	for _, t := range ts {
		names = append(names, t.Name)
	}
	return names
}

func fieldNames(fs []*Field) []string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return names
}

// TestReadInheritance: complexContent extensions are read into Base (own elements in Fields, the base
// chain's first in AllFields), abstract="true" into Abstract, and every base lists the types deriving
// from it, directly or not, in document order; reaching a base reaches every derived type, while a
// hierarchy no operation reaches stays out of Types (it is in Structs, as gowsdl declares it).
func TestReadInheritance(t *testing.T) {
	defs, err := wsdl.Read([]byte(inheritWSDL))
	require.NoError(t, err)
	c, err := Read(defs)
	require.NoError(t, err)
	types := map[string]*Type{}
	for _, ty := range c.Structs {
		types[ty.Name] = ty
	}
	animal, dog, puppy, shape := types["Animal"], types["Dog"], types["Puppy"], types["Shape"]
	require.NotNil(t, animal)
	assert.Nil(t, animal.Base)
	assert.Equal(t, []string{"Cat", "Puppy", "Dog"}, typeNames(animal.Derived), "document order, every level")
	assert.Equal(t, []string{"Puppy"}, typeNames(dog.Derived))
	assert.Same(t, dog, puppy.Base)
	assert.Same(t, animal, dog.Base)
	assert.Equal(t, []string{"Age"}, fieldNames(puppy.Fields))
	assert.Equal(t, []string{"Name", "Barks", "Age"}, fieldNames(puppy.AllFields()))
	assert.True(t, animal.Polymorphic())
	assert.False(t, puppy.Polymorphic())
	assert.True(t, shape.Abstract)
	assert.False(t, types["Square"].Abstract)
	assert.Equal(t, []string{"Square", "Circle"}, typeNames(shape.Derived))
	assert.Equal(t, []string{"Tree"}, typeNames(types["Plant"].Derived))
	for _, ty := range c.Types {
		assert.NotContains(t, []string{"Plant", "Tree"}, ty.Name, "no operation reaches it")
	}
	reached := typeNames(c.Types)
	for _, name := range []string{"Kennel", "Animal", "Cat", "Dog", "Puppy", "Shape", "Square", "Circle"} {
		assert.Contains(t, reached, name)
	}
}

// TestGoFieldOfPolymorphic: an element of a type with derived types is its sealed interface, as
// PostProcess retypes gowsdl's field (no pointer: nil is no value), a slice of it when it repeats; a
// derived type without derived types of its own keeps the pointer.
func TestGoFieldOfPolymorphic(t *testing.T) {
	defs, err := wsdl.Read([]byte(inheritWSDL))
	require.NoError(t, err)
	c, err := Read(defs)
	require.NoError(t, err)
	got := map[string]string{}
	for _, ty := range c.Structs {
		for _, f := range ty.Fields {
			got[ty.Name+"."+f.Name] = GoFieldOf(f).Type
		}
	}
	assert.Equal(t, "AnyAnimal", got["Kennel.Favorite"])
	assert.Equal(t, "[]AnyAnimal", got["ArrayOfAnimal.Animal"])
	assert.Equal(t, "*ArrayOfAnimal", got["Kennel.Animals"])
	require.Len(t, c.Operations, 2)
	assert.Equal(t, "AnyShape", GoFieldOf(c.Operations[1].Response.Fields[0]).Type, "GetShapeResult")
	tree := &Field{Name: "t", Type: c.Structs[len(c.Structs)-1], MaxOccurs: 1}
	assert.Equal(t, "*Tree", GoFieldOf(tree).Type)
}
