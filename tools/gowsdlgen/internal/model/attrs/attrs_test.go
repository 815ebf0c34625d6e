package attrs_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// TestReadAttributes: the model of zoo/attrs's contract (zoo3's Tagged, Money and Note, as ASMX
// writes them, and more) has each type's attributes in declaration order with their types and use,
// the text type of simple content, no elements for simple content, and Go names in each struct's
// scope after its elements'.
func TestReadAttributes(t *testing.T) {
	data, err := os.ReadFile("../../zoo/testdata/attrs/attrs.wsdl")
	require.NoError(t, err)
	defs, err := wsdl.Read(data)
	require.NoError(t, err)
	c, err := model.Read(defs)
	require.NoError(t, err)
	types := map[string]*model.Type{}
	for _, ty := range c.Types {
		types[ty.Name] = ty
	}
	type attr struct {
		Name, GoName, Type, GoType string
		Required                   bool
	}
	describe := func(ty *model.Type) []attr {
		var out []attr
		for _, a := range ty.Attrs {
			out = append(out, attr{a.Name, a.GoName, a.Type.Name, a.GoField().Type, a.Required})
		}
		return out
	}
	tagged := types["Tagged"]
	require.NotNil(t, tagged)
	assert.Equal(t, []attr{{"Code", "Code", "string", "string", false}, {"rev", "Rev", "int", "int32", true},
		{"Access", "Access", "Perm", "Perm", true}, {"When", "When", "dateTime", "*xsd.DateTime", false}, {"Tier", "Tier", "Tier", "*Tier", false}}, describe(tagged))
	assert.Nil(t, tagged.Text)
	assert.Len(t, tagged.Fields, 6)
	money := types["Money"]
	require.NotNil(t, money)
	assert.Equal(t, []attr{{"Currency", "Currency", "string", "string", false}}, describe(money))
	require.NotNil(t, money.Text)
	assert.Equal(t, model.KindDecimal, money.Text.Kind)
	assert.Equal(t, "xsd.Decimal", money.TextGoType())
	assert.Empty(t, money.Fields)
	stamp := types["Stamp"]
	require.NotNil(t, stamp)
	assert.Equal(t, "uint16", stamp.TextGoType())
	assert.Equal(t, []attr{{"Seq", "Seq", "long", "int64", true}, {"Ok", "Ok", "boolean", "*bool", false}}, describe(stamp))
}

// TestReadAttributesInHierarchy: a derived type's own attributes, declared in its complexContent
// extension, are its Attrs; AllAttrs puts its base chain's first (zoo/hierattrs: Item, Tool, the
// abstract Box without elements, and Crate derived from Box).
func TestReadAttributesInHierarchy(t *testing.T) {
	data, err := os.ReadFile("../../zoo/testdata/hierattrs/hierattrs.wsdl")
	require.NoError(t, err)
	defs, err := wsdl.Read(data)
	require.NoError(t, err)
	c, err := model.Read(defs)
	require.NoError(t, err)
	names := func(ty *model.Type, all bool) []string {
		attrs := ty.Attrs
		if all {
			attrs = ty.AllAttrs()
		}
		var out []string
		for _, a := range attrs {
			out = append(out, a.Name)
		}
		return out
	}
	types := map[string]*model.Type{}
	for _, ty := range c.Types {
		types[ty.Name] = ty
	}
	for _, tt := range []struct {
		name     string
		own, all []string
		fields   int
	}{
		{"Item", []string{"Id", "rev"}, []string{"Id", "rev"}, 1},
		{"Tool", []string{"Sharp", "Grade"}, []string{"Id", "rev", "Sharp", "Grade"}, 1},
		{"Box", []string{"Size"}, []string{"Id", "rev", "Size"}, 0},
		{"Crate", []string{"Lid"}, []string{"Id", "rev", "Size", "Lid"}, 1},
	} {
		ty := types[tt.name]
		require.NotNil(t, ty, tt.name)
		assert.Equal(t, tt.own, names(ty, false), tt.name)
		assert.Equal(t, tt.all, names(ty, true), tt.name)
		assert.Len(t, ty.Fields, tt.fields, tt.name)
		assert.True(t, ty.HasAttrs(), tt.name)
	}
	assert.True(t, types["Item"].Polymorphic())
	assert.True(t, types["Box"].Abstract)
}
