// Package anytype holds Object, the value of an xsd:anyType element (C#'s object: an element without
// a type attribute in the WSDL), and its XML reader and writer, which take the contract's types from a
// Registry the generated code fills: the runtime never imports generated code (asmx-typezoo/shapes,
// README §3).
//
// It may import only the standard library, server/fault, server/wire/xsd, server/wire/xmlwire and
// server/wire/xmlany.
package anytype
