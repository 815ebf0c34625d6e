package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/stores"
)

// Every command reaches its store through the registry of store backends (server/store/stores): it
// picks the backend from the form of the --store value, and supplies the backend's options and their
// flags, opening, migrating, the single-writer lock, redaction and the help text. No command names a
// backend, so a new backend needs no change here.

// storeFlag registers a store setting (--store, copy's --from) with the registry's default and its
// help text after prefix.
func storeFlag(cmd *cobra.Command, name string, target *string, prefix string) {
	cmd.Flags().StringVar(target, name, stores.Registry.Default(), prefix+stores.Registry.Usage())
}

// storeSettings registers every backend's settings for a command in scope and returns the options
// they fill and the names of the settings: the store setting names given, then the backends'.
func storeSettings(cmd *cobra.Command, scope backend.Scope, storeNames ...string) (backend.Settings, []string) {
	settings, names := stores.Registry.Flags(cmd.Flags(), scope)
	return settings, append(storeNames, names...)
}

// openBulkStore opens the store spec names through the registry (applying its missing migrations, as
// serve does), for a data command that uses it as use says, after validating every backend's
// settings. Its errors start with the setting that gave spec (store, or copy's from and to) and the
// store, redacted, since the backends' own errors name neither. What opening created is returned, so
// a command that fails having written nothing can remove it.
func openBulkStore(ctx context.Context, flag, spec string, settings backend.Settings, use backend.Use) (backend.Store, *backend.Created, error) {
	if err := settings.Validate(); err != nil {
		return nil, nil, err
	}
	st, created, err := stores.Registry.Open(ctx, spec, settings, use)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", storeArg(flag, spec), err)
	}
	return st, created, nil
}

// storeArg shows a store setting as an error names it: --flag and its value, redacted, or "" when it
// is empty, so the message shows that nothing was given.
func storeArg(flag, spec string) string {
	if spec == "" {
		return "--" + flag + ` ""`
	}
	return "--" + flag + " " + stores.Registry.Redact(spec)
}
