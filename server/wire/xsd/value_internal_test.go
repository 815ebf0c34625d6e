package xsd

import (
	"fmt"
	"reflect"
	"testing"
)

// FuzzParseDateTimeCommon holds ParseDateTime's fast path to the general reader: whatever it reads,
// the general reader (time.Parse) reads to the same value.
func FuzzParseDateTimeCommon(f *testing.F) {
	for _, s := range []string{"2026-11-22T10:15:30", "2026-11-22T10:15:30Z", "2026-11-22T10:15:30.1234567+05:45",
		"2024-02-29T23:59:59.9-14:00", "2023-02-29T00:00:00", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.9999999+00:00",
		"2026-11-22T24:00:00", "2026-11-22T10:15:30.12345678Z", "2026-11-22T10:15:30.Z", "2026-04-31T00:00:00", "0000-01-01T00:00:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fast, ok := parseDateTimeCommon(s)
		if !ok {
			return
		}
		general, ok := parseDateTimeSlow(s)
		if !ok {
			t.Fatalf("the fast path read %q, which the general reader refuses", s)
		}
		if !reflect.DeepEqual(fast, general) {
			t.Fatalf("%q: fast %v (%v), general %v (%v)", s, fast, fast.Time, general, general.Time)
		}
	})
}

// TestParseDateTimeCommon compares the fast path with the general reader on every day of a leap
// year, a common year and a century year, with each zone form and fraction length, and on the edges
// of every field's range.
func TestParseDateTimeCommon(t *testing.T) {
	var inputs []string
	for _, year := range []string{"2024", "2023", "1900", "2000", "0001", "9999"} {
		for month := 0; month <= 13; month++ {
			for day := 0; day <= 32; day++ {
				inputs = append(inputs, fmt.Sprintf("%s-%02d-%02dT12:34:56", year, month, day))
			}
		}
	}
	for _, clock := range []string{"00:00:00", "23:59:59", "24:00:00", "23:60:00", "23:59:60", "1:00:00"} {
		for _, frac := range []string{"", ".", ".1", ".12", ".1234567", ".12345678", ".0000000"} {
			for _, zone := range []string{"", "Z", "+00:00", "-00:00", "+14:00", "-14:00", "+15:00", "+05:60", "+0545", "z", " "} {
				inputs = append(inputs, "2026-11-22T"+clock+frac+zone)
			}
		}
	}
	handled := 0
	for _, s := range inputs {
		fast, ok := parseDateTimeCommon(s)
		general, gok := parseDateTimeSlow(s)
		if !ok {
			continue
		}
		handled++
		if !gok || !reflect.DeepEqual(fast, general) {
			t.Errorf("%q: fast %v, general %v (ok %v)", s, fast, general, gok)
		}
	}
	if handled < len(inputs)/2 {
		t.Errorf("the fast path read only %d of %d inputs", handled, len(inputs))
	}
}

func BenchmarkParseDateTime(b *testing.B) {
	for _, s := range []string{"2026-11-22T10:15:30.1234567+05:45", "2026-11-22T10:15:30Z"} {
		b.Run(s, func(b *testing.B) {
			for b.Loop() {
				if _, ok := ParseDateTime(s); !ok {
					b.Fatal(s)
				}
			}
		})
	}
}
