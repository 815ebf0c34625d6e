// Package zoo2 is the wire code tools/gowsdlgen generates from the second ASMX type zoo, a contract
// whose operations each take one parameter and echo what they read: arrays of string, int and
// dateTime offered on HTTP GET and POST (the AbstractTypes schema's StringArray parts), a dateTime
// parameter and field, and one parameter of each of guid (SOAP only), decimal, double, float, string,
// int, boolean and an enumeration.
//
// It exists for tests: the zoo package's replay test (../zoo2_replay_test.go) serves it through the
// real bindings with a Go twin of the reference service, ../testdata/more/Zoo2.cs, and replays every
// exchange captured from ASMX (../testdata/more/captures), comparing accepted against refused and the
// value echoed. ../testdata/more/README.md describes the captures; the contract is
// ../testdata/more/zoo2.wsdl, exactly as ASMX served it.
//
// This file is the only one written by hand; zoo2.go and zoo2_wire.go are generated like gen/, and
// `make check-generate` keeps them in step.
package zoo2

//go:generate go run ../../.. -wsdl ../testdata/more/zoo2.wsdl -o zoo2.go -wire zoo2_wire.go -pkg zoo2 -record Stamp -record-key Kind -record-index When
