// Package observe is how the service is operated: the request middleware (X-Request-ID, the in-flight
// gauge, the request counter and latency histogram, one access line per request), the Prometheus
// metrics, the access log's line writer, and the operational endpoints /healthz, /readyz and /metrics.
//
// The handler reports what it decided about a request (binding, operation, error code) into the
// request's Exchange, so every label comes from a closed set written here or given by the handler from
// the contract it serves (Labels), never from the request. observe knows no binding and no contract:
// it may import the standard library, client_golang, server/fault (the codes and their outcomes) and
// server/store (for /readyz), and never a binding package or generated code.
package observe
