package zoo_test

import (
	"context"
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
)

// TestClientRoundTrip calls every operation of the zoo through the generated client stub and the
// bundled client over every binding that offers it, and requires the response the service returned,
// decoded: every XSD type of the subset as a parameter, a result, an HTTP root, null and void.
func TestClientRoundTrip(t *testing.T) {
	svc := &zooService{}
	h, err := server.NewHandler(zoo.Bind(svc), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := context.Background()

	at := func(s string) xsd.DateTime {
		d, ok := xsd.ParseDateTime(s)
		require.True(t, ok, s)
		return d
	}
	when := at("2026-11-22T10:15:30.123+01:00") // a fixed zone, as every decoded offset is
	makeNoKey := &zoo.MakeSampleNoKey{Text: hostile + "\r\n\t", Count: -3, Big: math.MinInt64, Small: math.MaxInt16, Flag: true,
		Amount: xsd.MustParseDecimal("-0.0100"), Ratio: 1.0 / 3, Approx: math.SmallestNonzeroFloat32, When: when, Level: "Gold"}
	direct, err := svc.MakeSampleNoKeyContext(ctx, makeNoKey)
	require.NoError(t, err)
	// A sample whose dateTimes are UTC with whole milliseconds, which the JSON endpoint's
	// "\/Date(ms)\/" carries exactly; the others lose their zone there, by design.
	sample := build(hostile, 42, math.MaxInt64, math.MinInt16, true, xsd.MustParseDecimal("-79228162514264337593543950335"),
		math.Inf(-1), 1.0/3, utc(2026, 11, 22, 10, 15, 30, 123), xsd.MustParseGUID("0F8FAD5B-D9CB-469F-A165-70867728950E"), "Gold")

	calls := []struct {
		name   string
		call   func(s *zoo.SyncSoapClient) (any, error)
		want   any
		noJSON bool // a value whose dateTime zone JSON does not carry
	}{
		{"MakeSampleNoKey", func(s *zoo.SyncSoapClient) (any, error) { return s.MakeSampleNoKeyContext(ctx, makeNoKey) }, direct, true},
		{"EchoSample", func(s *zoo.SyncSoapClient) (any, error) {
			return s.EchoSampleContext(ctx, &zoo.EchoSample{Sample: sample})
		},
			&zoo.EchoSampleResponse{EchoSampleResult: sample}, false},
		{"EchoSample null", func(s *zoo.SyncSoapClient) (any, error) { return s.EchoSampleContext(ctx, &zoo.EchoSample{}) },
			&zoo.EchoSampleResponse{}, false},
		{"NextTier", func(s *zoo.SyncSoapClient) (any, error) { return s.NextTierContext(ctx, &zoo.NextTier{T: "Gold"}) },
			&zoo.NextTierResponse{NextTierResult: "Bronze"}, false},
		{"NextTier default", func(s *zoo.SyncSoapClient) (any, error) { return s.NextTierContext(ctx, &zoo.NextTier{}) },
			&zoo.NextTierResponse{NextTierResult: "Silver"}, false},
		{"Bytes", func(s *zoo.SyncSoapClient) (any, error) { return s.BytesContext(ctx, &zoo.Bytes{N: 5}) },
			&zoo.BytesResponse{BytesResult: []byte{0xFB, 0xFC, 0xFD, 0xFE, 0xFF}}, false},
		{"Bytes empty", func(s *zoo.SyncSoapClient) (any, error) { return s.BytesContext(ctx, &zoo.Bytes{N: 0}) },
			&zoo.BytesResponse{BytesResult: []byte{}}, false},
		{"Bytes null", func(s *zoo.SyncSoapClient) (any, error) { return s.BytesContext(ctx, &zoo.Bytes{N: -1}) },
			&zoo.BytesResponse{}, false},
		{"Nothing", func(s *zoo.SyncSoapClient) (any, error) { return s.NothingContext(ctx, &zoo.Nothing{S: "x"}) },
			&zoo.NothingResponse{}, false},
		{"Now", func(s *zoo.SyncSoapClient) (any, error) {
			r, err := s.NowContext(ctx, &zoo.Now{})
			if err == nil {
				r.NowResult = at(r.NowResult.String()) // Berlin's zone and the fixed zone read back differ only in name
			}
			return r, err
		},
			&zoo.NowResponse{NowResult: when}, true},
		{"Now UTC", func(s *zoo.SyncSoapClient) (any, error) { return s.NowContext(ctx, &zoo.Now{Utc: true}) },
			&zoo.NowResponse{NowResult: utc(2026, 11, 22, 10, 15, 30, 123)}, false},
		{"MaybeCount", func(s *zoo.SyncSoapClient) (any, error) { return s.MaybeCountContext(ctx, &zoo.MaybeCount{}) },
			&zoo.MaybeCountResponse{MaybeCountResult: ptr(int32(7))}, false},
		{"MaybeCount null", func(s *zoo.SyncSoapClient) (any, error) { return s.MaybeCountContext(ctx, &zoo.MaybeCount{None: true}) },
			&zoo.MaybeCountResponse{}, false},
		{"ListSamples null", func(s *zoo.SyncSoapClient) (any, error) { return s.ListSamplesContext(ctx, &zoo.ListSamples{N: -1}) },
			&zoo.ListSamplesResponse{}, false},
	}
	for _, b := range append(client.Bindings, client.JSON) {
		cl := &client.Client{Endpoint: srv.URL + "/contactsync/v1/sync.asmx", Namespace: zooNamespace, Binding: b}
		stub := &zoo.SyncSoapClient{Invoker: cl}
		for _, c := range calls {
			op := wire.Lookup(zoo.Operations, strings.Fields(c.name)[0])
			if !client.Offers(op, b) || b == client.JSON && c.noJSON {
				continue
			}
			t.Run(string(b)+"/"+c.name, func(t *testing.T) {
				got, err := c.call(stub)
				require.NoError(t, err)
				assert.Equal(t, c.want, got)
			})
		}
	}
}
