package zoo_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire/recordwire"
	"github.com/contactsync/contactsync/server/wire/xsd"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo2"
)

var update = flag.Bool("update", false, "rewrite the golden record documents under testdata/record/")

// The record codec (server/wire/recordwire) is generated for each zoo's record type (the -record flags
// in generate.go): zoo's Sample holds every XSD type of the subset, nested types, arrays of simple and
// complex values and nil; zoo2's Stamp a dateTime and a nillable one; gen's Contact is the contract's
// own. These tests hold every one of them to decode(encode(v)) == v.

// recordTypes are the record types under test, each with the enumerations its values may hold.
var recordTypes = []struct {
	rt    *recordwire.Type
	enums map[reflect.Type][]string
}{
	{zoo.SampleRecord, map[reflect.Type][]string{reflect.TypeFor[zoo.Tier](): {"Bronze", "Silver", "Gold"}}},
	{zoo2.StampRecord, nil},
	{gen.ContactRecord, nil},
}

// filler makes random values of the generated types: every field set, pointers nil a quarter of the
// time, strings from a pool of what JSON must escape and what it must not touch.
type filler struct {
	rnd   *rand.Rand
	enums map[reflect.Type][]string
}

var recordStrings = []string{"", "a", hostile, "\"\\/\b\f\n\r\t\x00\x01\x1f", "\u2028\u2029", "😀 \U0010FFFF", "null", "Ω≈ç√", " lead and trail "}

func (f *filler) fill(v reflect.Value, depth int) {
	t := v.Type()
	switch t {
	case reflect.TypeFor[xsd.DateTime]():
		v.Set(reflect.ValueOf(f.dateTime()))
		return
	case reflect.TypeFor[xsd.Decimal]():
		v.Set(reflect.ValueOf(f.decimal()))
		return
	case reflect.TypeFor[xsd.GUID]():
		var g xsd.GUID
		for i := range g {
			g[i] = byte(f.rnd.IntN(256))
		}
		v.Set(reflect.ValueOf(g))
		return
	case reflect.TypeFor[[]byte]():
		switch f.rnd.IntN(4) {
		case 0:
			v.SetBytes(nil)
		case 1:
			v.SetBytes([]byte{})
		default:
			b := make([]byte, 1+f.rnd.IntN(20))
			for i := range b {
				b[i] = byte(f.rnd.IntN(256))
			}
			v.SetBytes(b)
		}
		return
	}
	if members, ok := f.enums[t]; ok {
		v.SetString(members[f.rnd.IntN(len(members))])
		return
	}
	switch t.Kind() {
	case reflect.String:
		if f.rnd.IntN(3) == 0 {
			var sb strings.Builder
			for range f.rnd.IntN(12) {
				sb.WriteRune(rune(f.rnd.IntN(0xD800)))
			}
			v.SetString(sb.String())
		} else {
			v.SetString(recordStrings[f.rnd.IntN(len(recordStrings))])
		}
	case reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		switch f.rnd.IntN(4) {
		case 0:
			v.SetInt(-1 << (bits - 1))
		case 1:
			v.SetInt(1<<(bits-1) - 1)
		default:
			v.SetInt(int64(f.rnd.Uint64()) >> (64 - bits) >> f.rnd.IntN(bits))
		}
	case reflect.Bool:
		v.SetBool(f.rnd.IntN(2) == 0)
	case reflect.Float32, reflect.Float64:
		specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 1.0 / 3, math.MaxFloat64,
			math.SmallestNonzeroFloat64, 1e21, 1e-7, -123.456}
		x := specials[f.rnd.IntN(len(specials))]
		if f.rnd.IntN(2) == 0 {
			x = f.rnd.NormFloat64() * math.Pow(10, float64(f.rnd.IntN(40)-20))
		}
		if t.Kind() == reflect.Float32 {
			if f.rnd.IntN(4) == 0 {
				x = float64(float32(math.MaxFloat32))
			}
			x = float64(float32(x))
		}
		v.SetFloat(x)
	case reflect.Pointer:
		if f.rnd.IntN(4) == 0 || depth > 6 {
			v.SetZero()
			return
		}
		p := reflect.New(t.Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		n := f.rnd.IntN(4)
		if n == 0 { // an empty array wrapper reads back as nil, as in XML (docs/data.md)
			v.SetZero()
			return
		}
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			f.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() && t.Field(i).Name != "XMLName" {
				f.fill(v.Field(i), depth+1)
			}
		}
	default:
		panic(fmt.Sprintf("filler: no generator for %s", t))
	}
}

