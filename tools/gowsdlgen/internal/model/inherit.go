package model

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/extension"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model/attrs"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"
)

// Inheritance (design §2, §3.7): a derived type keeps its own elements in Fields and its base in
// Base; a base lists every type deriving from it, directly or not, in Derived (document order); a
// reached base reaches its derived types, since a value of any of them may stand where it is declared.

// content reads a named complex type's content: a sequence, or a complexContent extension of another
// complex type of the contract (t.Base) and its own sequence; attributes and simple content are attrs',
// a derived type's own attributes included.
func (m *modeler) content(t *Type, ct *wsdl.Node) ([]*Field, error) {
	t.Abstract = extension.Abstract(ct)
	ct, ext, q, ok, err := attrs.Of(m.data, ct, t, m.typeOf)
	if err != nil || !ok {
		if err == nil && t.Text == nil { // simple content has no sequence
			return m.sequence(ct)
		}
		return nil, err
	}
	if q.Space != m.defs.TNS || m.complexTypes[q.Local] == nil {
		return nil, modelError(m.data, ext, "the base {%s}%s of a complexContent extension is not a complex type of this contract", q.Space, q.Local)
	}
	base, err := m.named(ext, q.Local)
	if err != nil {
		return nil, err
	}
	for b := base; b != nil; b = b.Base {
		if b == t {
			return nil, modelError(m.data, ext, "type %s derives from itself", t.Name)
		}
	}
	if base.Kind != KindComplex {
		return nil, modelError(m.data, ext, "type %s extends %s, which is not a complex type with a sequence (an array)", t.Name, base.Name)
	}
	t.Base = base
	return attrs.InHierarchy(m.data, ext, t, m.sequence)
}

// reachDerived reads the types deriving directly from the named complex type (each reaches its own).
func (m *modeler) reachDerived(name string) error {
	if m.derivedOf == nil {
		m.derivedOf = extension.Derived(m.defs.Schemas, m.defs.TNS)
	}
	for _, d := range m.derivedOf[name] {
		if _, err := m.named(m.complexTypes[d], d); err != nil {
			return err
		}
	}
	return nil
}
