package service

import (
	"context"

	"github.com/contactsync/contactsync/gen"
)

// GreetContext greets the caller its CallerHeader names and sends a TraceHeader back: the SOAP header
// operation of the contract-evolution patches (an In and an Out header; GET and POST carry none).
func (s *Service) GreetContext(_ context.Context, req *gen.Greet) (*gen.GreetResponse, error) {
	caller := "nobody"
	if req.CallerHeader != nil && req.CallerHeader.Caller != "" {
		caller = req.CallerHeader.Caller
	}
	return &gen.GreetResponse{GreetResult: "Hello " + req.Name + " from " + caller,
		TraceHeader: &gen.TraceHeader{RequestId: "greet-" + req.Name, Step: 1}}, nil
}
