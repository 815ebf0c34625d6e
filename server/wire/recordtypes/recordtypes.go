// Package recordtypes names the record type of each value of a contract's type descriptors, the
// class its JSON form in the record belongs to ("xsd:int", "complex:Address", "array:xsd:string",
// "anyType"), and walks a record type's element paths for them and for the derived types a value at a
// path may hold: what the store records of the fields it holds (record_fields, docs/generator-model.md
// §4 and §5), so a start on a contract that changed a field's type, or dropped a derived type, is
// noticed. It reads the descriptors alone (package wire), no document.
package recordtypes

import (
	"slices"

	"github.com/contactsync/contactsync/server/wire"
)

// Of returns the record type of values of t: "xsd:<builtin>" ("xsd:int"), "ms:guid",
// "enum:<Name>", "flags:<Name>", "complex:<Name>", "array:<item record type>", and for the open kinds
// "anyType", "raw" and "dataset" (docs/generator-model.md §5). Names, not namespaces, so a contract
// whose namespace moves changes no type.
func Of(t *wire.Type) string {
	switch t.Kind {
	case wire.KindString:
		return "xsd:string"
	case wire.KindInt:
		return "xsd:int"
	case wire.KindLong:
		return "xsd:long"
	case wire.KindShort:
		return "xsd:short"
	case wire.KindBoolean:
		return "xsd:boolean"
	case wire.KindDouble:
		return "xsd:double"
	case wire.KindFloat:
		return "xsd:float"
	case wire.KindDecimal:
		return "xsd:decimal"
	case wire.KindDateTime:
		return "xsd:dateTime"
	case wire.KindBase64:
		return "xsd:base64Binary"
	case wire.KindGUID:
		return "ms:guid"
	case wire.KindChar:
		return "ms:char"
	case wire.KindEnum:
		return "enum:" + t.Name
	case wire.KindFlags:
		return "flags:" + t.Name
	case wire.KindObject:
		return "anyType"
	case wire.KindRawXML:
		return "raw"
	case wire.KindDataSet:
		return "dataset"
	case wire.KindComplex:
		return "complex:" + t.Name
	case wire.KindArray:
		if t.Item == nil || t.Item.Type == nil {
			return "array:"
		}
		return "array:" + Of(t.Item.Type)
	}
	return "xsd:" + t.Name
}

// Fields returns the record type of every element path of ty, named as the generator names a record
// type's Fields (recordwire.Type.FieldTypes puts them in that order).
func Fields(ty *wire.Type) map[string]string {
	types := map[string]string{}
	if ty != nil {
		fieldTypes(ty, "", map[*wire.Type]bool{}, types)
	}
	return types
}

// fieldTypes walks the elements of ty as the generator names Type.Fields: nested ones after their
// parent, through "[]" for the items of an array, a recursive type descended into once per path. The
// elements of the types derived from a nested type follow its own under the same path (a derived
// value's members sit beside its base's in one object); where two derived types have an element of
// one name, the first in document order gives the path its type.
func fieldTypes(ty *wire.Type, prefix string, onPath map[*wire.Type]bool, out map[string]string) {
	onPath[ty] = true
	defer delete(onPath, ty)
	for _, f := range ty.Fields {
		if f.Type == nil {
			continue
		}
		path, ft, sep := prefix+f.Name, f.Type, "."
		rt := Of(ft)
		if f.MaxOccurs != 1 {
			rt, sep = "array:"+rt, "[]."
		}
		if _, ok := out[path]; !ok {
			out[path] = rt
		}
		if ft.Kind == wire.KindArray && ft.Item != nil {
			ft, sep = ft.Item.Type, "[]."
		}
		if ft != nil && ft.Kind == wire.KindComplex && !onPath[ft] {
			fieldTypes(ft, path+sep, onPath, out)
			for _, d := range ft.Derived {
				if !onPath[d] {
					fieldTypes(d, path+sep, onPath, out)
				}
			}
		}
	}
}

