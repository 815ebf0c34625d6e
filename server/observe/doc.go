// Package observe is how the service is operated: the request middleware (X-Request-ID, the in-flight
// gauge, one event record per request and the observers that read it), the Prometheus metrics, the
// access log (its line writer is observe/accesslog), the debug trace, and the operational endpoints /healthz, /readyz and
// /metrics.
//
// The handler reports each stage of a request once (the binding chosen, the authentication decision,
// admission, decoding, the operation's result; the store adds its time) into the request's Exchange,
// whose Events every Observer reads when the request is answered: the metrics, the access log, the
// debug trace (--log-level debug), and any registered in Config.Observers. Every label comes from a
// closed set written here or given by the handler from the contract it serves (Labels), never from
// the request. observe knows no binding and no contract: it may import the standard library,
// client_golang, server/wire (the decoded operation and message the debug trace lists the parameters
// of), server/fault (the codes and their outcomes) and server/store (for /readyz), and never a binding
// package or generated code.
package observe
