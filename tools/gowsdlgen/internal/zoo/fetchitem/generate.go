// Package fetchitem is the wire code tools/gowsdlgen generates from a contract with a custom
// SOAPAction and a second schema namespace: the FetchItem operation of the third ASMX zoo
// (shapes/zoo3.wsdl, README §6), cut out of it unchanged into testdata/fetchitem/fetchitem.wsdl.
// FetchItem is [SoapDocumentMethod("urn:items/fetch", RequestElementName = "GetItem", RequestNamespace
// = "urn:items", ResponseElementName = "GetItemReply", ResponseNamespace = "urn:items")]: its wrappers
// are {urn:items}GetItem and {urn:items}GetItemReply, in a schema of their own with qualified elements,
// and its SOAPAction on both SOAP bindings is urn:items/fetch; HTTP GET and POST answer in the service
// namespace.
//
// It exists for tests: they serve it through server.NewHandler(fetchitem.Bind(svc), ...) and replay
// the captures of that operation.
//
// This file is the only one written by hand; fetchitem.go and fetchitem_wire.go are generated like
// gen/, and `make check-generate` keeps them in step.
package fetchitem

//go:generate go run ../../.. -wsdl ../testdata/fetchitem/fetchitem.wsdl -o fetchitem.go -wire fetchitem_wire.go -pkg fetchitem
