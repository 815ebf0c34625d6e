// Package names is the wire code tools/gowsdlgen generates from a contract whose names Go cannot take
// as they are (../testdata/names/names.wsdl): lower-case operation, portType and type names
// (deletePerformance, urunServisSoap, urunBilgi), non-ASCII names (ürünKodu), elements and operations
// whose names differ only in case (adet and Adet, echo and Echo), names that are Go keywords or
// predeclared identifiers (type, range, len, map, string), a name Go cannot spell (x-id), and a
// description of several lines holding "*/", "<" and "&".
//
// It exists for tests: ../names_test.go checks that it exports what a service must implement, and
// serves it through the real bindings to check that the WSDL's names are what travels.
//
// This file is the only one written by hand; names.go and names_wire.go are generated like gen/, and
// `make check-generate` keeps them in step.
package names

//go:generate go run ../../.. -wsdl ../testdata/names/names.wsdl -o names.go -wire names_wire.go -pkg names
