package anycodec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/emit"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// checkContract is a contract in which an object is reachable in every way the handler must check
// before writing: a field, a derived type's field behind its base (Any<Base>), an array, a cycle of
// types with the object at its far end, an out parameter and an Out header; and types and an
// operation from which none is.
func checkContract() *model.Contract {
	object := &model.Type{Name: "anyType", Kind: model.KindObject}
	str := &model.Type{Name: "string", Kind: model.KindString}
	field := func(name string, t *model.Type, maxOccurs int) *model.Field {
		return &model.Field{Name: name, GoName: name, Type: t, MaxOccurs: maxOccurs}
	}
	plain := &model.Type{Name: "Plain", GoName: "Plain", Kind: model.KindComplex, Fields: []*model.Field{field("Text", str, 1)}}
	shelf := &model.Type{Name: "Shelf", GoName: "Shelf", Kind: model.KindComplex, Fields: []*model.Field{field("Label", str, 1)}}
	crate := &model.Type{Name: "Crate", GoName: "Crate", Kind: model.KindComplex, Base: shelf, Fields: []*model.Field{field("Content", object, 1)}}
	shelf.Derived = []*model.Type{crate}
	store := &model.Type{Name: "Store", GoName: "Store", Kind: model.KindComplex, Fields: []*model.Field{field("Main", shelf, 1), field("Others", shelf, -1)}}
	objects := &model.Type{Name: "ArrayOfAnyType", GoName: "ArrayOfAnyType", Kind: model.KindArray, Fields: []*model.Field{field("anyType", object, -1)}}
	// A cycle: Ring refers to Link, which refers back to Ring and holds the object after it.
	ring := &model.Type{Name: "Ring", GoName: "Ring", Kind: model.KindComplex}
	link := &model.Type{Name: "Link", GoName: "Link", Kind: model.KindComplex}
	ring.Fields = []*model.Field{field("Next", link, 1)}
	link.Fields = []*model.Field{field("Back", ring, 1), field("Items", objects, 1)}
	tag := &model.Type{Name: "Tag", GoName: "Tag", Kind: model.KindComplex, Fields: []*model.Field{field("Value", object, 1)}}

	wrapper := func(name string, fields ...*model.Field) *model.Type {
		return &model.Type{Name: name, GoName: name, Kind: model.KindComplex, Fields: fields}
	}
	get := &model.Operation{Name: "Get", GoName: "Get", Request: wrapper("Get"),
		Response: wrapper("GetResponse", field("GetResult", plain, 1), field("extra", object, 1))}
	shop := &model.Operation{Name: "Shop", GoName: "Shop", Request: wrapper("Shop", field("store", store, 1)),
		Response: wrapper("ShopResponse", field("ShopResult", ring, 1))}
	tagged := &model.Operation{Name: "Tagged", GoName: "Tagged", Request: wrapper("Tagged"), Response: wrapper("TaggedResponse"),
		Headers: []*model.HeaderPart{{Element: "Tag", Type: tag, Direction: model.HeaderOut, GoName: "Tag"}}}
	plainOp := &model.Operation{Name: "Plain", GoName: "PlainOp", Request: wrapper("PlainOp", field("p", plain, 1)),
		Response: wrapper("PlainOpResponse", field("PlainResult", plain, 1))}
	return &model.Contract{
		Types:      []*model.Type{plain, shelf, crate, store, objects, ring, link, tag},
		Operations: []*model.Operation{get, shop, tagged, plainOp},
	}
}

// method is the source of t's generated CheckObjects in src, "" when there is none.
func method(src, goName string) string {
	start := strings.Index(src, "func (v *"+goName+") CheckObjects() error {")
	if start < 0 {
		return ""
	}
	end := strings.Index(src[start:], "\nreturn nil\n}\n")
	return src[start : start+end]
}

