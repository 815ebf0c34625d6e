package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// Fields is the field metadata every backend keeps beside its records, in a small table
// (record_fields): the field paths the stored records hold, each the dotted path of an element of the
// contract's record ("Nickname", "Address.Lines" for an element of a nested type) with its record type
// ("xsd:string", "complex:Address": docs/generator-model.md §5). The paths are handed in by the
// caller (serve, import, copy and migrate pass the contract's, from the generated record descriptor);
// the store knows none of them. It lets serve find, at start and without reading a record, the fields
// stored records may hold that the contract lacks (carried by every writer, and named in a warning) and
// the fields whose type the contract changed (a refusal), and lets migrate count, rename or drop a
// field explicitly, so no value is lost silently. An empty store records nothing: the recorded set
// follows the contract of whoever writes to it first.
//
// Paths name object members only: a path crossing an array (an element of a type that is an array's
// item) is refused by CountField, RenameField and DropField with ErrPathInArray.
type Fields interface {
	// SyncFields compares fields, the contract's fields, with the recorded ones, in one transaction
	// serialized with every other SyncFields. When a recorded field's type differs from the
	// contract's (SameRecordType), it records nothing and reports those in Changed; else it records
	// the fields the table lacks, fills in the types recorded as "" (not known yet), and reports the
	// recorded fields the contract lacks in Carried. On a store holding no record nothing is reported:
	// a recorded field whose type differs is recorded again with the contract's type (no record holds
	// it), and the recorded fields the contract lacks stay recorded (another version of the contract,
	// serving the same store, may be about to write them).
	SyncFields(ctx context.Context, fields []Field) (FieldsReport, error)
	// StoredFields returns the recorded fields, sorted by path.
	StoredFields(ctx context.Context) ([]Field, error)
	// CountField returns how many records hold a value other than null at path.
	CountField(ctx context.Context, path string) (int64, error)
	// CountDerived returns how many records hold a value whose "$type" is typ at path, the path of a
	// polymorphic or object element (a derived row's, DerivedPath): at every item of every array the
	// path crosses ("Pets[]", "Groups[].Pets[]"), and at every item of an object[] ("$items") such a
	// value holds, at any depth, so a record counts when one of them names typ.
	CountDerived(ctx context.Context, path, typ string) (int64, error)
	// RenameField moves the value at path from to path to (same parent, another name) in every
	// record holding from, and renames from (and the paths under it: its members', its array items',
	// its derived rows, RenameRows) in the recorded fields. It refuses, changing nothing, when a
	// record holds values at both. It returns how many records it rewrote.
	RenameField(ctx context.Context, from, to string) (int64, error)
	// DropField removes the value at path from every record holding it, and path (and the paths under
	// it) from the recorded fields. It returns how many records it rewrote.
	DropField(ctx context.Context, path string) (int64, error)
}

// Field is a recorded field: its path and its record type, "" when not known yet (a row migrated from
// schema version 5, before types were recorded). A derived row (Derived) records instead a type a
// value of a polymorphic element may name in its "$type" (docs/generator-model.md §5): Path is the
// element's ("Favorite", "Pets[]" for the items of an array), Type the derived type's name.
type Field struct {
	Path, Type string
	// Derived: the row's role is 'derived', not 'field'.
	Derived bool
}

// TypeChange is a recorded field whose type the contract changed.
type TypeChange struct {
	Path, Stored, Contract string
}

// FieldsReport is what SyncFields found.
type FieldsReport struct {
	// Carried are the recorded fields the contract lacks, sorted by path: records may hold them, and
	// every writer carries them over unread.
	Carried []Field
	// Changed are the recorded fields whose type differs from the contract's, sorted by path.
	Changed []TypeChange
	// Dropped are the recorded derived types the contract lacks at their path (derived rows), sorted
	// by path and type: a record holding one reads it as the declared type and carries its "$type" and
	// members when that type is concrete, and cannot be read when it is abstract.
	Dropped []Field
}

