package zoo_test

import (
	"context"
	"time"

	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo2"
)

// zoo2Service is the Go twin of testdata/more/Zoo2.cs: every operation returns what it read, and
// EchoWhen and EchoStamp describe the dateTime they read with .NET's Kind and Ticks, so a replayed
// request shows the value the generated decoder made of it.
type zoo2Service struct{}

var _ zoo2.SyncSoapServer = zoo2Service{}

// dateTimeKind is .NET's DateTime.Kind of the value ASMX would hold for v: Unspecified without a
// zone, Utc for Z. A value with an offset is Local in ASMX, converted to the server's zone; here it
// keeps its offset (docs/xsd-types.md), and its Kind is Local.
func dateTimeKind(v xsd.DateTime) string {
	switch {
	case v.NoZone:
		return "Unspecified"
	case v.Time.Location() == time.UTC:
		return "Utc"
	}
	return "Local"
}

// dateTimeTicks is .NET's DateTime.Ticks: 100 ns units of the wall clock since 0001-01-01.
func dateTimeTicks(v xsd.DateTime) int64 {
	t := v.Time
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	const secondsToUnixEpoch = 62135596800
	return (wall.Unix()+secondsToUnixEpoch)*1e7 + int64(wall.Nanosecond()/100)
}

// fill is Zoo2.cs's Fill: Kind and Ticks from When.
func fill(s *zoo2.Stamp) *zoo2.Stamp {
	s.Kind = dateTimeKind(s.When)
	s.Ticks = dateTimeTicks(s.When)
	return s
}

func (zoo2Service) EchoIdsContext(_ context.Context, r *zoo2.EchoIds) (*zoo2.EchoIdsResponse, error) {
	return &zoo2.EchoIdsResponse{EchoIdsResult: r.Ids}, nil
}

func (zoo2Service) EchoCountsContext(_ context.Context, r *zoo2.EchoCounts) (*zoo2.EchoCountsResponse, error) {
	return &zoo2.EchoCountsResponse{EchoCountsResult: r.Counts}, nil
}

func (zoo2Service) EchoWhensContext(_ context.Context, r *zoo2.EchoWhens) (*zoo2.EchoWhensResponse, error) {
	return &zoo2.EchoWhensResponse{EchoWhensResult: r.Whens}, nil
}

func (zoo2Service) EchoWhenContext(_ context.Context, r *zoo2.EchoWhen) (*zoo2.EchoWhenResponse, error) {
	return &zoo2.EchoWhenResponse{EchoWhenResult: fill(&zoo2.Stamp{When: r.When})}, nil
}

func (zoo2Service) EchoStampContext(_ context.Context, r *zoo2.EchoStamp) (*zoo2.EchoStampResponse, error) {
	if r.Stamp == nil {
		return &zoo2.EchoStampResponse{}, nil
	}
	return &zoo2.EchoStampResponse{EchoStampResult: fill(r.Stamp)}, nil
}

func (zoo2Service) EchoKeyContext(_ context.Context, r *zoo2.EchoKey) (*zoo2.EchoKeyResponse, error) {
	return &zoo2.EchoKeyResponse{EchoKeyResult: r.Key}, nil
}

func (zoo2Service) EchoAmountContext(_ context.Context, r *zoo2.EchoAmount) (*zoo2.EchoAmountResponse, error) {
	return &zoo2.EchoAmountResponse{EchoAmountResult: r.Amount}, nil
}

func (zoo2Service) EchoRatioContext(_ context.Context, r *zoo2.EchoRatio) (*zoo2.EchoRatioResponse, error) {
	return &zoo2.EchoRatioResponse{EchoRatioResult: r.Ratio}, nil
}

func (zoo2Service) EchoApproxContext(_ context.Context, r *zoo2.EchoApprox) (*zoo2.EchoApproxResponse, error) {
	return &zoo2.EchoApproxResponse{EchoApproxResult: r.Approx}, nil
}

// EchoTextContext: C#'s null string has no Go counterpart; "" stands for it (the replay drops empty
// optional strings on both sides, see nullableStrings).
func (zoo2Service) EchoTextContext(_ context.Context, r *zoo2.EchoText) (*zoo2.EchoTextResponse, error) {
	return &zoo2.EchoTextResponse{EchoTextResult: r.Text}, nil
}

func (zoo2Service) EchoIntContext(_ context.Context, r *zoo2.EchoInt) (*zoo2.EchoIntResponse, error) {
	return &zoo2.EchoIntResponse{EchoIntResult: r.N}, nil
}

func (zoo2Service) EchoFlagContext(_ context.Context, r *zoo2.EchoFlag) (*zoo2.EchoFlagResponse, error) {
	return &zoo2.EchoFlagResponse{EchoFlagResult: r.Flag}, nil
}

func (zoo2Service) EchoTierContext(_ context.Context, r *zoo2.EchoTier) (*zoo2.EchoTierResponse, error) {
	return &zoo2.EchoTierResponse{EchoTierResult: r.Tier}, nil
}
