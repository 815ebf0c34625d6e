// Package binding is what every wire protocol of the service shares: the Binding interface the handler
// drives, with the Route each binding declares (its path, methods and media type, and its answer when
// switched off), from which the handler builds its dispatch; the decoded Request with the credentials
// its body carried; the Sample the help pages have written; the set of protocols a deployment serves
// (Protocols); the reader of a request's Content-Type (ReadContentType); the pooled buffers responses are
// written into; and the plain-text error form of requests that reach no binding.
//
// The protocols themselves live in the packages below it, one per wire family: soap (SOAP 1.1 and 1.2),
// httpform (HTTP GET and POST) and json (the ASP.NET AJAX JSON endpoint). They never import each other,
// and only the server root imports them, in its one list of bindings.
// binding may import the standard library, server/fault, server/wire and server/auth (the credential
// types), and never a binding family.
package binding
