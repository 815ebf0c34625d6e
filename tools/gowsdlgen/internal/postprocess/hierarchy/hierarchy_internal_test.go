package hierarchy

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// gowsdlHierarchies is what gowsdl v0.5.0 writes for zoo3's hierarchies (shapes/zoo3.wsdl) and a
// second level (Puppy extends Dog): each derived type embeds *Base, each use of a base is *Base.
const gowsdlHierarchies = `package p

type Kennel struct {
	Owner    string         ` + "`xml:\"Owner,omitempty\"`" + `
	Favorite *Animal        ` + "`xml:\"Favorite,omitempty\"`" + `
	Animals  *ArrayOfAnimal ` + "`xml:\"Animals,omitempty\"`" + `
}

type ArrayOfAnimal struct {
	Animal []*Animal ` + "`xml:\"Animal,omitempty\"`" + `
}

type GetShapeResponse struct {
	GetShapeResult *Shape ` + "`xml:\"GetShapeResult,omitempty\"`" + `
	Inline         struct {
		Shapes []*Shape ` + "`xml:\"Shapes,omitempty\"`" + `
	} ` + "`xml:\"Inline\"`" + `
}

type Animal struct {
	Name string ` + "`xml:\"Name,omitempty\"`" + `
}

type Dog struct {
	*Animal

	Barks int32 ` + "`xml:\"Barks,omitempty\"`" + `
}

type Puppy struct {
	*Dog

	Age int32 ` + "`xml:\"Age,omitempty\"`" + `
}

type Cat struct {
	*Animal

	Indoor bool ` + "`xml:\"Indoor,omitempty\"`" + `
}

type Shape struct {
	Label string ` + "`xml:\"Label,omitempty\"`" + `
}

type Circle struct {
	*Shape

	Radius float64 ` + "`xml:\"Radius,omitempty\"`" + `
}
`

// hierarchies is the model of gowsdlHierarchies: Animal (Dog, Puppy, Cat), Dog (Puppy), and the
// abstract Shape (Circle).
func hierarchies() *model.Contract {
	animal := &model.Type{Name: "Animal", GoName: "Animal", Kind: model.KindComplex}
	dog := &model.Type{Name: "Dog", GoName: "Dog", Kind: model.KindComplex, Base: animal}
	puppy := &model.Type{Name: "Puppy", GoName: "Puppy", Kind: model.KindComplex, Base: dog}
	cat := &model.Type{Name: "Cat", GoName: "Cat", Kind: model.KindComplex, Base: animal}
	shape := &model.Type{Name: "Shape", GoName: "Shape", Kind: model.KindComplex, Abstract: true}
	circle := &model.Type{Name: "Circle", GoName: "Circle", Kind: model.KindComplex, Base: shape}
	animal.Derived = []*model.Type{dog, puppy, cat}
	dog.Derived = []*model.Type{puppy}
	shape.Derived = []*model.Type{circle}
	kennel := &model.Type{Name: "Kennel", GoName: "Kennel", Kind: model.KindComplex}
	return &model.Contract{Structs: []*model.Type{kennel, animal, dog, puppy, cat, shape, circle}}
}

// postprocessed runs the inheritance step on src, as PostProcess does.
func postprocessed(t *testing.T, src string, c *model.Contract) (string, error) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "generated.go", src, parser.ParseComments)
	require.NoError(t, err)
	if err := Replace(f, c); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	require.NoError(t, format.Node(&buf, fset, f))
	out, err := format.Source(append(buf.Bytes(), SealedDecls(c)...))
	require.NoError(t, err)
	return string(out), nil
}

// TestPolymorphicDeclarations: a derived type embeds its base by value; every use of a base with
// derived types, in a field, an array and an inline struct, has its sealed interface type; the
// interface is satisfied by exactly the concrete types of the hierarchy (not by an abstract base, by
// every level below a base), which the type checker confirms; each type names its XSD type.
func TestPolymorphicDeclarations(t *testing.T) {
	out, err := postprocessed(t, gowsdlHierarchies, hierarchies())
	require.NoError(t, err)
	for _, want := range []string{
		"Favorite AnyAnimal ", "Animal []AnyAnimal ", "GetShapeResult AnyShape ", "Shapes []AnyShape ",
		"type Dog struct {\n\tAnimal\n", "type Puppy struct {\n\tDog\n", "type Circle struct {\n\tShape\n",
		"Animals  *ArrayOfAnimal", // not a base
		"type AnyAnimal interface {", "type AnyDog interface {", "type AnyShape interface {",
		"func (*Circle) isAnyShape() {}", "func (*Puppy) XSDType() string { return \"Puppy\" }",
		"// AnyShape holds a type derived from the abstract Shape (Circle); nil is no value.",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "func (*Shape) isAnyShape()", "an abstract base is no value of its own")
	assert.NotContains(t, out, "func (*Dog) isAnyAnimal()", "promoted from Animal")

	check := out + `
var (
	_ AnyAnimal = &Animal{}
	_ AnyAnimal = &Dog{}
	_ AnyAnimal = &Puppy{}
	_ AnyAnimal = &Cat{}
	_ AnyDog    = &Puppy{}
	_ AnyShape  = &Circle{}
	_           = (&Puppy{}).Name
	_           = (&Puppy{}).AnimalBase().Name
)
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", check, 0)
	require.NoError(t, err)
	info := &types.Info{}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err, out)
	for _, c := range []struct {
		typ, iface string
		want       bool
	}{
		{"Shape", "AnyShape", false}, {"Cat", "AnyDog", false}, {"Animal", "AnyDog", false}, {"Circle", "AnyAnimal", false},
		{"Dog", "AnyDog", true}, {"Puppy", "AnyAnimal", true},
	} {
		typ := types.NewPointer(pkg.Scope().Lookup(c.typ).Type())
		iface := pkg.Scope().Lookup(c.iface).Type().Underlying().(*types.Interface)
		assert.Equal(t, c.want, types.Implements(typ, iface), "*%s implements %s", c.typ, c.iface)
	}
}

// TestPolymorphicNothingToDo: a contract without derived types is left exactly as gowsdl wrote it.
func TestPolymorphicNothingToDo(t *testing.T) {
	c := &model.Contract{Structs: []*model.Type{{Name: "Animal", GoName: "Animal", Kind: model.KindComplex}}}
	src, err := format.Source([]byte("package p\n\ntype Animal struct {\n\tName string `xml:\"Name\"`\n}\n\ntype Kennel struct {\n\tFavorite *Animal `xml:\"Favorite\"`\n}\n"))
	require.NoError(t, err)
	out, err := postprocessed(t, string(src), c)
	require.NoError(t, err)
	assert.Equal(t, string(src), out)
}

// TestPolymorphicRefusesStrayEmbedding: gowsdl embeds a struct only for a derived type's base;
// anything else embedded means the model and gowsdl's output disagree.
func TestPolymorphicRefusesStrayEmbedding(t *testing.T) {
	c := hierarchies()
	_, err := postprocessed(t, gowsdlHierarchies+"\ntype Kennel2 struct {\n\t*Animal\n}\n", c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "type Kennel2: embedded field *Animal: only a derived type embeds its base")
	_, err = postprocessed(t, gowsdlHierarchies+"\ntype Pony struct {\n\t*Cat\n}\n", c)
	assert.Error(t, err)
}
