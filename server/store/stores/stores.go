// Package stores lists the store backends this binary carries, in one Registry: the one place that
// names them. The commands open, migrate, lock, back up and describe stores through Registry only,
// so they name no backend (package backend explains the contract a backend fulfils).
//
// Adding a backend (MySQL, say) is a package implementing backend.Backend, with its conformance test
// (storetest), plus one line in the list below. The order of the list is the order in which the
// backends are asked whether a --store value is theirs; the default --store is a SQLite file.
//
// Imports: package backend and the backend packages; nothing else of the module.
package stores

import (
	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/postgres"
	"github.com/contactsync/contactsync/server/store/sqlite"
)

// Registry holds every store backend of the binary.
var Registry = backend.NewRegistry(sqlite.DefaultStore,
	sqlite.Backend{},
	postgres.Backend{},
)
