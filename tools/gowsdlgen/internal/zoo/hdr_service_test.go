package zoo_test

import (
	"context"
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoohdr"
)

// hdrService is the Go twin of the header methods of Zoo3.cs (shapes §1): each returns what its
// AuthHeader held, as Zoo3.cs's AuthText writes it, and sets the Out headers Zoo3.cs sets. The
// SoapHeader base members (MustUnderstand, Actor, DidUnderstand) have no Go counterpart: the binding
// checks mustUnderstand and actor itself, so the twin writes their values for a header that was
// bound and understood.
type hdrService struct{}

var _ zoohdr.SyncSoapServer = hdrService{}

func authText(h *zoohdr.AuthHeader) string {
	if h == nil {
		return "no AuthHeader"
	}
	return "AuthHeader User=" + h.User + ";Token=" + h.Token + ";MustUnderstand=False;Actor=;DidUnderstand=True"
}

func (hdrService) WhoAmIContext(_ context.Context, r *zoohdr.WhoAmI) (*zoohdr.WhoAmIResponse, error) {
	return &zoohdr.WhoAmIResponse{WhoAmIResult: authText(r.AuthHeader)}, nil
}

func (hdrService) WhoAmIOptionalContext(_ context.Context, r *zoohdr.WhoAmIOptional) (*zoohdr.WhoAmIOptionalResponse, error) {
	return &zoohdr.WhoAmIOptionalResponse{WhoAmIOptionalResult: authText(r.AuthHeader)}, nil
}

func (hdrService) PingContext(_ context.Context, r *zoohdr.Ping) (*zoohdr.PingResponse, error) {
	if r.N < 0 {
		return nil, fault.Errorf(fault.InvalidArgument, "n must not be negative")
	}
	return &zoohdr.PingResponse{PingResult: r.N + 1,
		TraceHeader:               &zoohdr.TraceHeader{RequestId: "req-" + strconv.Itoa(int(r.N)), Step: r.N},
		TraceHeaderMustUnderstand: r.N >= 100}, nil
}

func (hdrService) RenewContext(_ context.Context, r *zoohdr.Renew) (*zoohdr.RenewResponse, error) {
	resp := &zoohdr.RenewResponse{RenewResult: authText(r.AuthHeader)}
	if h := r.AuthHeader; h != nil {
		resp.AuthHeader = &zoohdr.AuthHeader{User: h.User, Token: h.Token + "+" + strconv.Itoa(int(r.Days)) + "d"}
	}
	return resp, nil
}

func (hdrService) AuditContext(_ context.Context, r *zoohdr.Audit) (*zoohdr.AuditResponse, error) {
	return &zoohdr.AuditResponse{AuditResult: authText(r.AuthHeader) + "|text=" + r.Text,
		TraceHeader: &zoohdr.TraceHeader{RequestId: "audit-" + r.Text, Step: 1}}, nil
}

// ListUnknownHeadersContext lists the headers the operation does not declare, as Zoo3.cs lists its
// SoapUnknownHeader[] (null on GET and POST). It cannot mark one understood: an undeclared block
// with mustUnderstand never reaches it.
func (hdrService) ListUnknownHeadersContext(ctx context.Context, _ *zoohdr.ListUnknownHeaders) (*zoohdr.ListUnknownHeadersResponse, error) {
	return &zoohdr.ListUnknownHeadersResponse{ListUnknownHeadersResult: unknownHeadersText(ctx)}, nil
}

// unknownHeadersText writes the undeclared header blocks of the request as Zoo3.cs's
// ListUnknownHeaders writes its SoapUnknownHeader[]; zoo3's twin and zoohdr's share it.
func unknownHeadersText(ctx context.Context) string {
	blocks := wire.UnknownHeaders(ctx)
	if blocks == nil {
		return "Unknowns=null"
	}
	var parts []string
	for _, h := range blocks {
		mu := "False"
		if h.MustUnderstand {
			mu = "True"
		}
		parts = append(parts, "{"+h.Name.Space+"}"+h.Name.Local+" mu="+mu+" actor="+h.Actor+" xml="+string(h.XML))
	}
	return strconv.Itoa(len(blocks)) + ": " + strings.Join(parts, " | ")
}
