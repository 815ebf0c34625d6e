package zoo_test

import (
	"context"
	"math"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
)

// TestClientRoundTrip calls every operation of the zoo through the generated client stub and the
// bundled client over every binding that offers it, and requires the response the service returned,
// decoded: every XSD type of the subset as a parameter, a result, an HTTP root, null and void.
func TestClientRoundTrip(t *testing.T) {
	svc := &zooService{}
	srv := httptest.NewServer(newZooHandler(t, svc))
	defer srv.Close()
	ctx := context.Background()

	at := func(s string) wire.DateTime {
		d, ok := wire.ParseDateTime(s)
		require.True(t, ok, s)
		return d
	}
	when := at("2026-11-22T10:15:30.123+01:00") // a fixed zone, as every decoded offset is
	makeNoKey := &zoo.MakeSampleNoKey{Text: hostile + "\r\n\t", Count: -3, Big: math.MinInt64, Small: math.MaxInt16, Flag: true,
		Amount: wire.MustParseDecimal("-0.0100"), Ratio: 1.0 / 3, Approx: math.SmallestNonzeroFloat32, When: when, Level: "Gold"}
	direct, err := svc.MakeSampleNoKeyContext(ctx, makeNoKey)
	require.NoError(t, err)

	calls := []struct {
		name string
		call func(s *zoo.SyncSoapClient) (any, error)
		want any
	}{
		{"MakeSampleNoKey", func(s *zoo.SyncSoapClient) (any, error) { return s.MakeSampleNoKeyContext(ctx, makeNoKey) }, direct},
		{"NextTier", func(s *zoo.SyncSoapClient) (any, error) { return s.NextTierContext(ctx, &zoo.NextTier{T: "Gold"}) },
			&zoo.NextTierResponse{NextTierResult: "Bronze"}},
		{"NextTier default", func(s *zoo.SyncSoapClient) (any, error) { return s.NextTierContext(ctx, &zoo.NextTier{}) },
			&zoo.NextTierResponse{NextTierResult: "Silver"}},
		{"Bytes", func(s *zoo.SyncSoapClient) (any, error) { return s.BytesContext(ctx, &zoo.Bytes{N: 5}) },
			&zoo.BytesResponse{BytesResult: []byte{0xFB, 0xFC, 0xFD, 0xFE, 0xFF}}},
		{"Bytes empty", func(s *zoo.SyncSoapClient) (any, error) { return s.BytesContext(ctx, &zoo.Bytes{N: 0}) },
			&zoo.BytesResponse{BytesResult: []byte{}}},
		{"Bytes null", func(s *zoo.SyncSoapClient) (any, error) { return s.BytesContext(ctx, &zoo.Bytes{N: -1}) },
			&zoo.BytesResponse{}},
		{"Nothing", func(s *zoo.SyncSoapClient) (any, error) { return s.NothingContext(ctx, &zoo.Nothing{S: "x"}) },
			&zoo.NothingResponse{}},
		{"Now", func(s *zoo.SyncSoapClient) (any, error) {
			r, err := s.NowContext(ctx, &zoo.Now{})
			if err == nil {
				r.NowResult = at(r.NowResult.String()) // Berlin's zone and the fixed zone read back differ only in name
			}
			return r, err
		},
			&zoo.NowResponse{NowResult: when}},
		{"MaybeCount", func(s *zoo.SyncSoapClient) (any, error) { return s.MaybeCountContext(ctx, &zoo.MaybeCount{}) },
			&zoo.MaybeCountResponse{MaybeCountResult: ptr(int32(7))}},
		{"MaybeCount null", func(s *zoo.SyncSoapClient) (any, error) { return s.MaybeCountContext(ctx, &zoo.MaybeCount{None: true}) },
			&zoo.MaybeCountResponse{}},
		{"ListSamples null", func(s *zoo.SyncSoapClient) (any, error) { return s.ListSamplesContext(ctx, &zoo.ListSamples{N: -1}) },
			&zoo.ListSamplesResponse{}},
	}
	for _, b := range client.Bindings {
		stub := &zoo.SyncSoapClient{Invoker: &client.Client{Endpoint: srv.URL + "/contactsync/v1/sync.asmx", Namespace: zooNamespace, Binding: b}}
		for _, c := range calls {
			t.Run(string(b)+"/"+c.name, func(t *testing.T) {
				got, err := c.call(stub)
				require.NoError(t, err)
				assert.Equal(t, c.want, got)
			})
		}
	}
}
