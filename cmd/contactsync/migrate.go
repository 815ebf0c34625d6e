package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
	"github.com/contactsync/contactsync/server/wire/recordtypes"
	"github.com/spf13/cobra"
)

// migrateOptions holds everything migrate is configured with.
type migrateOptions struct {
	store string
	// stores holds the backends' settings for connecting (backend.Migrating); nil means the defaults.
	stores backend.Settings
	// check, renames and drops are the field maintenance (store.Fields): count the records holding
	// fields the contract no longer has, move a field's values under a new name, remove a field.
	check   bool
	renames []string // Old=New
	drops   []string
}

func newMigrateCommand() *cobra.Command {
	var opts migrateOptions
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Bring the store's schema up to date",
		Long: "Apply the schema migrations this binary carries that the store lacks, and report them.\n" +
			"serve applies them too when it starts; run migrate to upgrade ahead of a rollout. A store\n" +
			"migrated by a newer release is left untouched and reported as an error.\n\n" +
			"migrate then records the contract's fields and their types in the store. After a contract\n" +
			"edit removed or renamed a field of the record, serve starts and carries the stored values of\n" +
			"that field (with a warning naming it); after an edit changed a field's type under the same\n" +
			"name, serve refuses to start while stored records may hold it. --check counts the records\n" +
			"holding each such field, --rename Old=New moves a renamed field's values to its new name, and\n" +
			"--drop Field removes a field's values for good. Renames run first, then drops, then the check.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMigrate(cmd.Context(), opts, cmd.OutOrStdout())
		},
	}
	storeFlag(cmd, "store", &opts.store, "")
	var names []string
	opts.stores, names = storeSettings(cmd, backend.Migrating, "store")
	cmd.Flags().BoolVar(&opts.check, "check", false, "count the records holding fields the contract no longer has or whose type it changed (exit status 1 if any may hold the latter)")
	cmd.Flags().StringArrayVar(&opts.renames, "rename", nil, "Old=New: move the values of Old, a field the contract no longer has, to New, one it has (repeatable)")
	cmd.Flags().StringArrayVar(&opts.drops, "drop", nil, "remove the values of a field the contract no longer has, or whose type it changed, from every record (repeatable)")
	// The store settings only: --check, --rename and --drop say what to do this time, as import's
	// --mode does, and are never read from the environment or a config file.
	return bindSettings(cmd, names...)
}

// runMigrate migrates the store opts names and writes what it applied to out.
func runMigrate(ctx context.Context, opts migrateOptions, out io.Writer) error {
	name := stores.Registry.Redact(opts.store)
	if _, err := stores.Registry.Lookup(opts.store); err != nil {
		return fmt.Errorf("--store %q: %w", name, err)
	}
	if err := opts.stores.Validate(); err != nil {
		return err
	}
	applied, version, err := stores.Registry.Migrate(ctx, opts.store, opts.stores)
	for _, m := range applied {
		fmt.Fprintf(out, "applied %s\n", m.File)
	}
	if err != nil {
		return fmt.Errorf("--store %s: %w", name, err)
	}
	if len(applied) == 0 {
		fmt.Fprintf(out, "schema already at version %d\n", version)
	} else {
		fmt.Fprintf(out, "schema now at version %d\n", version)
	}
	return maintainFields(ctx, opts, out)
}