// Derived returns, for every element path of ty whose declared type has derived types, the names of
// the concrete types a value there may name in its "$type", in document order (what the store records
// as the path's derived rows, so a contract that drops one is noticed), and, for those whose declared
// type is abstract, that type's name: a stored value there whose derived type the contract dropped
// cannot be read as the declared type, so the commands refuse such a store instead of warning.
func Derived(ty *wire.Type) (derived map[string][]string, abstractBases map[string]string) {
	derived, abstractBases = map[string][]string{}, map[string]string{}
	if ty != nil {
		derivedTypes(ty, "", map[*wire.Type]bool{}, derived, abstractBases)
	}
	return derived, abstractBases
}

func derivedTypes(ty *wire.Type, prefix string, onPath map[*wire.Type]bool, out map[string][]string, abstract map[string]string) {
	onPath[ty] = true
	defer delete(onPath, ty)
	for _, f := range ty.Fields {
		if f.Type == nil {
			continue
		}
		// The path of the objects that may hold a TypeKey: the element's, or its items' ("Sign[]").
		path, ft := prefix+f.Name, f.Type
		if ft.Kind == wire.KindArray && ft.Item != nil {
			ft = ft.Item.Type
			path += "[]"
		} else if f.MaxOccurs != 1 {
			path += "[]"
		}
		if ft == nil || ft.Kind != wire.KindComplex || onPath[ft] {
			continue
		}
		if ft.Abstract && len(ft.Derived) > 0 {
			abstract[path] = ft.Name
		}
		for _, d := range ft.Derived {
			if !d.Abstract && !slices.Contains(out[path], d.Name) {
				out[path] = append(out[path], d.Name)
			}
		}
		derivedTypes(ft, path+".", onPath, out, abstract)
		for _, d := range ft.Derived {
			if !onPath[d] {
				derivedTypes(d, path+".", onPath, out, abstract)
			}
		}
	}
}

// ObjectType is the declared type an object element's path is named under where the commands name
// the declared type of a derived row's path (AbstractBases' counterpart): Of's name of xsd:anyType.
const ObjectType = "anyType"

// Objects returns, for every element path of ty whose type is object (xsd:anyType: "Extra", or
// "Extras[]" for the items of an object[] or of a repeated object element), the contract types a value
// there may name in its "$type" and be read as: types, the contract's (wire.Contract.ObjectTypes, what
// its object registry holds). They are derived rows like Derived's, with one difference: an object
// naming a type the contract dropped cannot be read at all (recordany answers an unknown type; there
// is no declared type to read it as), as under an abstract base, so the commands treat them as such.
// The XSD built-ins ("xsd:int", "ms:guid") never leave a contract and need no row; nor do
// enumerations, whose dropped values read back as untyped content keeping their type ("$xsiType").
func Objects(ty *wire.Type, types []string) map[string][]string {
	out := map[string][]string{}
	if ty != nil {
		objectPaths(ty, "", map[*wire.Type]bool{}, func(path string) { out[path] = slices.Clone(types) })
	}
	return out
}

// objectPaths calls found with the path of every object element of ty, walking as derivedTypes does.
func objectPaths(ty *wire.Type, prefix string, onPath map[*wire.Type]bool, found func(path string)) {
	onPath[ty] = true
	defer delete(onPath, ty)
	for _, f := range ty.Fields {
		if f.Type == nil {
			continue
		}
		path, ft := prefix+f.Name, f.Type
		if ft.Kind == wire.KindArray && ft.Item != nil {
			ft = ft.Item.Type
			path += "[]"
		} else if f.MaxOccurs != 1 {
			path += "[]"
		}
		switch {
		case ft == nil:
		case ft.Kind == wire.KindObject:
			found(path)
		case ft.Kind == wire.KindComplex && !onPath[ft]:
			objectPaths(ft, path+".", onPath, found)
			for _, d := range ft.Derived {
				if !onPath[d] {
					objectPaths(d, path+".", onPath, found)
				}
			}
		}
	}
}
