// Package docs serves what describes the service: the contract at ?WSDL (the WSDL the contract was
// generated from, with the deployment's namespace when it is rebased, its address, and only the
// bindings of the protocols served), the DISCO document at ?disco, and ASMX-style help pages with a
// test form and sample messages of every served binding. It also decides the address those documents
// show (--public-url, --trusted-proxies) and marks documents whose address follows the request as
// private to caches.
//
// The samples come through the binding.Binding interface (WriteSample, given placeholder messages) and
// the bundled client, never by reaching into a binding. Everything about the contract (its document,
// service, operations, endpoint path and namespace) comes from the wire.Contract and operation table
// the handler serves, so each contract served describes itself. docs may import the standard library,
// server/binding, server/client, server/fault and server/wire, and never a binding family or a
// contract's own package (gen, wsdl).
package docs