// dateTime is a random dateTime as the decoders make them (from its lexical form): no zone, Z, or an
// offset, with 0 to 7 fraction digits.
func (f *filler) dateTime() xsd.DateTime {
	text := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d", 1+f.rnd.IntN(9999), 1+f.rnd.IntN(12), 1+f.rnd.IntN(28),
		f.rnd.IntN(24), f.rnd.IntN(60), f.rnd.IntN(60))
	if n := f.rnd.IntN(8); n > 0 {
		text += "." + fmt.Sprintf("%07d", f.rnd.IntN(10_000_000))[:n]
	}
	switch f.rnd.IntN(3) {
	case 1:
		text += "Z"
	case 2:
		text += fmt.Sprintf("%+03d:%02d", f.rnd.IntN(29)-14, []int{0, 30, 45}[f.rnd.IntN(3)])
	}
	v, ok := xsd.ParseDateTime(text)
	if !ok {
		panic("filler: bad dateTime " + text)
	}
	return v
}

func (f *filler) decimal() xsd.Decimal {
	digits := 1 + f.rnd.IntN(28)
	var sb strings.Builder
	if f.rnd.IntN(2) == 0 {
		sb.WriteByte('-')
	}
	point := f.rnd.IntN(digits + 1)
	for i := range digits {
		if i == point && i > 0 {
			sb.WriteByte('.')
		}
		sb.WriteByte(byte('0' + f.rnd.IntN(10)))
	}
	return xsd.MustParseDecimal(sb.String())
}

// sameValue is reflect.DeepEqual with floats compared by their bits (so NaN equals NaN, and -0 does
// not equal 0, which DeepEqual would let pass).
func sameValue(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return math.IsNaN(x) && math.IsNaN(y) || math.Float64bits(x) == math.Float64bits(y)
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Pointer() == b.Pointer() || sameValue(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		fallthrough
	case reflect.Array:
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	}
	panic("sameValue: unexpected kind " + a.Kind().String())
}

// reordered is doc as PostgreSQL's jsonb may give it back: keys in another order (sorted), other
// escapes (encoding/json writes < as \u003c) and spaces.
func reordered(t *testing.T, doc []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	out, err := json.MarshalIndent(v, " ", "\t")
	require.NoError(t, err)
	return out
}

// TestRecordRoundTrip is the property test: for random values of every record type (every XSD type of
// the subset), the canonical document is valid JSON, decodes (strictly) to the same value, is written
// back byte for byte, and decodes to the same value with its keys reordered and respelled.
func TestRecordRoundTrip(t *testing.T) {
	for _, rt := range recordTypes {
		t.Run(rt.rt.Name, func(t *testing.T) {
			f := &filler{rnd: rand.New(rand.NewPCG(22, uint64(len(rt.rt.Name)))), enums: rt.enums}
			for i := range 2000 {
				v := rt.rt.New()
				f.fill(reflect.ValueOf(v).Elem(), 0)
				doc := v.AppendRecord(nil)
				require.True(t, json.Valid(doc), "%s", doc)

				back, err := rt.rt.Decode(doc, recordwire.Strict)
				require.NoError(t, err, "%s", doc)
				if !sameValue(reflect.ValueOf(v), reflect.ValueOf(back)) {
					t.Fatalf("value %d: %#v\nread back as %#v\nfrom %s", i, v, back, doc)
				}
				require.Equal(t, string(doc), string(back.AppendRecord(nil)), "the canonical form is stable")
				assert.Equal(t, v.RecordKey(), back.RecordKey())
				assert.Equal(t, v.RecordIndex(), back.RecordIndex())

				again, err := rt.rt.Decode(reordered(t, doc), recordwire.Lenient)
				require.NoError(t, err, "%s", reordered(t, doc))
				if !sameValue(reflect.ValueOf(v), reflect.ValueOf(again)) {
					t.Fatalf("value %d read back from reordered keys as %#v\nfrom %s", i, again, reordered(t, doc))
				}
			}
		})
	}
}

// TestRecordFields checks the descriptors' field paths: every element in schema order, nested ones
// after their parent, through arrays with "[]".
func TestRecordFields(t *testing.T) {
	assert.Equal(t, []string{"Text", "Count", "Big", "Small", "Flag", "Amount", "Ratio", "Approx", "When", "Data", "Key", "Level",
		"Home", "Home.Street", "Home.City", "Home.Lines", "Others", "Others[].Street", "Others[].City", "Others[].Lines",
		"MaybeInt", "MaybeWhen", "Tags", "Numbers"}, zoo.SampleRecord.Fields)
	assert.Equal(t, []string{"When", "MaybeWhen", "Kind", "Ticks"}, zoo2.StampRecord.Fields)
	assert.Equal(t, "Key", zoo.SampleRecord.Key)
	assert.Equal(t, "Level", zoo.SampleRecord.Index)
	s := &zoo.Sample{Key: xsd.MustParseGUID("0F8FAD5B-D9CB-469F-A165-70867728950E")}
	assert.Equal(t, "0f8fad5b-d9cb-469f-a165-70867728950e", s.RecordKey())
	assert.Equal(t, "Bronze", s.RecordIndex(), "an enumeration's zero value is its first member")
}

