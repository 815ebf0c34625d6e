// Package renamed is the wire code tools/gowsdlgen generates from a contract whose element names are
// not derived from its operation names: the Renamed and Lookup operations of the third ASMX zoo
// (shapes/zoo3.wsdl, README §6), cut out of it unchanged into testdata/renamed/renamed.wsdl. Renamed's
// result is [return: XmlElement("Answer")] and its parameters [XmlElement("x-id")] id and
// [XmlElement("Count")] n, which HTTP GET and POST still call id and n; Lookup has
// ResponseElementName = "LookupReply".
//
// It exists for tests: they serve it through server.NewHandler(renamed.Bind(svc), ...) and replay the
// captures of that section.
//
// This file is the only one written by hand; renamed.go and renamed_wire.go are generated like gen/,
// and `make check-generate` keeps them in step.
package renamed

//go:generate go run ../../.. -wsdl ../testdata/renamed/renamed.wsdl -o renamed.go -wire renamed_wire.go -pkg renamed
