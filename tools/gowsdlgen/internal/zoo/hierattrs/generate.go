// Package hierattrs is the wire code tools/gowsdlgen generates from a small contract whose
// hierarchy carries attributes ([XmlAttribute] on a base and on derived classes): Item has the
// attributes Id and rev, Tool derives from it adding Sharp and Grade, the abstract Box adds Size and
// Crate, derived from Box, adds Lid; Shelf, the record type, holds an Item field, an ArrayOfItem and a
// field declared with the derived Tool. The contract is ../testdata/hierattrs/hierattrs.wsdl; GetItem
// offers an Item result on SOAP 1.1/1.2 and HTTP GET/POST.
//
// It exists for tests: ../hierattrs_test.go round-trips Shelf values on every binding and through the
// record codec.
//
// This file is the only one written by hand; hierattrs.go and hierattrs_wire.go are generated like
// gen/, and `make check-generate` keeps them in step.
package hierattrs

//go:generate go run ../../.. -wsdl ../testdata/hierattrs/hierattrs.wsdl -o hierattrs.go -wire hierattrs_wire.go -pkg hierattrs -record Shelf -record-key Id -record-index Owner