// SameRecordType reports whether a value recorded under type stored reads as one of type contract:
// equal types, "" (not known yet), or two complex types (or arrays of them), whose sub-paths are
// compared instead.
func SameRecordType(stored, contract string) bool {
	if stored == "" || contract == "" {
		return true
	}
	for strings.HasPrefix(stored, "array:") && strings.HasPrefix(contract, "array:") {
		stored, contract = stored[len("array:"):], contract[len("array:"):]
	}
	return stored == contract || strings.HasPrefix(stored, "complex:") && strings.HasPrefix(contract, "complex:")
}

// FieldsPlan is what SyncFields does on a store holding records, computed by Compare.
type FieldsPlan struct {
	Report FieldsReport
	// Add are the contract's fields the table lacks; Fill the recorded fields of type "" the contract
	// has, with its type. Both are empty when Report.Changed is not.
	Add, Fill []Field
}

// Compare compares the recorded fields with the contract's, field rows and derived rows apart.
func Compare(recorded, fields []Field) FieldsPlan {
	var plan FieldsPlan
	contract := make(map[string]string, len(fields))
	derived := map[Field]bool{}
	for _, f := range fields {
		if f.Derived {
			derived[f] = true
			continue
		}
		contract[f.Path] = f.Type
	}
	have := make(map[string]bool, len(recorded))
	for _, r := range recorded {
		if r.Derived {
			if !derived[r] {
				plan.Report.Dropped = append(plan.Report.Dropped, r)
			}
			delete(derived, r)
			continue
		}
		have[r.Path] = true
		ct, ok := contract[r.Path]
		switch {
		case !ok:
			plan.Report.Carried = append(plan.Report.Carried, r)
		case !SameRecordType(r.Type, ct):
			plan.Report.Changed = append(plan.Report.Changed, TypeChange{Path: r.Path, Stored: r.Type, Contract: ct})
		case r.Type == "" && ct != "":
			plan.Fill = append(plan.Fill, Field{Path: r.Path, Type: ct})
		}
	}
	for _, f := range fields {
		switch {
		case f.Derived && derived[f]:
			plan.Add = append(plan.Add, f)
			delete(derived, f)
		case !f.Derived && !have[f.Path]:
			plan.Add = append(plan.Add, f)
			have[f.Path] = true
		}
	}
	slices.SortFunc(plan.Report.Dropped, func(a, b Field) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Type, b.Type))
	})
	slices.SortFunc(plan.Report.Carried, func(a, b Field) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(plan.Report.Changed, func(a, b TypeChange) int { return strings.Compare(a.Path, b.Path) })
	if len(plan.Report.Changed) > 0 {
		plan.Add, plan.Fill = nil, nil
	}
	return plan
}

// PlanSync is what SyncFields does given the recorded fields, the contract's, and whether the store
// holds no record: the plan (its Report is what SyncFields returns) and the recorded paths to delete
// first.
func PlanSync(recorded, fields []Field, empty bool) (plan FieldsPlan, drop []string) {
	plan = Compare(recorded, fields)
	if !empty {
		return plan, nil
	}
	if len(plan.Report.Changed) > 0 {
		for _, c := range plan.Report.Changed {
			drop = append(drop, c.Path)
		}
		recorded = slices.DeleteFunc(slices.Clone(recorded), func(f Field) bool { return slices.Contains(drop, f.Path) })
		plan = Compare(recorded, fields)
	}
	plan.Report = FieldsReport{}
	return plan, drop
}

// FieldRows returns the field rows of fields (not the derived rows), in their order.
func FieldRows(fields []Field) []Field {
	return slices.DeleteFunc(slices.Clone(fields), func(f Field) bool { return f.Derived })
}

// Paths returns the paths of fields, in their order.
func Paths(fields []Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Path
	}
	return out
}

// ErrPathInArray is returned (wrapped) by the field maintenance methods for a path some record holds
// inside an array: the SQL JSON functions they use cannot reach into arrays.
var ErrPathInArray = fmt.Errorf("the field lies inside an array in some records, which migrate cannot rewrite; export, edit and import them instead")

