// Package httpform is the HTTP GET and HTTP POST binding of an ASMX service: the operation is the last
// path segment, its parameters come by name from the query string or an
// application/x-www-form-urlencoded body and are bound by XSD type through the generated table, and
// the result is a bare XML document whose root is the global element named after the result's type.
// Errors are a text/plain message with the code's HTTP status.
//
// It may import the standard library, server/binding, server/fault and server/wire, and never another
// binding family or a contract's own package; only the server root imports it.
package httpform
