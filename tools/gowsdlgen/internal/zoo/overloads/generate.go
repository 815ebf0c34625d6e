// Package overloads is the wire code tools/gowsdlgen generates from a contract with MessageName
// overloads: the Add and Scale operations of the third ASMX zoo (shapes/zoo3.wsdl, README §6), cut out
// of it unchanged into testdata/overloads/overloads.wsdl. Each portType holds two operations named Add
// (Add(int, int), and Add(double, double) with MessageName AddDoubles) and two named Scale (ScaleInt
// and ScaleText); the message name, the portType operation's wsdl:input/@name, names everything else.
//
// It exists for tests: they serve it through server.NewHandler(overloads.Bind(svc), ...) and replay
// the captures of that section.
//
// This file is the only one written by hand; overloads.go and overloads_wire.go are generated like
// gen/, and `make check-generate` keeps them in step.
package overloads

//go:generate go run ../../.. -wsdl ../testdata/overloads/overloads.wsdl -o overloads.go -wire overloads_wire.go -pkg overloads
