// Package zoohdr is the wire code tools/gowsdlgen generates from the SOAP header section of the third
// ASMX zoo (shapes §1): WhoAmI and WhoAmIOptional (AuthHeader In), Ping (TraceHeader Out), Renew
// (AuthHeader InOut), Audit (AuthHeader In, TraceHeader Out) and ListUnknownHeaders, on all four
// bindings. ../testdata/hdr/hdr.wsdl is zoo3.wsdl with every other operation, type and schema left
// out (nothing else changed); ../testdata/hdr/captures are zoo3's captures of these operations.
//
// It exists for tests: the zoo package's header replay test (../hdr_replay_test.go) serves it
// through the real bindings with a Go twin of Zoo3.cs's header methods and replays every captured
// exchange.
//
// This file is the only one written by hand; zoohdr.go and zoohdr_wire.go are generated like gen/,
// and `make check-generate` keeps them in step.
package zoohdr

//go:generate go run ../../.. -wsdl ../testdata/hdr/hdr.wsdl -o zoohdr.go -wire zoohdr_wire.go -pkg zoohdr
