// Package contractevo holds the contract-evolution patches and the test that applies them (issue 12:
// "the compiler is the to-do list" and "contract evolution in CI").
//
// Each directory under testdata/patches/ is one edit a user might make to wsdl/contactsync.wsdl,
// written the way the existing operations are written, together with the only code the edit should
// need (testdata, so that `go build ./...` leaves its Go files alone: they belong to package service
// and compile only once copied into it):
//
//   - wsdl.patch: the WSDL edit, a unified diff against the repository root (git apply -p1);
//   - for a new operation, one Go file of package service holding the service method, copied into
//     server/service/ as is;
//   - for a new field, service.patch: the lines of server/service/service.go's TestContact (the
//     contact TestCreateContact stores) that set it;
//   - for an edit of data already stored (07-rename-field), no code: its test builds a base patch
//     first, writes and exports contacts with it, then applies the edit (data_test.go);
//   - for a rename of a field the service sets (08-rename-phonework, PhoneWork to PhoneOffice),
//     service.patch renames it in TestContact and TestUpdate.
//
// evolution_test.go copies the module to a scratch directory, applies a patch, regenerates, checks
// that `go build ./...` fails only in package server/service and names the missing method (or succeeds, for a
// field), adds the service code, builds and starts the real binary and calls the new operation over
// every binding the generated operation table offers it on with `contactsync call`, and with zeep, a
// real client importing the served ?WSDL. data_test.go holds the data patches' checks: stored fields
// of every kind read back after a restart and carried by export, import and copy, and a renamed field
// through serve's warning, migrate and import --rename. rollback_test.go builds this commit's code
// twice, with and without 01-contact-fields, and plays a rollback and a mixed-version rollout on both
// stores (the older binary carries the fields it does not know), then a renamed field on new stores.
// suite_test.go plays the edit for the project's own tests (issue 34): after a typed-field addition
// (01-contact-fields) and a rename (08-rename-phonework), make generate, the service code and make
// update-golden, the tests of the packages a contract edit can touch pass with nothing else written by
// hand. The package has no non-test code but this comment: the copying and the adding of service code
// live in package patching, which cmd/patched also uses to build the interop suite's patched server
// (tools/interop/patches lists its patches).
//
// The patches run in parallel, one per core (at least two), and share the caller's build cache: their
// go commands build with -trimpath, so a package a patch leaves alone is compiled once (by a warm-up
// build of the unpatched copy) rather than once per scratch directory, and a second run finds even
// the patched packages cached.
package contractevo