// TestCheckObjects: every type and wrapper from which an object is reachable gets CheckObjects, and
// each walks exactly the fields and headers that reach one, with the check each kind needs; types
// from which none is reachable get none.
func TestCheckObjects(t *testing.T) {
	e := Emitter{Writer: &emit.Writer{}}
	e.checkObjects(checkContract())
	src := string(e.Bytes())
	for _, tt := range []struct {
		goName string
		want   []string // the statements the method has; nil: no method
		not    []string
	}{
		{"Plain", nil, nil},
		{"Shelf", nil, nil},
		{"Crate", []string{"if err := anytype.Writable(v.Content, objectRegistry); err != nil {"}, []string{"v.Label"}},
		{"Store", []string{
			"if h, ok := v.Main.(anytype.ObjectHolder); ok {",
			"for _, item := range v.Others {\nif h, ok := item.(anytype.ObjectHolder); ok {",
		}, nil},
		{"ArrayOfAnyType", []string{"for _, item := range v.anyType {\nif err := anytype.Writable(item, objectRegistry); err != nil {"}, nil},
		{"Ring", []string{"if err := v.Next.CheckObjects(); err != nil {"}, nil},
		{"Link", []string{"if err := v.Back.CheckObjects(); err != nil {", "if err := v.Items.CheckObjects(); err != nil {"}, nil},
		{"Tag", []string{"anytype.Writable(v.Value, objectRegistry)"}, nil},
		{"GetResponse", []string{"anytype.Writable(v.extra, objectRegistry)"}, []string{"GetResult"}},
		{"Get", nil, nil},
		{"Shop", []string{"if err := v.store.CheckObjects(); err != nil {"}, nil},
		{"ShopResponse", []string{"if err := v.ShopResult.CheckObjects(); err != nil {"}, nil},
		{"TaggedResponse", []string{"if err := v.Tag.CheckObjects(); err != nil {"}, nil},
		{"Tagged", nil, nil},
		{"PlainOp", nil, nil},
		{"PlainOpResponse", nil, nil},
	} {
		m := method(src, tt.goName)
		if tt.want == nil {
			assert.Empty(t, m, "%s: no object is reachable", tt.goName)
			continue
		}
		assert.Contains(t, m, "if v == nil { return nil }", tt.goName)
		for _, want := range tt.want {
			assert.Contains(t, m, want, tt.goName)
		}
		for _, not := range tt.not {
			assert.NotContains(t, m, not, tt.goName)
		}
	}
	assert.Equal(t, 1, strings.Count(src, "func (v *Store) CheckObjects()"), "one method per type")

	for _, tt := range []struct {
		op   int
		want string
	}{
		{0, "CheckResult: func(m wire.Message) error { return m.(*GetResponse).CheckObjects() },"},
		{1, "CheckResult: func(m wire.Message) error { return m.(*ShopResponse).CheckObjects() },"},
		{2, "CheckResult: func(m wire.Message) error { return m.(*TaggedResponse).CheckObjects() },"},
		{3, ""},
	} {
		c := checkContract()
		w := Emitter{Writer: &emit.Writer{}}
		w.CheckResult(c.Operations[tt.op])
		assert.Equal(t, tt.want, strings.TrimSpace(string(w.Bytes())), c.Operations[tt.op].Name)
	}
}

// TestObjectTypes: the types an object may hold are the contract's concrete complex types and arrays
// in the contract's order, ArrayOfAnyType and abstract bases aside, as the registry maps them and the
// descriptor lists them; a contract without an object has none.
func TestObjectTypes(t *testing.T) {
	c := checkContract()
	c.Types[1].Abstract = true // Shelf: an abstract base has no value of its own
	var names []string
	for _, ty := range ObjectTypes(c) {
		names = append(names, ty.Name)
	}
	assert.Equal(t, []string{"Plain", "Crate", "Store", "Ring", "Link", "Tag"}, names)

	e := Emitter{Writer: &emit.Writer{}}
	assert.NoError(t, e.Helpers(c))
	for _, name := range names {
		assert.Contains(t, string(e.Bytes()), `"`+name+`": func() anytype.Typed { return new(`+name+`) },`, "the registry maps %s", name)
	}
	assert.NotContains(t, string(e.Bytes()), `"Shelf": func()`, "not the abstract base")

	plain := checkContract().Types[0]
	assert.Nil(t, ObjectTypes(&model.Contract{Types: []*model.Type{plain}}), "a contract without an object")
}
