// Package xsd holds the lexical forms of the XSD simple types an ASMX contract uses, as ASMX
// (XmlSerializer and XmlConvert) writes and reads them: DateTime, Decimal and GUID, the number,
// boolean and base64Binary forms, the forms ASMX's URL reader takes on HTTP GET/POST, and the errors
// (BadValue, Duplicate) every encoding's readers report. Generated code and gowsdl's post-processed
// types name its types (xsd.DateTime, xsd.Decimal, xsd.GUID).
//
// It knows no encoding of a whole document: it may import only the standard library and server/fault.
package xsd
