package zoo_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
)

func ptr[T any](v T) *T { return &v }

const hostile = `<&>"' café 😀`

// TestCapturedRequestsDecode: the captured requests decode, through the real bindings and the
// generated decoders, to the values Zoo.cs saw (its responses echo them), lexical edge cases included.
func TestCapturedRequestsDecode(t *testing.T) {
	at := func(s string) xsd.DateTime {
		d, ok := xsd.ParseDateTime(s)
		require.True(t, ok, s)
		return d
	}
	key := xsd.MustParseGUID("0f8fad5b-d9cb-469f-a165-70867728950e")
	line := func(s string) *string { return &s }
	tests := map[string]any{
		"soap11-MakeSample": &zoo.MakeSample{Text: hostile, Count: 42, Big: 9007199254740993, Small: -1234, Flag: true,
			Amount: xsd.MustParseDecimal("12345.6789"), Ratio: 0.1, Approx: 1.5, When: at("2026-11-22T10:15:30.123Z"), Key: key, Level: "Gold"},
		"soap11-MakeSample-no-offset": &zoo.MakeSample{Text: hostile, Count: 7, Big: 9007199254740993, Small: -1234, Flag: true,
			Amount: xsd.MustParseDecimal("12345.6789"), Ratio: 0.1, Approx: 1.5, When: xsd.DateTime{Time: time.Date(2026, 11, 22, 10, 15, 30, 123e6, time.UTC), NoZone: true},
			Key: key, Level: "Bronze"},
		// Every element but text is missing: they take the defaults (Level "" is Bronze).
		"soap11-MakeSample-missing-elements": &zoo.MakeSample{Text: "x"},
		"get-MakeSampleNoKey": &zoo.MakeSampleNoKey{Text: hostile, Count: 42, Big: 9007199254740993, Small: -1234, Flag: true,
			Amount: xsd.MustParseDecimal("12345.6789"), Ratio: 0.1, Approx: 1.5, When: at("2026-11-22T10:15:30.123Z"), Level: "Gold"},
		"soap11-Nothing":         &zoo.Nothing{S: hostile},
		"soap11-Now-bool-1":      &zoo.Now{Utc: true},
		"get-NextTier":           &zoo.NextTier{T: "Gold"},
		"soap11-EchoSample-null": &zoo.EchoSample{},
		"soap11-EchoSample": &zoo.EchoSample{Sample: &zoo.Sample{Text: hostile, Count: -7, Big: math.MinInt64, Small: 32767,
			Amount: xsd.MustParseDecimal("-0.0100"), Ratio: -1.5e-10, Approx: math.MaxFloat32,
			When: at("2026-11-22T10:15:30.1234567+05:30"), Data: []byte{0, 1, 2, 3, 4, 5, 0xff}, Key: key, Level: "Silver",
			Home: &zoo.Address{Street: "1 Main St", City: "Zürich", Lines: &zoo.ArrayOfString{}},
			Others: &zoo.ArrayOfAddress{Address: []*zoo.Address{
				{Street: "2 Side St", Lines: &zoo.ArrayOfString{Astring: []*string{line("a"), nil, line("")}}},
				nil,
			}},
			Tags:    &zoo.ArrayOfString{Astring: []*string{line("x"), nil, line("")}},
			Numbers: &zoo.ArrayOfInt{},
		}},
		// " 42 ", "+5", "-0", "1", "+1.50", "INF", "-0", an empty base64Binary, and elements out of order.
		"soap11-EchoSample-lexical-edges": &zoo.EchoSample{Sample: &zoo.Sample{Text: "", Count: 42, Big: 5, Small: 0, Flag: true,
			Amount: xsd.MustParseDecimal("1.50"), Ratio: math.Inf(1), Approx: float32(math.Copysign(0, -1)),
			When: xsd.DateTime{Time: time.Date(2026, 11, 22, 10, 15, 30, 0, time.UTC), NoZone: true}, Data: []byte{},
			Key: xsd.MustParseGUID("00000000-0000-0000-0000-000000000001"), Level: "Gold", MaybeInt: ptr(int32(0)),
			MaybeWhen: ptr(at("2026-11-22T10:15:30Z")), Home: &zoo.Address{}, Tags: &zoo.ArrayOfString{},
			Numbers: &zoo.ArrayOfInt{Int: []int32{1, math.MinInt32}},
		}},
	}
	byName := map[string]*capture{}
	for _, c := range readCaptures(t) {
		byName[c.name] = c
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			c := byName[name]
			require.NotNil(t, c)
			svc := &zooService{}
			rec := replay(newZooHandler(t, svc), c)
			require.Equal(t, 200, rec.Code, rec.Body.String())
			assert.Equal(t, want, svc.seen)
		})
	}
	// -0 as an xsd:float keeps its sign.
	svc := &zooService{}
	replay(newZooHandler(t, svc), byName["soap11-EchoSample-lexical-edges"])
	assert.True(t, math.Signbit(float64(svc.seen.(*zoo.EchoSample).Sample.Approx)))
}