// goldenSample is the zoo's Build of hostile values, as the golden tests use it.
func goldenSample() *zoo.Sample {
	when, _ := xsd.ParseDateTime("2026-11-22T10:15:30.1234567+05:45")
	s := build(hostile, 42, math.MaxInt64, math.MinInt16, true, xsd.MustParseDecimal("-0.0100"),
		math.Inf(-1), float32(math.Copysign(0, -1)), when, xsd.MustParseGUID("0F8FAD5B-D9CB-469F-A165-70867728950E"), "Gold")
	s.Data = []byte{}
	return s
}

// TestRecordGolden pins the canonical form of a Sample (docs/data.md describes it); refresh with
// go test ./tools/gowsdlgen/internal/zoo -run TestRecordGolden -update.
func TestRecordGolden(t *testing.T) {
	for _, c := range []struct {
		file string
		v    recordwire.Record
	}{
		{"Sample.json", goldenSample()},
		{"Sample-empty.json", &zoo.Sample{}},
		{"Stamp.json", &zoo2.Stamp{When: goldenSample().When, Kind: "Local", Ticks: 638_000_000_000_000_000}},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "record", c.file)
			got := append(c.v.AppendRecord(nil), '\n')
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, got, 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run with -update to create it")
			assert.Equal(t, string(want), string(got))
		})
	}
}