// maintainFields runs migrate's field maintenance on the store opts names: the renames, then the
// drops, then the record of the contract's fields (store.Fields.SyncFields, which fills in the types
// not known yet), then the check. A rename moves a field the contract no longer has to one it has; a
// drop removes a field the contract no longer has or one whose type it changed; so no value the
// contract can read is lost.
func maintainFields(ctx context.Context, opts migrateOptions, out io.Writer) error {
	contract := contractPaths()
	known := make(map[string]bool, len(contract))
	for _, f := range contract {
		known[f] = true
	}
	type rename struct{ from, to string }
	var renames []rename
	for _, r := range opts.renames {
		from, to, ok := strings.Cut(r, "=")
		switch {
		case !ok || from == "" || to == "":
			return fmt.Errorf("--rename %q: want Old=New", r)
		case known[from]:
			return fmt.Errorf("--rename %s: %s is a field of the contract; a rename moves the values of a field the contract no longer has", r, from)
		case !known[to]:
			return fmt.Errorf("--rename %s: %s is not a field of the contract (its fields: %s)", r, to, strings.Join(contract, ", "))
		}
		renames = append(renames, rename{from, to})
	}
	st, _, err := stores.Registry.Open(ctx, opts.store, opts.stores, backend.Write)
	if err != nil {
		return fmt.Errorf("--store %s: %w", stores.Registry.Redact(opts.store), err)
	}
	defer st.Close()
	stored, err := st.StoredFields(ctx)
	if err != nil {
		return err
	}
	plan := store.Compare(stored, contractFields())
	gone := store.Paths(plan.Report.Carried)
	isGone := func(f string) bool { return slices.Contains(gone, f) }
	changed := func(f string) bool {
		return slices.ContainsFunc(plan.Report.Changed, func(c store.TypeChange) bool { return c.Path == f })
	}
	for _, r := range renames {
		if !isGone(r.from) {
			return fmt.Errorf("--rename %s=%s: the stored records hold no field %s the contract lacks (%s)", r.from, r.to, r.from, listOrNone(gone))
		}
	}
	stranded, _, _ := strandedTypes(plan.Report.Dropped)
	holdsStranded := func(f string) bool {
		return slices.ContainsFunc(stranded, func(d store.Field) bool { return strings.TrimSuffix(d.Path, "[]") == f })
	}
	for _, d := range opts.drops {
		switch {
		case isGone(d) || changed(d) || holdsStranded(d):
		case known[d]:
			return fmt.Errorf("--drop %s: %s is a field of the contract, stored under its type; drop removes only fields the contract no longer has, whose type it changed, or that may hold a derived type it dropped under an abstract one", d, d)
		default:
			return fmt.Errorf("--drop %s: the stored records hold no field %s the contract lacks (%s)", d, d, listOrNone(gone))
		}
	}
	for _, r := range renames {
		n, err := st.RenameField(ctx, r.from, r.to)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "renamed %s to %s in %d records\n", r.from, r.to, n)
	}
	for _, d := range opts.drops {
		n, err := st.DropField(ctx, d)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "dropped %s from %d records\n", d, n)
	}
	report, err := st.SyncFields(ctx, contractFields())
	if err != nil {
		return err
	}
	name := quoteArg(stores.Registry.Redact(opts.store))
	if !opts.check {
		if len(report.Changed) > 0 {
			return &FieldTypeError{Changed: report.Changed, Store: name}
		}
		unheld, err := heldStranded(ctx, st, report.Dropped, opts.store)
		if err != nil {
			return err
		}
		if len(report.Carried) > 0 {
			fmt.Fprintf(out, "warning: %s: %s (count them: contactsync migrate --store %s --check)\n", carriedWarning, strings.Join(store.Paths(report.Carried), ", "), name)
		}
		_, dropped, bases := strandedTypes(report.Dropped)
		if len(dropped) > 0 {
			fmt.Fprintf(out, "warning: %s: %s (count them: contactsync migrate --store %s --check)\n", droppedWarning, strings.Join(derivedNames(dropped), ", "), name)
		}
		if len(unheld) > 0 {
			fmt.Fprintf(out, "warning: %s: %s (count them: contactsync migrate --store %s --check)\n", unheldWarning, strings.Join(strandedNames(unheld, bases), ", "), name)
		}
		return nil
	}
	if len(report.Carried)+len(report.Changed)+len(report.Dropped) == 0 {
		fmt.Fprintln(out, "every field the stored records may hold is in the contract, with its type")
		return nil
	}
	count := func(f, what string) error {
		n, err := st.CountField(ctx, f)
		switch {
		case errors.Is(err, store.ErrPathInArray):
			fmt.Fprintf(out, "%s: %s; inside an array, which migrate cannot count or rewrite (export, edit and import instead)\n", f, what)
		case err != nil:
			return err
		default:
			fmt.Fprintf(out, "%s: %s; %d records hold a value\n", f, what, n)
		}
		return nil
	}
	for _, f := range report.Carried {
		if err := count(f.Path, "not in the contract, carried"); err != nil {
			return err
		}
	}
	for _, c := range report.Changed {
		if err := count(c.Path, fmt.Sprintf("stored as %s, the contract has %s", c.Stored, c.Contract)); err != nil {
			return err
		}
	}
	_, _, bases := strandedTypes(report.Dropped)
	var held []store.Field
	for _, d := range report.Dropped {
		what := fmt.Sprintf("$type %s, a derived type the contract no longer has", d.Type)
		base, stranded := bases[d.Path]
		switch {
		case base == recordtypes.ObjectType:
			what = fmt.Sprintf("$type %s, a type the contract no longer has, in an object, which cannot be read (drop: --drop %s)", d.Type, strings.TrimSuffix(d.Path, "[]"))
		case stranded:
			what += fmt.Sprintf(" under the abstract %s, which cannot be read (drop: --drop %s)", base, strings.TrimSuffix(d.Path, "[]"))
		}
		n, err := st.CountDerived(ctx, d.Path, d.Type)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %s; %d records hold a value of it\n", d.Path, what, n)
		if stranded && n > 0 {
			held = append(held, d)
		}
	}
	if len(held) > 0 {
		return fmt.Errorf("the stored records hold values of %d types the contract dropped, under an abstract type or in an object (%s): serve refuses to start; add the types back to the contract or drop the fields' values (--drop Field)",
			len(held), strings.Join(derivedNames(held), ", "))
	}
	if len(report.Changed) > 0 {
		return fmt.Errorf("the stored records may hold %d fields whose type the contract changed (%s): serve refuses to start; drop their values (--drop Field) or give the field a new name in the contract",
			len(report.Changed), strings.Join(changedPaths(report.Changed), ", "))
	}
	return nil
}

// changedPaths returns the paths of changes.
func changedPaths(changes []store.TypeChange) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.Path
	}
	return out
}

// listOrNone lists fields, or says there are none.
func listOrNone(fields []string) string {
	if len(fields) == 0 {
		return "there are none"
	}
	return "they are: " + strings.Join(fields, ", ")
}
