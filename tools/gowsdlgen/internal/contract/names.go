package contract

import (
	"slices"
	"strconv"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/names"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// fixedGoNames are the package-level identifiers the wire code always declares; a schema type is
// never given one of them.
var fixedGoNames = []string{"Operations", "Contract", "Bind"}

// NameAll gives every type, field, operation and the portType its Go name (names.Go: gowsdl's name
// where that is an exported identifier, so today's contracts keep theirs, else names.Export's), each
// unique in its scope: one for the package (the fixed identifiers, the portType's, then the types in
// gowsdl's declaration order), one per struct (its fields), one for the operations' methods. A later
// name that collides (XML names differing only in case) gets "_2", "_3", ….
//
// c.Declared must be set (Declared); all are every type the model has read, builtins included.
func (c *Contract) NameAll(all []*Type) {
	var pkg names.Scope
	for _, n := range fixedGoNames {
		pkg.Reserve(n)
	}
	c.PortTypeGoName = pkg.Reserve(names.Go(c.PortType, names.GowsdlMethod(c.PortType)))
	for _, n := range []string{c.PortTypeGoName + "Server", c.PortTypeGoName + "Client", "Unimplemented" + c.PortTypeGoName + "Server", "New" + c.PortTypeGoName} {
		pkg.Reserve(n)
	}

	for _, t := range c.Declared {
		t.GoName = pkg.Reserve(names.Go(t.Name, names.GowsdlType(t.Name)))
	}
	// A wrapper of another namespace (foreignWrapper) is not among the declared types; gowsdl
	// declares it under its element's name.
	var foreign []*Type
	for _, op := range c.Operations {
		for _, t := range []*Type{op.Request, op.Response} {
			if t != nil && t.GoName == "" {
				t.GoName = pkg.Reserve(names.Go(t.Name, names.GowsdlType(t.Name)))
				foreign = append(foreign, t)
			}
		}
	}
	for _, t := range all {
		if t.GoName == "" { // a builtin
			t.GoName = names.GowsdlType(t.Name)
		}
	}
	for _, t := range append(slices.Clip(c.Declared), foreign...) {
		var fields names.Scope
		fields.Reserve("XMLName") // gowsdl's, on wrappers and on types an element of another name refers to
		for _, f := range t.Fields {
			f.GoName = fields.Reserve(names.Go(f.Name, GowsdlField(f.Name)))
		}
		for _, a := range t.Attrs {
			a.GoName = fields.Reserve(names.Go(a.Name, GowsdlField(a.Name)))
		}
		if t.Text != nil {
			fields.Reserve(TextGoName)
		}
	}

	var methods names.Scope
	for _, op := range c.Operations {
		base := names.Go(op.Name, names.GowsdlMethod(op.Name))
		name := base
		for i := 2; methods.Taken(name) || methods.Taken(name+"Context"); i++ {
			name = base + "_" + strconv.Itoa(i)
		}
		methods.Reserve(name)
		methods.Reserve(name + "Context")
		op.GoName = name
	}
}

// GowsdlField is the name gowsdl v0.5.0 gives the Go field of an element named name, as PostProcess
// leaves it: replaceAttrReservedWords (a keyword gets "_", "string" becomes "astring") made public;
// PostProcess exports what makePublic leaves lower-case ("int").
func GowsdlField(name string) string {
	if name == "string" {
		name = "astring"
	}
	return names.GowsdlType(name)
}

// Declared returns the types gowsdl declares of those the model has read (structs, and the
// enumerations among all), in gowsdl's order: per schema of schemas, its simple types, then its
// elements with an anonymous complex type, then its complex types, each in document order.
func Declared(structs, all []*Type, schemas []*wsdl.Node) []*Type {
	seen := map[*Type]bool{}
	var out []*Type
	add := func(t *Type) {
		if t != nil && t.Node != nil && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, t := range structs {
		add(t)
	}
	for _, t := range all {
		if t.Kind == KindEnum || t.Kind == KindFlags {
			add(t)
		}
	}
	schemaOf := func(n *wsdl.Node) int {
		for i, s := range schemas {
			if s.Contains(n) {
				return i
			}
		}
		return -1
	}
	category := map[string]int{"simpleType": 0, "element": 1, "complexType": 2}
	slices.SortStableFunc(out, func(a, b *Type) int {
		if d := schemaOf(a.Node) - schemaOf(b.Node); d != 0 {
			return d
		}
		if d := category[a.Node.Name.Local] - category[b.Node.Name.Local]; d != 0 {
			return d
		}
		return a.Node.Start - b.Node.Start
	})
	return out
}
