// Package wsdl holds the service contract, wsdl/contactsync.wsdl, written by hand.
//
// The file is the single source of truth: go generate derives gen/ from it, and the server serves it
// (with the namespace and addresses filled in) at ?WSDL. DefaultNamespace and DefaultAddress are the
// literal values the file is written with, so code that serves it for another deployment knows exactly
// what to substitute.
package wsdl

import (
	"bytes"
	_ "embed"
	"encoding/xml"
)

// Contract is the WSDL 1.1 document exactly as written in contactsync.wsdl.
//
//go:embed contactsync.wsdl
var Contract []byte

// Served is Contract as the server serves it before filling in the namespace and addresses: without
// its XML comments, which are notes for the file's maintainers (what to run after editing it), not for
// the clients that read the served contract.
var Served = WithoutComments(Contract)

// WithoutComments returns doc without its XML comments; a comment alone on its line takes the line
// with it. doc must be well-formed up to its last comment (the contract file is checked by its
// tests).
func WithoutComments(doc []byte) []byte {
	d := xml.NewDecoder(bytes.NewReader(doc))
	var out []byte
	kept := 0 // doc[:kept] is decided
	for {
		start := int(d.InputOffset())
		tok, err := d.RawToken()
		if err != nil {
			break
		}
		if _, ok := tok.(xml.Comment); !ok {
			continue
		}
		end := int(d.InputOffset())
		lineStart := start
		for lineStart > 0 && (doc[lineStart-1] == ' ' || doc[lineStart-1] == '\t') {
			lineStart--
		}
		if end < len(doc) && doc[end] == '\n' && (lineStart == 0 || doc[lineStart-1] == '\n') {
			start, end = lineStart, end+1 // the comment's whole line
		}
		out = append(out, doc[kept:start]...)
		kept = end
	}
	return append(out, doc[kept:]...)
}

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
