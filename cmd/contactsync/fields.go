package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/store/stores"
)

// contractFields are the field paths of the contract's record, from its generated descriptor.
func contractFields() []string { return service.Records.Type.Fields }

// FieldsGoneError is serve's refusal to start on a store whose records may hold fields the contract
// no longer has: running would drop their values from every record it rewrites.
type FieldsGoneError struct {
	// Gone are the field paths, sorted.
	Gone []string
	// Store is the --store value, redacted, for the commands the message suggests.
	Store string
}

func (e *FieldsGoneError) Error() string {
	return fmt.Sprintf("the stored records may hold fields the contract no longer has: %s. Nothing was changed. "+
		"Count the records holding them with `contactsync migrate --store %s --check`; then, for each, "+
		"`contactsync migrate --store %s --rename Old=New` keeps its values under a field the contract has "+
		"(a renamed field), or `contactsync migrate --store %s --drop Field` removes them "+
		"(see docs/contract.md, \"Your data after a contract edit\")",
		strings.Join(e.Gone, ", "), e.Store, e.Store, e.Store)
}

// checkFields records the contract's fields in the store and refuses, naming them and the commands
// that resolve it, when the store's records may hold fields the contract lacks (store.Fields).
func checkFields(ctx context.Context, st store.Fields, spec string) error {
	gone, err := st.SyncFields(ctx, contractFields())
	if err != nil {
		return err
	}
	if len(gone) > 0 {
		return &FieldsGoneError{Gone: gone, Store: quoteArg(stores.Registry.Redact(spec))}
	}
	return nil
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
