package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Fields is the field metadata every backend keeps beside its records, in a small table
// (record_fields): the field paths that stored records may hold, each the dotted path of an element
// of the contract's record ("Nickname", "Address.Lines" for an element of a nested type). The paths
// are handed in by the caller (serve and migrate pass the contract's, from the generated record
// descriptor); the store knows none of them. It lets serve find, at start and without reading a
// record, that the contract no longer has a field stored records may hold (FieldsGone), and lets
// migrate count, rename or drop such a field explicitly, so no value is lost silently.
//
// Paths name object members only: a path crossing an array (an element of a type that is an array's
// item) is refused by CountField, RenameField and DropField with ErrPathInArray.
type Fields interface {
	// SyncFields compares paths, the contract's field paths, with the recorded ones. When records may
	// hold fields that paths lacks, it returns those (sorted) and records nothing; otherwise it
	// records the paths the table lacks (so records written from now on are known to hold them) and
	// returns none. It runs in one transaction, serialized with every other SyncFields.
	SyncFields(ctx context.Context, paths []string) (gone []string, err error)
	// StoredFields returns the recorded paths, sorted.
	StoredFields(ctx context.Context) ([]string, error)
	// CountField returns how many records hold a value other than null at path.
	CountField(ctx context.Context, path string) (int64, error)
	// RenameField moves the value at path from to path to (same parent, another name) in every
	// record holding from, and renames from (and the paths under it) in the recorded fields. It
	// refuses, changing nothing, when a record holds values at both. It returns how many records it
	// rewrote.
	RenameField(ctx context.Context, from, to string) (int64, error)
	// DropField removes the value at path from every record holding it, and path (and the paths under
	// it) from the recorded fields. It returns how many records it rewrote.
	DropField(ctx context.Context, path string) (int64, error)
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

// Gone returns the recorded paths that paths lacks, sorted: the fields records may hold that the
// contract no longer has.
func Gone(recorded, paths []string) []string {
	known := make(map[string]bool, len(paths))
	for _, p := range paths {
		known[p] = true
	}
	var gone []string
	for _, p := range recorded {
		if !known[p] {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	return gone
}

// Missing returns the paths that recorded lacks, in the order of paths.
func Missing(recorded, paths []string) []string {
	have := make(map[string]bool, len(recorded))
	for _, p := range recorded {
		have[p] = true
	}
	var missing []string
	for _, p := range paths {
		if !have[p] {
			missing = append(missing, p)
			have[p] = true
		}
	}
	return missing
}

// Under reports whether path is prefix or a path under it ("Address.Lines" is under "Address").
func Under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+".")
}
