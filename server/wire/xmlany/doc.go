// Package xmlany carries the XML content an ASMX contract leaves open (asmx-typezoo/shapes, README §2
// to §4): raw XML (s:any; XmlElement, XmlNode and XmlNode[] in C#), a DataSet's content, carried
// untouched, and the xsi:type attribute by which a value names its type, read against the prefixes in
// scope, checked against the declared type's hierarchy (Dispatch) and written as ASMX writes it. Raw XML is kept in a canonical form (exclusive XML
// canonicalization plus the declarations QName-valued attributes need), so it reads the same in any
// envelope it is moved into and is written back byte for byte.
//
// It may import only the standard library, server/fault and server/wire/xmlwire (its Reader's scope
// and raw content).
package xmlany
