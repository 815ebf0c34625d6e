// Package outref is the wire code tools/gowsdlgen generates from a contract with out and ref
// parameters: the Split and Divide operations of the third ASMX zoo (shapes/zoo3.wsdl, README §5), cut
// out of it unchanged into testdata/outref/outref.wsdl. Split(string s, out string head, ref int count)
// returns an int: its response wrapper holds SplitResult, head and count, in that order; Divide is void
// with two out parameters, quotient and remainder. ASMX offers neither on HTTP GET or POST.
//
// It exists for tests: they serve it through server.NewHandler(outref.Bind(svc), ...) and replay the
// captures of that section.
//
// This file is the only one written by hand; outref.go and outref_wire.go are generated like gen/,
// and `make check-generate` keeps them in step.
package outref

//go:generate go run ../../.. -wsdl ../testdata/outref/outref.wsdl -o outref.go -wire outref_wire.go -pkg outref
