package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/wire/recordtypes"
	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// contractFields are the fields of the contract's record with their record types, from its
// generated descriptor, then its derived rows: each concrete type a polymorphic element's "$type" may
// name, by path, and each contract type an object element's may name (recordtypes.Objects). The
// derived rows are the contract's, not only the types written so far, so that a contract dropping a
// type is noticed whether or not a record holds it yet (the commands then count them).
func contractFields() []store.Field {
	rt := contractRecord()
	types := rt.FieldTypes()
	out := make([]store.Field, len(rt.Fields))
	for i, p := range rt.Fields {
		out[i] = store.Field{Path: p, Type: types[i]}
	}
	derived := rt.DerivedTypes()
	maps.Copy(derived, recordtypes.Objects(rt.Type, contractObjectTypes()))
	for _, p := range slices.Sorted(maps.Keys(derived)) {
		for _, typ := range derived[p] {
			out = append(out, store.Field{Path: p, Type: typ, Derived: true})
		}
	}
	return out
}

// contractPaths are the field paths of the contract's record.
func contractPaths() []string { return contractRecord().Fields }

// contractRecord is the contract's record type, which the field checks compare the store with. It is
// a variable so that a test can give a record type holding an abstract base, which today's contract
// does not have.
var contractRecord = func() *recordwire.Type { return service.Records.Type }

// contractObjectTypes are the contract's types an object value may hold (its descriptor's
// ObjectTypes): each is a derived row of every object element of the record (recordtypes.Objects). A
// variable, as contractRecord.
var contractObjectTypes = func() []string { return gen.Contract.ObjectTypes }

// DerivedTypeError is the refusal to start on a store whose records hold values of a type the
// contract dropped where such a value cannot be read: under a declared type that is abstract (it
// has no value of its own to read it as) or in an object (xsd:anyType: no declared type at all), so
// serving would fail on those records. Under a concrete declared type it is read as that type and
// carried, and the commands only warn; where no record holds one, they warn too (heldStranded).
type DerivedTypeError struct {
	// Stranded are the derived rows some record holds, sorted by path and type; Bases the declared
	// type of each path (recordtypes.ObjectType for an object's).
	Stranded []store.Field
	Bases    map[string]string
	// Store is the --store value, redacted, for the commands the message suggests.
	Store string
}

func (e *DerivedTypeError) Error() string {
	drops := make([]string, 0, len(e.Stranded))
	for _, d := range e.Stranded {
		if f := strings.TrimSuffix(d.Path, "[]"); !slices.Contains(drops, f) {
			drops = append(drops, f)
		}
	}
	return fmt.Sprintf("the stored records hold values of types the contract no longer has, under an abstract "+
		"declared type or in an object, which cannot be read: %s. No record was changed. Count the records holding them with "+
		"`contactsync migrate --store %s --check`; then either add the type back to the contract and regenerate, or "+
		"remove every value of the field with `contactsync migrate --store %s --drop %s` (export them first to keep them; "+
		"see docs/contract.md, \"Your data after a contract edit\")",
		strings.Join(strandedNames(e.Stranded, e.Bases), ", "), e.Store, e.Store, strings.Join(drops, " --drop "))
}

// strandedNames names stranded rows as "Path ($type Type, under the abstract Base)", or "in an
// object" for an object's path.
func strandedNames(stranded []store.Field, bases map[string]string) []string {
	out := make([]string, len(stranded))
	for i, d := range stranded {
		out[i] = fmt.Sprintf("%s ($type %s, %s)", d.Path, d.Type, underBase(bases[d.Path]))
	}
	return out
}

// underBase says where a stranded value stands: "under the abstract Animal", "in an object".
func underBase(base string) string {
	if base == recordtypes.ObjectType {
		return "in an object"
	}
	return "under the abstract " + base
}

// strandedTypes splits the recorded derived types the contract dropped into those under an abstract
// declared type or in an object (stranded: their values cannot be read) and the others at an element
// the contract has (read as the declared type). The rows of an element the contract no longer has
// are in neither: its values are carried unread, as the field is (the carried fields' warning).
func strandedTypes(dropped []store.Field) (stranded, others []store.Field, bases map[string]string) {
	rt := contractRecord()
	bases = rt.AbstractBases()
	for p := range recordtypes.Objects(rt.Type, nil) {
		bases[p] = recordtypes.ObjectType
	}
	for _, d := range dropped {
		if _, ok := bases[d.Path]; ok {
			stranded = append(stranded, d)
		} else if slices.Contains(rt.Fields, strings.TrimSuffix(d.Path, "[]")) {
			others = append(others, d)
		}
	}
	return stranded, others, bases
}

