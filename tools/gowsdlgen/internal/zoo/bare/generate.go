// Package bare is the wire code tools/gowsdlgen generates from a contract of document/literal bare
// operations (ASMX's SoapParameterStyle.Bare): the BareOne, BareTwo, PlaceOrder and BareNothing
// operations of the third ASMX zoo (shapes/zoo3.wsdl, README §8), cut out of it unchanged into
// testdata/bare/bare.wsdl. BareOne takes the element phrase and answers BareOneResult; BareTwo takes
// two parts, word and times; PlaceOrder takes the element Order of a named complex type and answers
// OrderAck ([return: XmlElement]); BareNothing is void, its output message empty.
//
// It exists for tests: they serve it through server.NewHandler(bare.Bind(svc), ...), replay the
// captures of that section and call it with the generated client on every binding.
//
// This file is the only one written by hand; bare.go and bare_wire.go are generated like gen/, and
// `make check-generate` keeps them in step.
package bare

//go:generate go run ../../.. -wsdl ../testdata/bare/bare.wsdl -o bare.go -wire bare_wire.go -pkg bare
