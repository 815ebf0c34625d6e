package zoo_test

import (
	"context"
	"math"
	"strconv"
	"time"
	_ "time/tzdata" // Europe/Berlin, the reference server's zone, on any machine

	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
)

// zooService is the Go twin of testdata/Zoo.cs: the same operations with the same semantics, so that
// replaying a captured request through the generated codec must give the captured response. Where C#
// has a value Go's types cannot hold (a null string) or a Local DateTime, the comments say what
// stands in for it.
type zooService struct {
	// seen records the last request, for the request-side checks.
	seen any
}

var _ zoo.SyncSoapServer = (*zooService)(nil)

// berlin is the reference server's time zone (TZ=Europe/Berlin): a DateTime of Local kind is written
// with its offset for that date.
var berlin = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return loc
}()

// local is a DateTime of Local kind on the reference server.
func local(year int, month time.Month, day, hour, min, sec, msec int) xsd.DateTime {
	return xsd.DateTime{Time: time.Date(year, month, day, hour, min, sec, msec*int(time.Millisecond), berlin)}
}

func utc(year int, month time.Month, day, hour, min, sec, msec int) xsd.DateTime {
	return xsd.DateTime{Time: time.Date(year, month, day, hour, min, sec, msec*int(time.Millisecond), time.UTC)}
}

func unspecified(year int, month time.Month, day, hour, min, sec, msec int) xsd.DateTime {
	return xsd.DateTime{Time: time.Date(year, month, day, hour, min, sec, msec*int(time.Millisecond), time.UTC), NoZone: true}
}

// ticks is .NET's DateTime(ticks, Utc): 100 ns units since 0001-01-01.
func ticks(n int64) xsd.DateTime {
	const unixEpochTicks = 621355968000000000
	n -= unixEpochTicks
	return xsd.DateTime{Time: time.Unix(n/1e7, n%1e7*100).UTC()}
}

// The edge-value tables of Zoo.cs; ListSamples item i takes entry i % 12 of each.
var (
	tenth  = 0.1 // a variable, so 0.1 + 0.2 is computed in float64 as C# computes it
	ratios = []float64{
		0.1, 1.0 / 3, 1e21, math.NaN(), math.Inf(1), math.Inf(-1),
		math.Copysign(0, -1), math.SmallestNonzeroFloat64, math.MaxFloat64, tenth + 2*tenth, 123456789012345680.0, 1e-7}
	approxes = []float32{
		1.5, 0.1, 1.0 / 3, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, math.MaxFloat32, 16777217, 1e10, 1e-7}
	amounts = []string{
		"12345.6789", "1.10", "0", "-0.5", "79228162514264337593543950335", "-79228162514264337593543950335",
		"0.0000000000000000000000000001", "100", "1.000", "1000000", "-0.000", "7"}
	whens = []xsd.DateTime{
		utc(2026, 11, 22, 10, 15, 30, 123),
		unspecified(2026, 11, 22, 10, 15, 30, 0),
		local(2026, 11, 22, 10, 15, 30, 500),
		{Time: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), NoZone: true}, // DateTime.MinValue, Unspecified
		ticks(636000000000000001),                                      // a 7-digit fraction
		local(2026, 7, 1, 0, 0, 0, 0),                                  // a local summer date
		ticks(3155378975999999999),                                     // DateTime.MaxValue as Utc
		utc(1, 1, 1, 0, 0, 0, 0),
		utc(2000, 2, 29, 23, 59, 59, 10),
		unspecified(2026, 11, 22, 0, 0, 0, 0),
		utc(1969, 12, 31, 23, 59, 59, 999),
		// 2026-03-29 02:30 Local falls in Berlin's DST gap; .NET wrote it with the winter offset,
		// where Go's time.Date would move it to 03:30+02:00.
		{Time: time.Date(2026, 3, 29, 2, 30, 0, 0, time.FixedZone("", 3600))},
	}
	tiers = []zoo.Tier{"Bronze", "Silver", "Gold"}
)

// tierText is a Tier as C#'s ToString() gives it; Go's zero value is .NET's default, Bronze.
func tierText(t zoo.Tier) string {
	if t == "" {
		return "Bronze"
	}
	return string(t)
}

func tierIndex(t zoo.Tier) int {
	for i, v := range tiers {
		if v == t {
			return i
		}
	}
	return 0
}

// dotnetGUID is new Guid(byte[] b): the first three groups are read little-endian.
func dotnetGUID(b [16]byte) xsd.GUID {
	return xsd.GUID{b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]}
}

