package testsupport

// Values for every operation of a generated table, built from its type descriptors alone, so the
// contract tests (the server root's contract_schema_test.go and contract_roundtrip_test.go) and the
// generated decoders' fuzz target (server/wire) cover an operation or a field added to the WSDL without
// being edited. The descriptors (wire.Field, wire.Type) say what to put in each element; the generated
// Go types are reached by reflection, a descriptor's field matching the struct field whose xml tag
// carries its element name (gowsdl writes one on every field).

import (
	"encoding"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xsd"
)

// ValueSource decides the content of each element the Filler reaches.
type ValueSource interface {
	// simple returns a value of Go type gt for an element of the simple XSD type t.
	simple(t *wire.Type, gt reflect.Type) (reflect.Value, error)
	// items returns how many items to put in a repeated element (maxOccurs > 1).
	items(f wire.Field) int
	// omit reports whether to leave out (nil) an element that may be absent or nil.
	omit(f wire.Field) bool
}

// Filler fills generated values from their descriptors and records which types it reached.
type Filler struct {
	src ValueSource
	// Reached counts the descriptors filled, by XSD type name, so a test can prove it covered each.
	Reached map[string]int
}

// NewFiller returns a Filler taking its values from src.
func NewFiller(src ValueSource) *Filler { return &Filler{src: src, Reached: map[string]int{}} }

// maxFillDepth stops a recursive type from growing without end: deeper optional elements are left out.
const maxFillDepth = 6

// Message fills a generated wrapper or complex value (a pointer to its struct) whose elements are fields.
func (f *Filler) Message(m any, fields []wire.Field) error {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("%T is not a pointer to a generated struct", m)
	}
	return f.fields(v.Elem(), fields, 0)
}

func (f *Filler) fields(v reflect.Value, fields []wire.Field, depth int) error {
	for _, fd := range fields {
		fv, err := StructField(v, fd.Name)
		if err != nil {
			return err
		}
		if err := f.field(fv, fd, depth); err != nil {
			return fmt.Errorf("%s.%s: %w", v.Type().Name(), fd.Name, err)
		}
	}
	return nil
}

// StructField finds the field of struct v that carries element name (its xml tag's name part).
func StructField(v reflect.Value, name string) (reflect.Value, error) {
	t := v.Type()
	for i := range t.NumField() {
		tag, ok := t.Field(i).Tag.Lookup("xml")
		if !ok {
			continue
		}
		tagName, _, _ := strings.Cut(tag, ",")
		if _, local, found := strings.Cut(tagName, " "); found { // "namespace local"
			tagName = local
		}
		if tagName == name {
			if !t.Field(i).IsExported() {
				return reflect.Value{}, fmt.Errorf("the generated type %s holds the element %s in the unexported field %s: code outside the generated package cannot set it", t, name, t.Field(i).Name)
			}
			return v.Field(i), nil
		}
	}
	return reflect.Value{}, fmt.Errorf("the generated type %s has no field for the element %s (by xml tag)", t, name)
}

