// Package wsdl holds the service contract, wsdl/contactsync.wsdl, written by hand.
//
// The file is the single source of truth: go generate derives gen/ from it, the generated descriptor
// (gen.Contract) carries it without its comments, and the server serves that (with the namespace and
// addresses filled in) at ?WSDL. DefaultNamespace and DefaultAddress are the literal values the file
// is written with. Only the command's wiring (cmd/) and tests import this package: the runtime takes
// the contract from what is bound to it.
package wsdl

import (
	_ "embed"
)

// Contract is the WSDL 1.1 document exactly as written in contactsync.wsdl.
//
//go:embed contactsync.wsdl
var Contract []byte

const (
	// DefaultBaseURL is the base URL the contract file is written for.
	DefaultBaseURL = "http://localhost:8080"
	// Path is the endpoint path of every binding, fixed by the spec (§4).
	Path = "/contactsync/v1/sync.asmx"
	// DefaultNamespace is the service namespace in the contract file: DefaultBaseURL + "/contactsync/v1/".
	DefaultNamespace = DefaultBaseURL + "/contactsync/v1/"
	// DefaultAddress is the address every port has in the contract file: DefaultBaseURL + Path.
	DefaultAddress = DefaultBaseURL + Path
)
