// Package formwire reads the parameters of an HTTP GET query or POST form body for the generated
// DecodeForm functions, with ASMX's rules (Form, Param and one reader per XSD type), and formats
// simple values as form values for the client.
//
// It may import only the standard library, server/fault and server/wire/xsd.
package formwire
