package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/wire/recordwire"
)

// contractFields are the fields of the contract's record with their record types, from its
// generated descriptor, then its derived rows: each concrete type a polymorphic element's "$type" may
// name, by path. The derived rows are the contract's, not only the types written so far, so that a
// contract dropping a type is noticed whether or not a record holds it yet (migrate --check counts).
func contractFields() []store.Field {
	rt := contractRecord()
	types := rt.FieldTypes()
	out := make([]store.Field, len(rt.Fields))
	for i, p := range rt.Fields {
		out[i] = store.Field{Path: p, Type: types[i]}
	}
	derived := rt.DerivedTypes()
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

// DerivedTypeError is the refusal to start on a store whose records may hold a value of a derived type
// the contract dropped, under a declared type that is abstract: such a value cannot be read as its
// declared type (an abstract type has no value of its own), so serving would fail on those records.
// Under a concrete declared type it is read as that type and carried, and the commands only warn.
type DerivedTypeError struct {
	// Stranded are the derived rows, sorted by path and type; Bases the abstract declared type of
	// each path.
	Stranded []store.Field
	Bases    map[string]string
	// Store is the --store value, redacted, for the commands the message suggests.
	Store string
}

func (e *DerivedTypeError) Error() string {
	parts := make([]string, len(e.Stranded))
	drops := make([]string, 0, len(e.Stranded))
	for i, d := range e.Stranded {
		parts[i] = fmt.Sprintf("%s ($type %s, under the abstract %s)", d.Path, d.Type, e.Bases[d.Path])
		if f := strings.TrimSuffix(d.Path, "[]"); !slices.Contains(drops, f) {
			drops = append(drops, f)
		}
	}
	return fmt.Sprintf("the stored records may hold values of derived types the contract no longer has, under an abstract "+
		"declared type, which cannot be read: %s. No record was changed. Count the records holding them with "+
		"`contactsync migrate --store %s --check`; then either add the type back to the contract and regenerate, or "+
		"remove every value of the field with `contactsync migrate --store %s --drop %s` (export them first to keep them; "+
		"see docs/contract.md, \"Your data after a contract edit\")",
		strings.Join(parts, ", "), e.Store, e.Store, strings.Join(drops, " --drop "))
}

// strandedTypes splits the recorded derived types the contract dropped into those under an abstract
// declared type (stranded: their values cannot be read) and the others (read as the declared type).
func strandedTypes(dropped []store.Field) (stranded, others []store.Field, bases map[string]string) {
	bases = contractRecord().AbstractBases()
	for _, d := range dropped {
		if _, ok := bases[d.Path]; ok {
			stranded = append(stranded, d)
		} else {
			others = append(others, d)
		}
	}
	return stranded, others, bases
}

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
	stranded, dropped, bases := strandedTypes(report.Dropped)
	if len(stranded) > 0 {
		return report, &DerivedTypeError{Stranded: stranded, Bases: bases, Store: name}
	}
	if len(report.Carried) > 0 && warn != nil {
		warn(carriedWarning, strings.Join(store.Paths(report.Carried), ", "), "contactsync migrate --store "+name+" --check")
	}
	if len(dropped) > 0 && warn != nil {
		warn(droppedWarning, strings.Join(derivedNames(dropped), ", "), "contactsync migrate --store "+name+" --check")
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
