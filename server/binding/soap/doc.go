// Package soap is the SOAP 1.1 and SOAP 1.2 binding: one Binding type with a version flag. It routes a
// request by its action and body element through the generated operation table, decodes the envelope
// (a fast reader for the common shape, falling back to the full streaming decoder, both held to the
// parse budget checked before), reads the WS-Security header's UsernameToken as the request's
// credentials, writes responses into precomputed envelopes and maps the service's error codes to SOAP
// faults (SOAP 1.1 §4.4, SOAP 1.2 Part 1 §5.4) from fault's table.
//
// It may import the standard library, server/binding, server/fault, server/wire and server/auth, and
// never another binding family; only the server root imports it.
package soap
