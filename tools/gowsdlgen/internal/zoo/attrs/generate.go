// Package attrs is the wire code tools/gowsdlgen generates from a contract whose record type has
// attributes and simple content ([XmlAttribute], [XmlText]; shapes README §11): the third ASMX zoo's
// Tagged, Perm, Money and Note with EchoTagged, as ASMX writes them, plus what zoo3 does not show
// (an optional dateTime and enumeration attribute, and an array of a simple-content type whose text is
// an unsignedShort), in testdata/attrs/attrs.wsdl.
//
// It exists for tests: ../attrs_test.go round-trips Tagged through the record codec (attributes as
// "@name" members, text as "$text") and through the SOAP binding.
//
// This file is the only one written by hand; attrs.go and attrs_wire.go are generated like gen/, and
// `make check-generate` keeps them in step.
package attrs

//go:generate go run ../../.. -wsdl ../testdata/attrs/attrs.wsdl -o attrs.go -wire attrs_wire.go -pkg attrs -record Tagged -record-key Name -record-index Permissions
