package recordwire

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/recordtypes"
)

// Unknown members and record types (docs/generator-model.md §4 and §5; issue 34).
//
// A stored document may hold members the contract does not know: fields a newer contract added
// (written by a newer binary sharing the store, or before a rollback) or an older one removed. A
// reader skips them (Lenient); a writer replacing the document carries them over, as protobuf keeps
// the fields it does not know, so a rollback or a mixed-version rollout loses nothing. The carry works
// on the JSON documents by the record type's descriptor, with no generated code: CarryUnknown. The
// store keeps, for every field path, the field's record type (FieldTypes), the class its JSON form
// belongs to, so a start on a contract that changed a field's type under the same name is refused
// where carrying is impossible.

// RecordTypeOf returns the record type of values of t (recordtypes.Of).
func RecordTypeOf(t *wire.Type) string { return recordtypes.Of(t) }

// FieldTypes returns the record type of every path of t.Fields, in the same order.
func (t *Type) FieldTypes() []string {
	types := recordtypes.Fields(t.Type)
	out := make([]string, len(t.Fields))
	for i, p := range t.Fields {
		out[i] = types[p]
	}
	return out
}

// DerivedTypes returns, for every path of t.Fields whose declared type has derived types, the names of
// the concrete types a value there may name in its TypeKey, in document order (recordtypes.Derived).
func (t *Type) DerivedTypes() map[string][]string {
	derived, _ := recordtypes.Derived(t.Type)
	return derived
}

// AbstractBases returns, for every path DerivedTypes names whose declared type is abstract, that
// type's name (recordtypes.Derived).
func (t *Type) AbstractBases() map[string]string {
	_, abstract := recordtypes.Derived(t.Type)
	return abstract
}

// member is an object member the record type does not know, found in a document: the path of its
// object ("" for the record, "Address" for a nested one, "Others[2]" for an item of an array), its
// key and its value (compact JSON).
type member struct {
	at, key string
	raw     []byte
}

// unknowns are the unknown members of a document, and the length of each array of complex values
// on the way to them (by path, "Others", "A[0].B"): a member inside an array item is carried only
// into an array of the same length.
type unknowns struct {
	ms   []member
	lens map[string]int
}

// under reports whether some member lies inside the items of the array at path.
func (u *unknowns) under(path string) bool {
	for _, m := range u.ms {
		if strings.HasPrefix(m.at, path+"[") {
			return true
		}
	}
	return false
}

