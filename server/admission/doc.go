// Package admission lets operation requests in without letting a slow or hostile client monopolise
// the service. An operation request passes three gates, each bounded, each refusing at once with
// Unavailable (503 + Retry-After) when full, before it costs more than its headers:
//
//  1. pending: at most MaxPending requests read their body, decode it, check its credentials or wait
//     for an operation slot at once.
//  2. body bytes: the bodies held in memory (being read, waiting, being served) total at most
//     MaxBodyBytesInFlight; a request reserves its Content-Length before reading a byte.
//  3. operation slots: at most MaxConcurrent requests call the service and encode at once.
//
// The body is read, decoded and its credentials checked before a slot is taken (Admit, then Enter).
// It must arrive at MinBodyRate or faster (after a grace of a few seconds), so a client trickling its
// body holds only a pending place, which it loses within seconds, never an operation slot: before, 300 connections sending a byte a second made every
// operation answer 503 for 30 s. A request whose body is read waits for a slot up to QueueTimeout
// (first come, first served) instead of being refused at once: refusing at once makes clients that
// retry at once spin, and at 4x MaxConcurrent connections the spinning took most of the CPU (goodput
// fell to a fifth). Waiting costs a parked goroutine and the body, which gate 2 bounds. Checking
// credentials outside the slots matters as much: a wrong password costs a bcrypt comparison, which
// waits for one of the authenticator's own few bcrypt slots, and 64 connections of wrong passwords
// holding operation slots while they waited starved every other caller.
//
// admission knows no binding: a binding may refuse a body from its first bytes through
// PrefixChecker. It may import the standard library, server/fault and server/binding (the buffer
// pool), and never a binding family.
package admission