// TestRecordDecodeErrors: what a bad document is refused with, the path of the value named.
func TestRecordDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		mode      recordwire.Mode
		want      string
	}{
		{"unknown strict", `{"Text":"a","Colour":"red"}`, recordwire.Strict, `record: unknown field "Colour"; the known fields are Text, Count, Big, Small, Flag, Amount, Ratio, Approx, When, Data, Key, Level, Home, Others, MaybeInt, MaybeWhen, Tags, Numbers`},
		{"unknown nested strict", `{"Home":{"Street":"s","Zip":1}}`, recordwire.Strict, `record: Home: unknown field "Zip"; the known fields are Street, City, Lines`},
		{"unknown in array item", `{"Others":[null,{"Zip":1}]}`, recordwire.Strict, `record: Others[1]: unknown field "Zip"; the known fields are Street, City, Lines`},
		{"bad enum", `{"Level":"Platinum"}`, recordwire.Lenient, `record: Level: invalid Tier value "Platinum"`},
		{"int out of range", `{"Small":32768}`, recordwire.Lenient, `record: Small: invalid short value "32768"`},
		{"int with a fraction", `{"Count":1.5}`, recordwire.Lenient, `record: Count: invalid int value "1.5"`},
		{"int as a string", `{"Count":"1"}`, recordwire.Lenient, `record: Count: want a number, found a string`},
		{"float overflow", `{"Approx":1e39}`, recordwire.Lenient, `record: Approx: invalid float value "1e39"`},
		{"bad double string", `{"Ratio":"Infinity"}`, recordwire.Lenient, `record: Ratio: invalid double value "Infinity"`},
		{"bad dateTime", `{"When":"yesterday"}`, recordwire.Lenient, `record: When: invalid dateTime value "yesterday"`},
		{"bad guid", `{"Key":"nope"}`, recordwire.Lenient, `record: Key: invalid guid value "nope"`},
		{"bad base64", `{"Data":"!!"}`, recordwire.Lenient, `record: Data: invalid base64Binary value "!!"`},
		{"bad decimal", `{"Amount":"1e5"}`, recordwire.Lenient, `record: Amount: invalid decimal value "1e5"`},
		{"nested item", `{"Home":{"Lines":["a",2]}}`, recordwire.Lenient, `record: Home.Lines[1]: want a string, found a number`},
		{"array for object", `{"Home":[]}`, recordwire.Lenient, `record: Home: want an object, found an array`},
		{"duplicate", `{"Text":"a","Text":"b"}`, recordwire.Lenient, `record: field "Text" appears twice`},
		{"not an object", `[]`, recordwire.Lenient, `record: want an object, found an array`},
		{"trailing data", `{} {}`, recordwire.Lenient, `record: malformed JSON at offset 3: data after the document`},
		{"missing comma", `{"Text":"a" "Count":1}`, recordwire.Lenient, `record: malformed JSON at offset 12: want ',' or '}'`},
		{"leading comma", `{,"Text":"a"}`, recordwire.Lenient, `record: malformed JSON at offset 1: want a key`},
		{"trailing comma", `{"Text":"a",}`, recordwire.Lenient, `record: malformed JSON at offset 12: want a key`},
		{"bad skipped value", `{"X":[1,}`, recordwire.Lenient, `record: malformed JSON at offset 8: unexpected character '}'`},
		{"unterminated", `{"Text":"a`, recordwire.Lenient, `record: Text: malformed JSON at offset 10: unterminated string`},
		{"control char", "{\"Text\":\"a\x01\"}", recordwire.Lenient, `record: Text: malformed JSON at offset 10: control character in a string`},
		{"invalid UTF-8", "{\"Text\":\"\xff\"}", recordwire.Lenient, `record: Text: malformed JSON at offset 9: invalid UTF-8 in a string`},
		{"deep skipped value", `{"X":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, recordwire.Lenient, `record: malformed JSON at offset 68: nested deeper than 64 levels`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := recordwire.Decode([]byte(c.doc), c.mode, new(zoo.Sample))
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

// TestRecordDecodeForms: what the decoders accept besides the canonical form: any key order, any
// JSON number spelling, null for a value that cannot be nil, missing keys, unknown keys when lenient.
func TestRecordDecodeForms(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      *zoo.Sample
	}{
		{"empty object", `{}`, &zoo.Sample{}},
		{"numbers in other spellings", `{"Count":1e2,"Big":-9.223372036854775808E18,"Small":100.000,"Ratio":1E400e0}`, nil},
		{"exponent forms", ` {"Count" : 12.5e1 , "Big":-0,"Small":0.0e5} `, &zoo.Sample{Count: 125}},
		{"null for values", `{"Text":null,"Count":null,"Flag":null,"When":null,"Amount":null,"Key":null,"Level":null,"Data":null}`, &zoo.Sample{}},
		{"decimal as a number", `{"Amount":-0.0100}`, &zoo.Sample{Amount: xsd.MustParseDecimal("-0.0100")}},
		{"unknown keys skipped", `{"Colour":{"a":[1,{"b":null}],"c":"\u00e9"},"Text":"x"}`, &zoo.Sample{Text: "x"}},
		{"escapes", `{"Text":"\u00e9\ud83d\ude00\n\/\ud800"}`, &zoo.Sample{Text: "é😀\n/\uFFFD"}},
		{"empty wrapper", `{"Tags":[],"Numbers":[]}`, &zoo.Sample{Tags: &zoo.ArrayOfString{}, Numbers: &zoo.ArrayOfInt{}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := new(zoo.Sample)
			err := recordwire.Decode([]byte(c.doc), recordwire.Lenient, got)
			if c.want == nil {
				require.Error(t, err, "1E400e0 is not a number")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
	got := new(zoo.Sample)
	require.NoError(t, recordwire.Decode([]byte(`{"Count":1e2,"Big":-9.223372036854775808E18,"Small":100.000,"Ratio":1E300}`), recordwire.Strict, got))
	assert.Equal(t, &zoo.Sample{Count: 100, Big: math.MinInt64, Small: 100, Ratio: 1e300}, got)
}

// FuzzRecordDecoders holds the generated record decoders of every record type to the canonical
// form: whatever document they accept, leniently, is written back in a form that reads back (strictly)
// to the same document, and what they refuse is refused with a RecordError.
func FuzzRecordDecoders(f *testing.F) {
	f.Add([]byte(`{"Text":"a","Home":{"Lines":["x",null]},"Others":[null,{}],"Ratio":"-0","Numbers":[1e2]}`), uint8(0))
	f.Add(goldenSample().AppendRecord(nil), uint8(0))
	f.Add([]byte(`{"When":"2026-11-22T10:15:30.1234567+05:45","MaybeWhen":null,"Kind":"Local","Ticks":1}`), uint8(1))
	f.Add([]byte(`{"Id":"a","RoleIds":["r1"],"Extra":[{}]}`), uint8(2))
	f.Fuzz(func(t *testing.T, doc []byte, which uint8) {
		rt := recordTypes[int(which)%len(recordTypes)].rt
		v, err := rt.Decode(doc, recordwire.Lenient)
		if err != nil {
			var re *recordwire.Error
			if !errorAs(err, &re) {
				t.Fatalf("not a RecordError: %v", err)
			}
			return
		}
		if !json.Valid(doc) {
			t.Fatalf("accepted invalid JSON %q", doc)
		}
		canon := v.AppendRecord(nil)
		back, err := rt.Decode(canon, recordwire.Strict)
		if err != nil {
			t.Fatalf("the canonical form %s of %q does not read back: %v", canon, doc, err)
		}
		if again := back.AppendRecord(nil); !bytes.Equal(canon, again) {
			t.Fatalf("canonical form not stable: %s then %s", canon, again)
		}
	})
}

func errorAs(err error, target **recordwire.Error) bool {
	re, ok := err.(*recordwire.Error)
	*target = re
	return ok
}