// build is Zoo.cs's Build. C#'s null text has no Go counterpart: "" stands for it.
func build(text string, count int32, big int64, small int16, flag bool, amount xsd.Decimal,
	ratio float64, approx float32, when xsd.DateTime, key xsd.GUID, level zoo.Tier) *zoo.Sample {
	s := &zoo.Sample{Text: text, Count: count, Big: big, Small: small, Flag: flag, Amount: amount,
		Ratio: ratio, Approx: approx, When: when, Key: key, Level: level}
	s.Data = append([]byte{0xFB, 0xFF, byte(count)}, text...)
	line1 := "Line 1"
	s.Home = &zoo.Address{Street: text, City: "City " + strconv.Itoa(int(count)), Lines: &zoo.ArrayOfString{Astring: []*string{&line1, &text}}}
	o1 := &zoo.Address{Street: "Other 1", City: tierText(level), Lines: &zoo.ArrayOfString{}} // an empty array
	o2 := &zoo.Address{Street: "Other 2"}                                                     // City and Lines stay null
	s.Others = &zoo.ArrayOfAddress{Address: []*zoo.Address{o1, o2}}
	if count != 0 {
		s.MaybeInt = &count
	}
	if flag {
		s.MaybeWhen = &when
	}
	levelText := tierText(level)
	s.Tags = &zoo.ArrayOfString{Astring: []*string{&text, nil, &levelText}}
	s.Numbers = &zoo.ArrayOfInt{Int: []int32{count, int32(small), math.MinInt32}}
	return s
}

func (s *zooService) MakeSampleContext(_ context.Context, r *zoo.MakeSample) (*zoo.MakeSampleResponse, error) {
	s.seen = r
	return &zoo.MakeSampleResponse{MakeSampleResult: build(r.Text, r.Count, r.Big, r.Small, r.Flag, r.Amount, r.Ratio, r.Approx, r.When, r.Key, r.Level)}, nil
}

func (s *zooService) MakeSampleNoKeyContext(_ context.Context, r *zoo.MakeSampleNoKey) (*zoo.MakeSampleNoKeyResponse, error) {
	s.seen = r
	// new Guid(count, small, (short) level, { 0xA0, 0xB1, 0xC2, 0xD3, 0xE4, 0xF5, 0x06, 0x17 })
	c, sm, lv := uint32(r.Count), uint16(r.Small), uint16(tierIndex(r.Level))
	key := xsd.GUID{byte(c >> 24), byte(c >> 16), byte(c >> 8), byte(c), byte(sm >> 8), byte(sm), byte(lv >> 8), byte(lv),
		0xA0, 0xB1, 0xC2, 0xD3, 0xE4, 0xF5, 0x06, 0x17}
	return &zoo.MakeSampleNoKeyResponse{MakeSampleNoKeyResult: build(r.Text, r.Count, r.Big, r.Small, r.Flag, r.Amount, r.Ratio, r.Approx, r.When, key, r.Level)}, nil
}

func (s *zooService) EchoSampleContext(_ context.Context, r *zoo.EchoSample) (*zoo.EchoSampleResponse, error) {
	s.seen = r
	return &zoo.EchoSampleResponse{EchoSampleResult: r.Sample}, nil
}

func (s *zooService) ListSamplesContext(_ context.Context, r *zoo.ListSamples) (*zoo.ListSamplesResponse, error) {
	s.seen = r
	if r.N < 0 {
		return &zoo.ListSamplesResponse{}, nil
	}
	list := &zoo.ArrayOfSample{Sample: []*zoo.Sample{}}
	for i := range int(r.N) {
		var g [16]byte
		for j := range g {
			g[j] = byte(i*16 + j)
		}
		list.Sample = append(list.Sample, build("item "+strconv.Itoa(i), int32(i), math.MaxInt64-int64(i), int16(math.MinInt16+i), i%2 == 0,
			xsd.MustParseDecimal(amounts[i%len(amounts)]), ratios[i%len(ratios)], approxes[i%len(approxes)], whens[i%len(whens)],
			dotnetGUID(g), tiers[i%3]))
	}
	return &zoo.ListSamplesResponse{ListSamplesResult: list}, nil
}

func (s *zooService) NextTierContext(_ context.Context, r *zoo.NextTier) (*zoo.NextTierResponse, error) {
	s.seen = r
	return &zoo.NextTierResponse{NextTierResult: tiers[(tierIndex(r.T)+1)%3]}, nil
}

func (s *zooService) BytesContext(_ context.Context, r *zoo.Bytes) (*zoo.BytesResponse, error) {
	s.seen = r
	if r.N < 0 {
		return &zoo.BytesResponse{}, nil
	}
	b := make([]byte, r.N)
	for i := range b {
		b[i] = byte(0xFB + i)
	}
	return &zoo.BytesResponse{BytesResult: b}, nil
}

func (s *zooService) NothingContext(_ context.Context, r *zoo.Nothing) (*zoo.NothingResponse, error) {
	s.seen = r
	return &zoo.NothingResponse{}, nil
}

// NowContext returns Zoo.cs's fixed time, which is what makes Now deterministic: UTC, or the
// reference server's local time.
func (s *zooService) NowContext(_ context.Context, r *zoo.Now) (*zoo.NowResponse, error) {
	s.seen = r
	if r.Utc {
		return &zoo.NowResponse{NowResult: utc(2026, 11, 22, 10, 15, 30, 123)}, nil
	}
	return &zoo.NowResponse{NowResult: local(2026, 11, 22, 10, 15, 30, 123)}, nil
}

func (s *zooService) MaybeCountContext(_ context.Context, r *zoo.MaybeCount) (*zoo.MaybeCountResponse, error) {
	s.seen = r
	if r.None {
		return &zoo.MaybeCountResponse{}, nil
	}
	seven := int32(7)
	return &zoo.MaybeCountResponse{MaybeCountResult: &seven}, nil
}