// UnknownPaths returns the dotted paths of the members of doc the record type does not know, at
// every object level, array items included (named through "[]" as Type.Fields names them:
// "Others[].Zip"), sorted, each once.
func (t *Type) UnknownPaths(doc []byte) ([]string, error) {
	u, err := t.unknownMembers(doc)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range u.ms {
		p := itemIndex.ReplaceAllString(joinPath(m.at, m.key), "[]")
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

// itemIndex matches the index of an array item in a path.
var itemIndex = regexp.MustCompile(`\[[0-9]+\]`)

// CarryUnknown returns to, a document of the record type, with the members of from (a stored
// document of the same record) that the type does not know added: at every object level, after the
// known members of the object they were found in, sorted by key, their values compacted; inside an
// array of complex values by item index, when to's array has as many items as from's (otherwise the
// items were replaced, and what they held unknown goes with them). A member to already holds, or
// whose object to lacks (a nested value now null), is not added. When from holds no unknown member,
// to is returned as it is (no allocation).
func (t *Type) CarryUnknown(from, to []byte) ([]byte, error) {
	u, err := t.unknownMembers(from)
	if err != nil || len(u.ms) == 0 {
		return to, err
	}
	slices.SortStableFunc(u.ms, func(a, b member) int {
		if c := strings.Compare(a.at, b.at); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	out := make([]byte, 0, len(to)+len(from))
	r := NewReader(to, Lenient)
	if out, err = carryInto(r, t.Type, "", &u, out); err != nil {
		return nil, err
	}
	if err := r.End(); err != nil {
		return nil, err
	}
	return out, nil
}

// KeepUnknown is CarryUnknown(doc, canonical) for a document read from a file (doc) and its record
// as the type writes it (canonical), when keep keeps every unknown member of doc (by its path, as
// UnknownPaths names it); it returns the result and those paths. A member keep refuses is an error
// naming it and the type's fields, as Strict mode's.
func (t *Type) KeepUnknown(doc, canonical []byte, keep func(path string) bool) ([]byte, []string, error) {
	paths, err := t.UnknownPaths(doc)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range paths {
		if keep == nil || !keep(p) {
			known := make([]string, len(t.Type.Fields))
			for i, f := range t.Type.Fields {
				known[i] = f.Name
			}
			return nil, nil, UnknownField(p, known)
		}
	}
	out, err := t.CarryUnknown(doc, canonical)
	return out, paths, err
}

func (t *Type) unknownMembers(doc []byte) (unknowns, error) {
	var u unknowns
	if t.Type == nil {
		return u, nil
	}
	r := NewReader(doc, Lenient)
	if err := collectUnknown(r, t.Type, "", &u); err != nil {
		return u, err
	}
	return u, r.End()
}

// knownField returns the element of ty named key, or nil.
func knownField(ty *wire.Type, key []byte) *wire.Field {
	for i := range ty.Fields {
		if ty.Fields[i].Name == string(key) {
			return &ty.Fields[i]
		}
	}
	return nil
}

// nestedObject reports whether f's value is an object of a complex type the walk descends into.
func nestedObject(f *wire.Field) bool {
	return f.Type != nil && f.Type.Kind == wire.KindComplex && f.MaxOccurs == 1
}

// arrayItems returns the complex type of the items of f's value when it is an array of them (an
// element repeated, or an ASMX array wrapper type), and nil otherwise.
func arrayItems(f *wire.Field) *wire.Type {
	switch {
	case f.Type == nil:
		return nil
	case f.MaxOccurs != 1:
		if f.Type.Kind == wire.KindComplex {
			return f.Type
		}
	case f.Type.Kind == wire.KindArray && f.Type.Item != nil && f.Type.Item.Type != nil && f.Type.Item.Type.Kind == wire.KindComplex:
		return f.Type.Item.Type
	}
	return nil
}

func joinPath(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func itemPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// valueType returns the type of the object r is at, declared as ty, and whether its TypeKey member
// is known: when ty has derived types, the type a TypeKey names if it is ty or one of them (known),
// else ty; a TypeKey naming a type the contract does not know is an unknown member, carried with the
// members ty lacks, so the value is written back as it was.
func valueType(r *Reader, ty *wire.Type) (*wire.Type, bool, error) {
	if len(ty.Derived) == 0 {
		return ty, false, nil
	}
	typ, ok, err := r.PeekType()
	if err != nil || !ok || typ == ty.Name {
		return ty, true, err
	}
	for _, d := range ty.Derived {
		if d.Name == typ {
			return d, true, nil
		}
	}
	return ty, false, nil
}

// collectUnknown reads one value of type ty at path at, adding the unknown members of its objects.
func collectUnknown(r *Reader, ty *wire.Type, at string, u *unknowns) error {
	if r.Peek() != '{' {
		return r.Skip()
	}
	// A TypeKey member is known where it names a type the declared one's hierarchy has; elsewhere
	// it is carried as any unknown member.
	ty, typed, err := valueType(r, ty)
	if err != nil {
		return err
	}
	if err := r.BeginObject(); err != nil {
		return err
	}
	for {
		key, ok, err := r.Key()
		if err != nil || !ok {
			return err
		}
		f := knownField(ty, key)
		switch {
		case f == nil && typed && string(key) == TypeKey:
			if err := r.Skip(); err != nil {
				return err
			}
		case f == nil:
			name := string(key)
			raw, err := r.RawValue()
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := json.Compact(&b, raw); err != nil {
				return err
			}
			u.ms = append(u.ms, member{at: at, key: name, raw: b.Bytes()})
		case nestedObject(f):
			if err := collectUnknown(r, f.Type, joinPath(at, f.Name), u); err != nil {
				return err
			}
		case arrayItems(f) != nil && r.Peek() == '[':
			path, items := joinPath(at, f.Name), arrayItems(f)
			if err := r.BeginArray(); err != nil {
				return err
			}
			n := 0
			for ; ; n++ {
				more, err := r.More()
				if err != nil {
					return err
				}
				if !more {
					break
				}
				if err := collectUnknown(r, items, itemPath(path, n), u); err != nil {
					return err
				}
			}
			if u.lens == nil {
				u.lens = map[string]int{}
			}
			u.lens[path] = n
		default:
			if err := r.Skip(); err != nil {
				return err
			}
		}
	}
}

// carryInto copies one value of type ty at path at from r to out, adding the members of u found
// at its objects' paths after their own.
func carryInto(r *Reader, ty *wire.Type, at string, u *unknowns, out []byte) ([]byte, error) {
	if r.Peek() != '{' {
		raw, err := r.RawValue()
		return append(out, raw...), err
	}
	ty, _, err := valueType(r, ty)
	if err != nil {
		return nil, err
	}
	if err := r.BeginObject(); err != nil {
		return nil, err
	}
	out = append(out, '{')
	var have []string
	for n := 0; ; n++ {
		key, ok, err := r.Key()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if n > 0 {
			out = append(out, ',')
		}
		name := string(key)
		have = append(have, name)
		out = append(AppendString(out, name), ':')
		f := knownField(ty, key)
		switch {
		case f != nil && nestedObject(f):
			out, err = carryInto(r, f.Type, joinPath(at, f.Name), u, out)
		case f != nil && arrayItems(f) != nil && r.Peek() == '[' && u.under(joinPath(at, f.Name)):
			out, err = carryItems(r, arrayItems(f), joinPath(at, f.Name), u, out)
		default:
			var raw []byte
			raw, err = r.RawValue()
			out = append(out, raw...)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, m := range u.ms {
		if m.at != at || slices.Contains(have, m.key) {
			continue
		}
		if len(have) > 0 {
			out = append(out, ',')
		}
		have = append(have, m.key)
		out = append(AppendString(out, m.key), ':')
		out = append(out, m.raw...)
	}
	return append(out, '}'), nil
}

// carryItems copies the array of items at path, carrying the members of u into each item when it
// has as many items as the stored document's array.
func carryItems(r *Reader, items *wire.Type, path string, u *unknowns, out []byte) ([]byte, error) {
	if err := r.BeginArray(); err != nil {
		return nil, err
	}
	n, err := r.ArrayLen()
	if err != nil {
		return nil, err
	}
	byIndex := n == u.lens[path]
	out = append(out, '[')
	for i := 0; ; i++ {
		more, err := r.More()
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		if i > 0 {
			out = append(out, ',')
		}
		if byIndex {
			if out, err = carryInto(r, items, itemPath(path, i), u, out); err != nil {
				return nil, err
			}
			continue
		}
		raw, err := r.RawValue()
		if err != nil {
			return nil, err
		}
		out = append(out, raw...)
	}
	return append(out, ']'), nil
}
