// Package xmlwire is the XML runtime of the generated codecs: the limited streaming Reader (a fast
// path for the common shape of a request, falling back to encoding/xml), its Limits, and the
// append-style writer of elements and escaped text. The SOAP binding and the HTTP GET/POST results
// read and write through it.
//
// It may import only the standard library, server/fault and server/wire/xsd.
package xmlwire
