// Package open is the wire code tools/gowsdlgen generates from ../testdata/open/open.wsdl, a contract
// holding one of each open shape an ASMX contract has (shapes README §3, §4): an object parameter,
// result and field, ArrayOfAnyType, XmlElement, XmlNode, XmlNode[], a DataSet in both WSDL forms (real
// contracts' s:schema reference and zoo3's two namespaced s:any), an object result on HTTP GET, and
// Stock, whose response reaches an object through a derived result, an out parameter and an Out
// header (the CheckObjects each gets, which CheckResult asks before writing). It is the golden
// output of those generator paths: `make check-generate` regenerates it, fails on any
// difference, and builds and vets it; ../open_test.go serves it.
//
// This file is the only one written by hand; open.go and open_wire.go are generated like gen/.
package open

//go:generate go run ../../.. -wsdl ../testdata/open/open.wsdl -o open.go -wire open_wire.go -pkg open
