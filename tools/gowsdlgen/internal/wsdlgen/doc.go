// Package wsdlgen is the logic of the gowsdlgen command, which generates gen/ from the WSDL contract:
// the driver that runs the generator's packages in order.
//
// Running gowsdl directly on wsdl/contactsync.wsdl gives broken code, because the contract describes
// the HTTP GET and POST bindings too and gowsdl only understands SOAP: the HTTP-only global element
// "int" becomes `type int int32`, the parameterless HTTP messages produce warnings and malformed
// interfaces, and every field is tagged omitempty, so a required xsd:int that is 0 disappears from the
// wire. The pipeline, Generate, parses the contract once (package wsdl), rewrites its document/literal
// bare messages into wrapped ones (package bare: the wrappers <Name>Request and <Name>Response, every
// line kept; the operation is marked Bare and ?WSDL serves the contract as written), reads its model
// (package model, refusing anything outside the XSD subset an ASMX contract uses, with its line), and
// fixes each at its cause:
//
//  1. wsdl.SOAPView cuts everything only the non-SOAP bindings need out of the document, byte for byte;
//  2. RunGowsdl runs the gowsdl library on that view and treats its warnings as errors;
//  3. postprocess.PostProcess removes omitempty where the model requires the element
//     (model.Contract.GoFieldsToFix), refuses declarations that shadow Go's predeclared identifiers, and
//     names the source in the header.
//
// The wire code (Options.Wire) is written from the model by the emitters: emit/xmlcodec (operation
// table, XML codec, forms, client stub, with emit/jsoncodec's JSON entries), then emit/record.
//
// The generator's packages, under tools/gowsdlgen/internal/, and what each may import:
//
//	wsdl            the parsed tree and the SOAP-only view          std
//	bare            bare messages rewritten into wrappers           wsdl
//	names           Go identifiers from XML names                   std
//	contract        the contract model's types, their Go names      wsdl, names
//	model           the model read from the WSDL, and its refusals  wsdl, names, contract
//	headers         SOAP headers read into the model, refusals      wsdl, names, model
//	postprocess     gowsdl's output fixed and checked               model, names
//	emit            the emitters' Writer and shared helpers         model, names
//	emit/jsoncodec  the JSON endpoint's codec                       emit, model
//	emit/xmlcodec   operation table, XML codec, forms, client       emit, emit/jsoncodec, model, names, wsdl
//	emit/record     the record codec                                emit, model
//	wsdlgen         this driver: gowsdl, files                      all of the above
//
// imports_test.go holds each package to its list.
package wsdlgen