func (f *Filler) field(v reflect.Value, fd wire.Field, depth int) error {
	if fd.MaxOccurs != 1 {
		if v.Kind() != reflect.Slice {
			return fmt.Errorf("repeated element %s is a %s, not a slice", fd.Name, v.Type())
		}
		n := f.src.items(fd)
		if depth > maxFillDepth {
			n = 0
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			if err := f.one(s.Index(i), fd, depth); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	return f.one(v, fd, depth)
}

// one fills v, a single element of fd's type.
func (f *Filler) one(v reflect.Value, fd wire.Field, depth int) error {
	t := fd.Type
	if v.Kind() == reflect.Pointer {
		mayOmit := fd.MinOccurs == 0 || fd.Nillable
		if mayOmit && (depth > maxFillDepth || f.src.omit(fd)) {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		v.Set(reflect.New(v.Type().Elem()))
		v = v.Elem()
	}
	f.Reached[t.Name]++
	switch t.Kind {
	case wire.KindComplex:
		return f.fields(v, t.Fields, depth+1)
	case wire.KindArray:
		if t.Item == nil {
			return fmt.Errorf("array type %s has no item descriptor", t.Name)
		}
		return f.fields(v, []wire.Field{*t.Item}, depth+1)
	}
	if t.Kind == wire.KindBase64 && f.src.omit(fd) && (fd.MinOccurs == 0 || fd.Nillable) {
		v.Set(reflect.Zero(v.Type())) // a nil []byte is an absent element
		return nil
	}
	x, err := f.src.simple(t, v.Type())
	if err != nil {
		return fmt.Errorf("element %s: %w", fd.Name, err)
	}
	v.Set(x)
	return nil
}

// simpleValue converts a value chosen for an XSD kind to the generated Go type gt: the basic Go types
// gowsdlgen maps the subset to, xsd.DateTime, or any type that reads its lexical form as text
// (encoding.TextUnmarshaler), which is how a new value type is expected to arrive.
func simpleValue(t *wire.Type, gt reflect.Type, native any, lexical string) (reflect.Value, error) {
	nv := reflect.ValueOf(native)
	if native != nil && nv.Type().ConvertibleTo(gt) && (gt.Kind() != reflect.String || nv.Kind() == reflect.String) {
		return nv.Convert(gt), nil
	}
	if reflect.PointerTo(gt).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
		p := reflect.New(gt)
		if err := p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(lexical)); err != nil {
			return reflect.Value{}, fmt.Errorf("%s.UnmarshalText(%q): %w", gt, lexical, err)
		}
		return p.Elem(), nil
	}
	if gt.Kind() == reflect.String {
		return reflect.ValueOf(lexical).Convert(gt), nil
	}
	return reflect.Value{}, fmt.Errorf("no value of Go type %s for xsd:%s (kind %d): teach testsupport/values.go this type", gt, t.Name, t.Kind)
}

// SampleValues are fixed, schema-valid, ordinary values (positive numbers, a date, an enumeration's
// last value), which a service should accept on its success path: every optional element present, two
// items in each array. Strings hold markup characters and non-ASCII text that the wire must escape and
// keep. Edge values are the random source's business.
type SampleValues struct {
	// Str is every string's value.
	Str string
	// Minimal leaves out every element that may be absent and makes strings empty.
	Minimal bool
}

func (s SampleValues) items(wire.Field) int {
	if s.Minimal {
		return 0
	}
	return 2
}

func (s SampleValues) omit(wire.Field) bool { return s.Minimal }

func (s SampleValues) simple(t *wire.Type, gt reflect.Type) (reflect.Value, error) {
	var native any
	var lexical string
	switch t.Kind {
	case wire.KindString:
		native = s.Str
		if s.Minimal {
			native = ""
		}
		lexical = native.(string)
	case wire.KindInt:
		native, lexical = int32(42), "42"
	case wire.KindLong:
		native, lexical = int64(1)<<40, "1099511627776"
	case wire.KindShort:
		native, lexical = int16(7), "7"
	case wire.KindBoolean:
		native, lexical = true, "true"
	case wire.KindDouble:
		native, lexical = 1.5e300, "1.5E+300"
	case wire.KindFloat:
		native, lexical = float32(0.25), "0.25"
	case wire.KindDecimal:
		lexical = "-1234.5670"
	case wire.KindGUID:
		lexical = "0f8fad5b-d9cb-469f-a165-70867728950e"
	case wire.KindDateTime:
		native = xsd.DateTime{Time: time.Date(2024, 2, 29, 23, 59, 58, 123456700, time.FixedZone("", 5*3600+30*60))}
		lexical = "2024-02-29T23:59:58.1234567+05:30"
	case wire.KindBase64:
		native, lexical = []byte{0, 1, 0xfe, 0xff}, "AAH+/w=="
	case wire.KindEnum:
		if len(t.Enum) == 0 {
			return reflect.Value{}, fmt.Errorf("enumeration %s has no values", t.Name)
		}
		native, lexical = t.Enum[len(t.Enum)-1], t.Enum[len(t.Enum)-1]
	}
	return simpleValue(t, gt, native, lexical)
}

// RandomValues are random, schema-valid values of every kind, strings included XML-hostile text.
type RandomValues struct{ Rnd *rand.Rand }

func (r RandomValues) items(wire.Field) int { return r.Rnd.IntN(4) }

func (r RandomValues) omit(wire.Field) bool { return r.Rnd.IntN(4) == 0 }

// hostileRunes are the characters the round trip must survive (or replace as XML requires): markup,
// the CDATA end, quotes, white space XML parsers normalise, characters XML 1.0 cannot carry (NUL, other
// C0 controls, U+FFFE, U+FFFF), a non-BMP character and U+FFFD itself.
var hostileRunes = []string{
	"<", ">", "&", "]]>", `"`, "'", "\r", "\r\n", "\t", "\n", " ", "\x00", "\x01", "\x1f", "\x7f",
	"\u0085", "\u2028", "\ufffe", "\uffff", "\ufffd", "😀", "\U0010FFFF", "é", "&amp;", "<![CDATA[", "-->",
}

func (r RandomValues) string() string {
	var b strings.Builder
	for range r.Rnd.IntN(12) {
		switch r.Rnd.IntN(4) {
		case 0:
			b.WriteString(hostileRunes[r.Rnd.IntN(len(hostileRunes))])
		case 1:
			b.WriteByte(byte(0x80 + r.Rnd.IntN(0x80))) // a stray byte: invalid UTF-8
		case 2:
			b.WriteRune(rune(r.Rnd.IntN(0x30000)))
		default:
			b.WriteByte(byte('a' + r.Rnd.IntN(26)))
		}
	}
	return b.String()
}

func (r RandomValues) simple(t *wire.Type, gt reflect.Type) (reflect.Value, error) {
	var native any
	var lexical string
	switch t.Kind {
	case wire.KindString:
		s := r.string()
		native, lexical = s, s
	case wire.KindInt:
		n := int32(r.Rnd.Uint32())
		native, lexical = n, fmt.Sprint(n)
	case wire.KindLong:
		n := int64(r.Rnd.Uint64())
		native, lexical = n, fmt.Sprint(n)
	case wire.KindShort:
		n := int16(r.Rnd.Uint32())
		native, lexical = n, fmt.Sprint(n)
	case wire.KindBoolean:
		b := r.Rnd.IntN(2) == 0
		native, lexical = b, fmt.Sprint(b)
	case wire.KindDouble:
		native = r.double()
	case wire.KindFloat:
		native = float32(r.double())
	case wire.KindDecimal:
		lexical = fmt.Sprintf("%d.%0*d", r.Rnd.Int64N(1e12)-5e11, r.Rnd.IntN(6)+1, r.Rnd.IntN(10))
	case wire.KindGUID:
		b := make([]byte, 16)
		for i := range b {
			b[i] = byte(r.Rnd.Uint32())
		}
		lexical = fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	case wire.KindDateTime:
		native = r.dateTime()
	case wire.KindBase64:
		b := make([]byte, r.Rnd.IntN(8))
		for i := range b {
			b[i] = byte(r.Rnd.Uint32())
		}
		native = b
	case wire.KindEnum:
		if len(t.Enum) == 0 {
			return reflect.Value{}, fmt.Errorf("enumeration %s has no values", t.Name)
		}
		e := t.Enum[r.Rnd.IntN(len(t.Enum))]
		native, lexical = e, e
	}
	return simpleValue(t, gt, native, lexical)
}

// double returns special values (NaN, ±INF, ±0, extremes) one time in three, else random bits.
func (r RandomValues) double() float64 {
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.MaxFloat32, 0.1, 1e21, 1e-7, 123456789012345678}
	if r.Rnd.IntN(3) == 0 {
		return special[r.Rnd.IntN(len(special))]
	}
	for {
		f := math.Float64frombits(r.Rnd.Uint64())
		if !math.IsNaN(f) { // every NaN is written "NaN" and read back as one NaN
			return f
		}
	}
}

