package zoo_test

import (
	"context"
	"strconv"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// The header methods of zoo3's twin, as hdrService writes them for zoo/zoohdr (hdr_service_test.go);
// their captures are replayed, with their deviations, over zoo/zoohdr (TestHdrReplay).

func zoo3AuthText(h *zoo3.AuthHeader) string {
	if h == nil {
		return "no AuthHeader"
	}
	return "AuthHeader User=" + h.User + ";Token=" + h.Token + ";MustUnderstand=False;Actor=;DidUnderstand=True"
}

func (zoo3Service) WhoAmIContext(_ context.Context, r *zoo3.WhoAmI) (*zoo3.WhoAmIResponse, error) {
	return &zoo3.WhoAmIResponse{WhoAmIResult: zoo3AuthText(r.AuthHeader)}, nil
}

func (zoo3Service) WhoAmIOptionalContext(_ context.Context, r *zoo3.WhoAmIOptional) (*zoo3.WhoAmIOptionalResponse, error) {
	return &zoo3.WhoAmIOptionalResponse{WhoAmIOptionalResult: zoo3AuthText(r.AuthHeader)}, nil
}

func (zoo3Service) PingContext(_ context.Context, r *zoo3.Ping) (*zoo3.PingResponse, error) {
	if r.N < 0 {
		return nil, fault.Errorf(fault.InvalidArgument, "n must not be negative")
	}
	return &zoo3.PingResponse{PingResult: r.N + 1,
		TraceHeader:               &zoo3.TraceHeader{RequestId: "req-" + strconv.Itoa(int(r.N)), Step: r.N},
		TraceHeaderMustUnderstand: r.N >= 100}, nil
}

func (zoo3Service) RenewContext(_ context.Context, r *zoo3.Renew) (*zoo3.RenewResponse, error) {
	resp := &zoo3.RenewResponse{RenewResult: zoo3AuthText(r.AuthHeader)}
	if h := r.AuthHeader; h != nil {
		resp.AuthHeader = &zoo3.AuthHeader{User: h.User, Token: h.Token + "+" + strconv.Itoa(int(r.Days)) + "d"}
	}
	return resp, nil
}

func (zoo3Service) AuditContext(_ context.Context, r *zoo3.Audit) (*zoo3.AuditResponse, error) {
	return &zoo3.AuditResponse{AuditResult: zoo3AuthText(r.AuthHeader) + "|text=" + r.Text,
		TraceHeader: &zoo3.TraceHeader{RequestId: "audit-" + r.Text, Step: 1}}, nil
}
