// Package docs serves what describes the service: the contract at ?WSDL (the hand-written WSDL with
// the deployment's namespace, its address, and only the bindings of the protocols served), the DISCO
// document at ?disco, and ASMX-style help pages with a test form and sample messages of every served
// binding. It also decides the address those documents show (--public-url, --trusted-proxies) and
// marks documents whose address follows the request as private to caches.
//
// The samples come through the binding.Binding interface (WriteSample, given placeholder messages) and
// the bundled client, never by reaching into a binding. docs may import the standard library, gen, wsdl, server/binding,
// server/client, server/fault and server/wire, and never a binding family.
package docs
