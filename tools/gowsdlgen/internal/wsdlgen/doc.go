// Package wsdlgen is the logic of the gowsdlgen command, which generates gen/ from the WSDL contract.
//
// Running gowsdl directly on wsdl/contactsync.wsdl gives broken code, because the contract describes
// the HTTP GET and POST bindings too and gowsdl only understands SOAP: the HTTP-only global element
// "int" becomes `type int int32`, the parameterless HTTP messages produce warnings and malformed
// interfaces, and every field is tagged omitempty, so a required xsd:int that is 0 disappears from the
// wire. The pipeline, Generate, parses the contract once, reads its model (refusing anything outside
// the XSD subset an ASMX contract uses, with its line), and fixes each at its cause:
//
//  1. SOAPView cuts everything only the non-SOAP bindings need out of the document, byte for byte;
//  2. RunGowsdl runs the gowsdl library on that view and treats its warnings as errors;
//  3. PostProcess removes omitempty where the model requires the element (RequiredFields), refuses
//     declarations that shadow Go's predeclared identifiers, and names the source in the header.
package wsdlgen