// dateTime returns a value the wire can carry exactly: years 1 to 9999, 100 ns ticks (.NET's
// precision), and a zone that is Z, an offset within ±14:00, or none.
func (r RandomValues) dateTime() xsd.DateTime {
	sec := r.Rnd.Int64N(253402300800-62135596800) - 62135596800 // 0001-01-01 .. 9999-12-31 UTC
	t := time.Unix(sec, int64(r.Rnd.IntN(1e7))*100).UTC()
	switch r.Rnd.IntN(3) {
	case 0:
		return xsd.DateTime{Time: t}
	case 1:
		return xsd.DateTime{Time: t, NoZone: true}
	}
	offset := (r.Rnd.IntN(28*4+1) - 14*4) * 15 * 60
	local := t.In(time.FixedZone("", offset))
	// Keep the year in range after the shift by building the value from its wall-clock fields.
	if local.Year() < 1 || local.Year() > 9999 {
		return xsd.DateTime{Time: t}
	}
	return xsd.DateTime{Time: time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), local.Second(), local.Nanosecond(), time.FixedZone("", offset))}
}

// XMLCarried is what a string becomes after a trip through an XML document: each character XML 1.0
// cannot carry (XML 1.0 §2.2, production Char: C0 controls but tab, LF and CR; U+FFFE; U+FFFF) and
// each byte of invalid UTF-8 becomes U+FFFD; everything else, CR and markup included, is kept.
func XMLCarried(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		if (r == utf8.RuneError && w == 1) || !(r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF ||
			r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF) {
			b.WriteRune(utf8.RuneError)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Carrier says what a wire does to the values it carries, where it does not carry them exactly: str
// maps a string sent to the string that arrives, dateTime a dateTime; nil means exactly.
type Carrier struct {
	str      func(string) string
	dateTime func(xsd.DateTime) xsd.DateTime
	// noNil: the wire cannot write nil (a form): a nil array arrives empty, a nil item as its zero
	// value.
	noNil bool
}

// The carriers of the bindings: XML replaces the characters it cannot carry (XMLCarried); the JSON
// endpoint replaces invalid UTF-8 and carries a dateTime as JavaScriptSerializer does, an instant in
// whole milliseconds, UTC (jsonwire.AppendDateTime); HTTP GET/POST parameters arrive byte for byte,
// but for nil (CarriedByForm).
var (
	CarriedExactly = Carrier{}
	// CarriedByForm is HTTP GET/POST parameters: byte for byte, but a form cannot write nil, so an
	// array parameter that is nil arrives empty (no values, as an empty one) and a nil item as an
	// empty value.
	CarriedByForm = Carrier{noNil: true}
	CarriedByXML  = Carrier{str: XMLCarried}
	CarriedByJSON = Carrier{str: JSONCarried, dateTime: func(v xsd.DateTime) xsd.DateTime {
		return xsd.DateTime{Time: time.UnixMilli(v.Time.UnixMilli()).UTC()}
	}}
)

// JSONCarried is what a string becomes in JSON: each byte of invalid UTF-8 becomes U+FFFD
// (jsonwire.AppendString); every character, controls included, is carried (escaped).
func JSONCarried(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		b.WriteRune(r) // RuneError for an invalid byte
	}
	return b.String()
}

// Diff compares a value sent (want) with the value received (got) and describes the first difference.
// Values of want pass through the Carrier first (see Carrier). Floats compare
// bit for bit but for NaN (any NaN equals any NaN): -0 must stay -0. A nil and an empty slice are the
// same (an array without items is written as an empty element) but for []byte, where nil is an absent
// element and empty an empty one.
func Diff(path string, want, got reflect.Value, c Carrier) string {
	if want.Kind() != got.Kind() {
		return fmt.Sprintf("%s: kind %s, got %s", path, want.Kind(), got.Kind())
	}
	switch want.Kind() {
	case reflect.Pointer, reflect.Interface:
		if want.IsNil() || got.IsNil() {
			if c.noNil && want.Kind() == reflect.Pointer && want.IsNil() && !got.IsNil() && (emptyArray(got.Elem()) || got.Elem().IsZero()) {
				return ""
			}
			if want.IsNil() != got.IsNil() {
				return fmt.Sprintf("%s: sent nil=%v, got nil=%v", path, want.IsNil(), got.IsNil())
			}
			return ""
		}
		return Diff(path, want.Elem(), got.Elem(), c)
	case reflect.Struct:
		if want.Type() == reflect.TypeFor[xsd.DateTime]() {
			w := want.Interface().(xsd.DateTime)
			if c.dateTime != nil {
				w = c.dateTime(w)
			}
			if !reflect.DeepEqual(w, got.Interface()) {
				return fmt.Sprintf("%s: sent %v (expected back as %v), got %v", path, want.Interface(), w, got.Interface())
			}
			return ""
		}
		for i := range want.NumField() {
			if !want.Type().Field(i).IsExported() || want.Type().Field(i).Name == "XMLName" {
				continue
			}
			if d := Diff(path+"."+want.Type().Field(i).Name, want.Field(i), got.Field(i), c); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if want.Type().Elem().Kind() == reflect.Uint8 {
			if want.IsNil() != got.IsNil() || string(want.Bytes()) != string(got.Bytes()) {
				return fmt.Sprintf("%s: sent %#v, got %#v", path, want.Interface(), got.Interface())
			}
			return ""
		}
		if want.Len() != got.Len() {
			return fmt.Sprintf("%s: sent %d items, got %d", path, want.Len(), got.Len())
		}
		for i := range want.Len() {
			if d := Diff(fmt.Sprintf("%s[%d]", path, i), want.Index(i), got.Index(i), c); d != "" {
				return d
			}
		}
		return ""
	case reflect.String:
		w := want.String()
		if c.str != nil {
			w = c.str(w)
		}
		if w != got.String() {
			return fmt.Sprintf("%s: sent %q (expected back as %q), got %q", path, want.String(), w, got.String())
		}
		return ""
	case reflect.Float32, reflect.Float64:
		w, g := want.Float(), got.Float()
		if (math.IsNaN(w) && math.IsNaN(g)) || (w == g && math.Signbit(w) == math.Signbit(g)) {
			return ""
		}
		return fmt.Sprintf("%s: sent %v, got %v", path, w, g)
	}
	if !reflect.DeepEqual(want.Interface(), got.Interface()) {
		return fmt.Sprintf("%s: sent %#v, got %#v", path, want.Interface(), got.Interface())
	}
	return ""
}

// emptyArray reports whether v is a generated array type (a struct of one repeated element, a slice)
// without items.
func emptyArray(v reflect.Value) bool {
	if v.Kind() != reflect.Struct {
		return false
	}
	slices := 0
	for i := range v.NumField() {
		f := v.Type().Field(i)
		switch {
		case !f.IsExported() || f.Name == "XMLName":
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() != reflect.Uint8 && v.Field(i).Len() == 0:
			slices++
		default:
			return false
		}
	}
	return slices == 1
}

// ReachableTypes lists every type descriptor reachable from the operations' parameters and results.
func ReachableTypes(ops []*wire.Operation) map[string]*wire.Type {
	seen := map[string]*wire.Type{}
	var walk func(t *wire.Type)
	walk = func(t *wire.Type) {
		if t == nil || seen[t.Name] != nil {
			return
		}
		seen[t.Name] = t
		for _, f := range t.Fields {
			walk(f.Type)
		}
		if t.Item != nil {
			walk(t.Item.Type)
		}
	}
	for _, op := range ops {
		for _, p := range op.Params {
			walk(p.Type)
		}
		if op.Result != nil {
			walk(op.Result.Type)
		}
	}
	return seen
}
