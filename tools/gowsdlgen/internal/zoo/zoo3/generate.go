// Package zoo3 is the wire code tools/gowsdlgen generates from the third ASMX zoo, the contract
// shapes besides plain types (../testdata/shapes: SOAP headers, inheritance, object, raw XML and
// DataSets, out and ref parameters, renames and overloads, small and unsigned types, bare messages,
// names, one-way methods, attributes and [Flags]), generated from the whole contract: every operation
// of Zoo3.cs, so ?WSDL and the help page serve the contract ASMX served.
//
// It exists for tests: ../zoo3_replay_test.go serves it through the real bindings with a Go twin of
// the reference service (../testdata/shapes/Zoo3.cs) and replays the exchanges captured from ASMX
// (../testdata/shapes/captures), keeping a pending list of the captures replayed elsewhere (or not yet).
// Smalls is its record type (-record), so ../zoo3_record_test.go round-trips the small and unsigned
// types and char through the record codec.
// The contract is ../testdata/shapes/zoo3.wsdl, exactly as ASMX served it.
//
// This file is the only one written by hand; zoo3.go and zoo3_wire.go are generated like gen/, and
// `make check-generate` keeps them in step.
package zoo3

//go:generate go run ../../.. -wsdl ../testdata/shapes/zoo3.wsdl -o zoo3.go -wire zoo3_wire.go -pkg zoo3 -record Smalls -record-key UL -record-index B