// FieldPath checks a field path handed to a backend and returns its segments: non-empty names
// separated by dots, each without a quote or a backslash (XSD element names are NCNames, which have
// neither). A segment naming the items of an array ("Others[]", as the generated descriptor writes
// an element of an array's items: "Others[].Street") fails with ErrPathInArray.
func FieldPath(path string) ([]string, error) {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if s == "" || strings.ContainsAny(s, "\"\\") {
			return nil, fmt.Errorf("%q is not a field path (element names separated by dots)", path)
		}
		if strings.HasSuffix(s, "[]") && i < len(segs)-1 {
			return nil, fmt.Errorf("%s: %w", path, ErrPathInArray)
		}
	}
	return segs, nil
}

// DerivedPath checks the path of a derived row and returns its steps: the object paths (segments)
// leading to each array its values lie in, then the path from the last array's items (or the record)
// to the values. "Pet" is [[Pet]], "Pets[]" [[Pets] []], "A.Pets[].Pet" [[A Pets] [Pet]]: a value
// whose "$type" CountDerived compares is at the last path within every item of every array on the
// way.
func DerivedPath(path string) ([][]string, error) {
	steps := [][]string{nil}
	for s := range strings.SplitSeq(path, ".") {
		name, array := strings.CutSuffix(s, "[]")
		if name == "" || strings.ContainsAny(name, "\"\\[]") {
			return nil, fmt.Errorf("%q is not the path of a derived row (element names separated by dots, [] after an array)", path)
		}
		steps[len(steps)-1] = append(steps[len(steps)-1], name)
		if array {
			steps = append(steps, nil)
		}
	}
	return steps, nil
}

// RenamedRecordPath returns the recorded path p with from, a field's path, renamed to to, and whether
// p is from or a path under it: the field's members ("Pet.Name"), its derived rows ("Pet"), its
// items' ("Pets[]", "Pets[].Name").
func RenamedRecordPath(p, from, to string) (string, bool) {
	rest, ok := strings.CutPrefix(p, from)
	if !ok || rest != "" && !strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "[]") {
		return p, false
	}
	return to + rest, true
}

// RenamedPath checks that from and to name fields of the same parent and returns their segments.
func RenamedPath(from, to string) (fromSegs, toSegs []string, err error) {
	if fromSegs, err = FieldPath(from); err != nil {
		return nil, nil, err
	}
	if toSegs, err = FieldPath(to); err != nil {
		return nil, nil, err
	}
	if from == to {
		return nil, nil, fmt.Errorf("rename %s to itself", from)
	}
	if len(fromSegs) != len(toSegs) || !slices.Equal(fromSegs[:len(fromSegs)-1], toSegs[:len(toSegs)-1]) {
		return nil, nil, fmt.Errorf("rename %s to %s: a rename changes the last name of a path only (same parent)", from, to)
	}
	return fromSegs, toSegs, nil
}

// Under reports whether path is prefix or a path under it ("Address.Lines" is under "Address").
func Under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+".")
}

// RowRename is what renaming a field does to one recorded row (RenameRows).
type RowRename struct {
	// Row is the recorded row; Path its new path.
	Row  Field
	Path string
	// Drop: the row is deleted instead, as the new path already has it (a field row of the new path,
	// which keeps its own type; the same derived row).
	Drop bool
}

// Role returns the role column's value of f: "derived" or "field".
func (f Field) Role() string {
	if f.Derived {
		return "derived"
	}
	return "field"
}

// RenameRows returns what renaming the field from to to does to the recorded rows: each row at from
// or under it, field and derived rows alike (RenamedRecordPath), moves to the same path under to,
// unless that path already has it.
func RenameRows(recorded []Field, from, to string) []RowRename {
	fieldAt, derivedAt := map[string]bool{}, map[Field]bool{}
	for _, r := range recorded {
		if r.Derived {
			derivedAt[r] = true
		} else {
			fieldAt[r.Path] = true
		}
	}
	var out []RowRename
	for _, r := range recorded {
		np, ok := RenamedRecordPath(r.Path, from, to)
		if !ok {
			continue
		}
		moved := Field{Path: np, Type: r.Type, Derived: r.Derived}
		out = append(out, RowRename{Row: r, Path: np, Drop: r.Derived && derivedAt[moved] || !r.Derived && fieldAt[np]})
	}
	return out
}