// heldStranded counts the records of st holding each stranded row (strandedTypes) and returns a
// DerivedTypeError naming those some record holds, and the others, which no record holds now: the
// commands serve then, warning (unheldWarning). The rows stay recorded, so each start counts again
// while the contract lacks the type, and catches a value an older version wrote meanwhile.
func heldStranded(ctx context.Context, st store.Fields, dropped []store.Field, spec string) (unheld []store.Field, err error) {
	stranded, _, bases := strandedTypes(dropped)
	var held []store.Field
	for _, d := range stranded {
		n, err := st.CountDerived(ctx, d.Path, d.Type)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			held = append(held, d)
		} else {
			unheld = append(unheld, d)
		}
	}
	if len(held) > 0 {
		return unheld, &DerivedTypeError{Stranded: held, Bases: bases, Store: quoteArg(stores.Registry.Redact(spec))}
	}
	return unheld, nil
}

// unheldWarning is the warning for recorded types the contract dropped whose values could not be read
// (under an abstract declared type, in an object) when no stored record holds one.
const unheldWarning = "the contract no longer has types that stored values could name where they cannot be read; " +
	"no stored record holds one, so the store is served, but a record an older version of the contract writes with one could not be"

// FieldTypeError is the refusal to start on a store whose records may hold a field under another
// type than the contract gives it: such a record could not be read, and carrying the value is
// impossible.
type FieldTypeError struct {
	// Changed are the fields, sorted by path.
	Changed []store.TypeChange
	// Store is the --store value, redacted, for the commands the message suggests.
	Store string
}

func (e *FieldTypeError) Error() string {
	parts := make([]string, len(e.Changed))
	for i, c := range e.Changed {
		parts[i] = fmt.Sprintf("%s (stored as %s, the contract has %s)", c.Path, c.Stored, c.Contract)
	}
	return fmt.Sprintf("the stored records may hold fields whose type the contract changed: %s. Nothing was changed. "+
		"Count the records holding them with `contactsync migrate --store %s --check`; then either give the field a new "+
		"name in the contract (the old values are then carried as unknown fields), or remove the stored values with "+
		"`contactsync migrate --store %s --drop Field` (export them first to keep them; "+
		"see docs/contract.md, \"Your data after a contract edit\")",
		strings.Join(parts, ", "), e.Store, e.Store)
}

// carriedWarning is the warning for recorded fields the contract lacks, which every writer carries.
const carriedWarning = "the stored records may hold fields the contract does not have: they are kept as stored, " +
	"written back on every update, exported, imported and copied, but not served"

// checkFields records the contract's fields in the store (extra: fields the writer also writes, as
// copy carries a source's) and refuses, naming them and the commands that resolve it, when the store's
// records may hold a field under another type (store.Fields). Recorded fields the contract lacks are
// carried: warn gets the warning naming them, and the command that counts them.
func checkFields(ctx context.Context, st store.Fields, spec string, extra []store.Field, warn func(msg string, fields, check string)) (store.FieldsReport, error) {
	report, err := st.SyncFields(ctx, append(contractFields(), extra...))
	if err != nil {
		return report, err
	}
	name := quoteArg(stores.Registry.Redact(spec))
	if len(report.Changed) > 0 {
		return report, &FieldTypeError{Changed: report.Changed, Store: name}
	}
	_, dropped, bases := strandedTypes(report.Dropped)
	unheld, err := heldStranded(ctx, st, report.Dropped, spec)
	if err != nil {
		return report, err
	}
	if len(report.Carried) > 0 && warn != nil {
		warn(carriedWarning, strings.Join(store.Paths(report.Carried), ", "), "contactsync migrate --store "+name+" --check")
	}
	if len(dropped) > 0 && warn != nil {
		warn(droppedWarning, strings.Join(derivedNames(dropped), ", "), "contactsync migrate --store "+name+" --check")
	}
	if len(unheld) > 0 && warn != nil {
		warn(unheldWarning, strings.Join(strandedNames(unheld, bases), ", "), "contactsync migrate --store "+name+" --check")
	}
	return report, nil
}

// droppedWarning is the warning for recorded derived types the contract lacks under a concrete
// declared type (under an abstract one the commands refuse: DerivedTypeError).
const droppedWarning = "the stored records may hold values of derived types the contract no longer has: under a concrete " +
	"declared type they are read as it and written back with their type and members"

// derivedNames names derived rows as "Path ($type Type)".
func derivedNames(rows []store.Field) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Path + " ($type " + r.Type + ")"
	}
	return out
}

// warnTo returns a checkFields warning written to w as one line, prefixed with the command's name.
func warnTo(w io.Writer, command string) func(msg, fields, check string) {
	return func(msg, fields, check string) {
		fmt.Fprintf(w, "%s: warning: %s: %s (count them: %s)\n", command, msg, fields, check)
	}
}

// quoteArg quotes s for a POSIX shell when it holds anything but plain characters.
func quoteArg(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@=,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
