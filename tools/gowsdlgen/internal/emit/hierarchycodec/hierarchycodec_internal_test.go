package hierarchycodec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// TestHierarchiesCoverEveryHolder: the writers of a hierarchy have a case for every Go type its
// interface can hold, an abstract type in the middle (which gets the seal promoted from its concrete
// base) included, so no value is dropped; the reader decodes only concrete types and refuses the
// abstract ones.
func TestHierarchiesCoverEveryHolder(t *testing.T) {
	animal := &model.Type{Name: "Animal", GoName: "Animal", Kind: model.KindComplex}
	dog := &model.Type{Name: "Dog", GoName: "Dog", Kind: model.KindComplex, Base: animal, Abstract: true}
	puppy := &model.Type{Name: "Puppy", GoName: "Puppy", Kind: model.KindComplex, Base: dog}
	animal.Derived, dog.Derived = []*model.Type{dog, puppy}, []*model.Type{puppy}
	plain := &model.Type{Name: "Plain", GoName: "Plain", Kind: model.KindComplex}
	e := Emitter{Writer: &emit.Writer{}}
	e.Hierarchies([]*model.Type{plain, animal, dog, puppy})
	src := string(e.Bytes())
	appendAnimal := src[strings.Index(src, "func appendAnimalAny("):strings.Index(src, "func decodeAnimalAny(")]
	for _, want := range []string{"case *Animal:", "case *Dog:\nreturn appendTyped(b, name, \"Dog\", x)", "case *Puppy:"} {
		assert.Contains(t, appendAnimal, want)
	}
	decodeAnimal := src[strings.Index(src, "func decodeAnimalAny("):strings.Index(src, "func appendJSONAnimalAny(")]
	assert.NotContains(t, decodeAnimal, "new(Dog)", "an abstract type is never read")
	assert.Contains(t, decodeAnimal, "new(Puppy)")
	assert.Contains(t, src, "var hierarchyDog = &xmlany.Hierarchy{Declared: \"Dog\", Abstract: true, Derived: []string{\"Puppy\"}}")
	assert.NotContains(t, src, "hierarchyPlain", "a type without derived types pays nothing")
	assert.NotContains(t, src, "hierarchyPuppy")
}
