// Package oneway is the wire code tools/gowsdlgen generates from a contract with a one-way operation:
// the Notify and NotifyCount operations of the third ASMX zoo (shapes/zoo3.wsdl, README §10), cut out
// of it unchanged into testdata/oneway/oneway.wsdl. Notify is [SoapDocumentMethod(OneWay = true)]: its
// portType operation has no wsdl:output, and GET/POST offer it as a void method.
//
// It exists for tests: they serve it through server.NewHandler(oneway.Bind(svc), ...) and check that a
// one-way call is acknowledged with 202 before the method runs, and that GET and POST run it before
// answering.
//
// This file is the only one written by hand; oneway.go and oneway_wire.go are generated like gen/,
// and `make check-generate` keeps them in step.
package oneway

//go:generate go run ../../.. -wsdl ../testdata/oneway/oneway.wsdl -o oneway.go -wire oneway_wire.go -pkg oneway
