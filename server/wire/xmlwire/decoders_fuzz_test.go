package xmlwire_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/wsdl"
)

// decoderTarget is one generated decoder under fuzz: a request or response wrapper, or a complex or
// array type of the contract decoded on its own.
type decoderTarget struct {
	name   string
	new    func() wire.Message
	fields []wire.Field // the element's content, for seeds
}

// decoderTargets lists every generated decoder reachable from the table: both wrappers of every
// operation and every complex and array type (found by reflection from the wrappers' Go types).
func decoderTargets(ops []*wire.Operation) ([]decoderTarget, error) {
	var targets []decoderTarget
	types := map[string]reflect.Type{}
	fieldsOf := map[string][]wire.Field{}
	var walk func(gt reflect.Type, fields []wire.Field) error
	walk = func(gt reflect.Type, fields []wire.Field) error {
		for _, fd := range fields {
			v, err := testsupport.StructField(reflect.New(gt).Elem(), fd.Name)
			if err != nil {
				return err
			}
			ft := v.Type()
			for ft.Kind() == reflect.Pointer || (ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8) {
				ft = ft.Elem()
			}
			t := fd.Type
			if t.Kind.Simple() || types[t.Name] != nil {
				continue
			}
			types[t.Name] = ft
			inner := t.Fields
			if t.Kind == wire.KindArray {
				inner = []wire.Field{*t.Item}
			}
			fieldsOf[t.Name] = inner
			if err := walk(ft, inner); err != nil {
				return err
			}
		}
		return nil
	}
	for _, op := range ops {
		var result []wire.Field
		if op.Result != nil {
			result = []wire.Field{*op.Result}
		}
		targets = append(targets,
			decoderTarget{op.RequestElement, op.NewRequest, op.Params},
			decoderTarget{op.ResponseElement, op.NewResponse, result})
		if err := walk(reflect.TypeOf(op.NewRequest()).Elem(), op.Params); err != nil {
			return nil, err
		}
		if err := walk(reflect.TypeOf(op.NewResponse()).Elem(), result); err != nil {
			return nil, err
		}
	}
	for name, gt := range types {
		if _, ok := reflect.New(gt).Interface().(wire.Message); !ok {
			return nil, fmt.Errorf("the generated type %s of %s has no codec", gt, name)
		}
		targets = append(targets, decoderTarget{name, func() wire.Message { return reflect.New(gt).Interface().(wire.Message) }, fieldsOf[name]})
	}
	// Map order is random; the fuzz input picks a target by index, so the order must be stable.
	slices.SortFunc(targets, func(a, b decoderTarget) int { return strings.Compare(a.name, b.name) })
	return targets, nil
}

// fuzzDecoderLimits are the service's default limits.
var fuzzDecoderLimits = xmlwire.Limits{MaxDepth: 32, MaxElements: 1000}

// decodeWrapped decodes content as the children of a synthetic element in the service namespace, the
// way the SOAP binding hands a wrapper's content to its generated decoder, with one mode of the reader.
func decodeWrapped(target decoderTarget, content []byte, fast bool) (wire.Message, error) {
	doc := make([]byte, 0, len(content)+len(wsdl.DefaultNamespace)+32)
	doc = append(doc, `<w xmlns="`+wsdl.DefaultNamespace+`">`...)
	doc = append(doc, content...)
	doc = append(doc, "</w>"...)
	r := xmlwire.NewReader(doc, wsdl.DefaultNamespace, fuzzDecoderLimits, fast)
	if _, err := r.Root(); err != nil {
		return nil, err
	}
	m := target.new()
	if err := m.DecodeXML(r); err != nil {
		return nil, err
	}
	if err := r.End(); err != nil {
		return nil, err
	}
	return m, nil
}

// decoderSeedShapes are hostile variations of a target's content, each built from the name of its
// first element (%[1]s) and the namespace (%[2]s): shapes the fast path must leave to the full one,
// and shapes both must read alike.
var decoderSeedShapes = []string{
	`<%[1]s xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" />`,
	`<%[1]s>a&amp;b&#x1F600;</%[1]s>`,
	`<%[1]s><![CDATA[<x>]]></%[1]s>`,
	`<%[1]s>1</%[1]s><%[1]s>2</%[1]s>`,
	`<!-- c --><%[1]s>x</%[1]s>`,
	`<x:%[1]s xmlns:x="urn:other">x</x:%[1]s>`,
	`<p:%[1]s xmlns:p="%[2]s">x</p:%[1]s>`,
	`<%[1]s><%[1]s><%[1]s/></%[1]s></%[1]s>`,
	`<%[1]s>` + "a\r\nb" + `</%[1]s>`,
	`<Unknown><%[1]s>x</%[1]s></Unknown>`,
	`<%[1]s a="1" b='2'>x</%[1]s >`,
	`<%[1]s/>`,
	`<%[1]s>` + strings.Repeat("<a>", 40) + strings.Repeat("</a>", 40) + `</%[1]s>`,
}

// FuzzGeneratedDecoders holds the two modes of xmlwire.Reader to each other at the message level, for
// every generated decoder (testsupport's filler reaches them all from the descriptors): whenever fast mode
// decodes arbitrary content, full mode decodes it too, to a reflect.DeepEqual value; an error of the
// content's meaning (a repeated element, a bad value) is the same in both. FuzzFastEnvelope covers the
// envelope and the parameters of today's requests; this target covers nested complex types, arrays,
// nil items and the response wrappers the client decodes.
func FuzzGeneratedDecoders(f *testing.F) { fuzzDecoders(f, gen.Operations) }

// fuzzDecoders is FuzzGeneratedDecoders for the operations of any generated table.
func fuzzDecoders(f *testing.F, ops []*wire.Operation) {
	targets, err := decoderTargets(ops)
	if err != nil {
		f.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for i, target := range targets {
		for _, src := range []testsupport.ValueSource{testsupport.SampleValues{Str: "s"}, testsupport.SampleValues{Minimal: true}, testsupport.RandomValues{Rnd: rnd}, testsupport.RandomValues{Rnd: rnd}} {
			m := target.new()
			if err := testsupport.NewFiller(src).Message(m, target.fields); err != nil {
				f.Fatal(err)
			}
			f.Add(uint(i), m.AppendXML(nil))
		}
		if len(target.fields) > 0 {
			for _, shape := range decoderSeedShapes {
				f.Add(uint(i), []byte(fmt.Sprintf(shape, target.fields[0].Name, wsdl.DefaultNamespace)))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint, content []byte) {
		target := targets[which%uint(len(targets))]
		got, err := decodeWrapped(target, content, true)
		want, fullErr := decodeWrapped(target, content, false)
		if err != nil {
			if err != xmlwire.ErrFallback && (fullErr == nil || err.Error() != fullErr.Error()) {
				t.Fatalf("%s: fast mode reported %v, full mode %v: %q", target.name, err, fullErr, content)
			}
			return
		}
		if fullErr != nil {
			t.Fatalf("%s: fast mode accepted what full mode refuses (%v): %q", target.name, fullErr, content)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: fast mode %#v, full mode %#v: %q", target.name, got, want, content)
		}
	})
}

// TestDecoderTargets proves the fuzz target reaches every generated decoder, and that fast mode takes
// the plain content the client writes for each, so the comparison is not empty. (The committed corpus
// under testdata/fuzz/FuzzGeneratedDecoders picks targets by index in name order: ArrayOfString 0,
// Contact 1, ReadContactResponse 5 today; a new operation shifts them, which leaves them valid
// inputs.)
func TestDecoderTargets(t *testing.T) { checkDecoderTargets(t, gen.Operations) }

func checkDecoderTargets(t *testing.T, ops []*wire.Operation) {
	targets, err := decoderTargets(ops)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, target := range targets {
		names[target.name] = true
	}
	for _, op := range ops {
		if !names[op.RequestElement] || !names[op.ResponseElement] {
			t.Errorf("the wrappers of %s are not fuzzed", op.Name)
		}
	}
	for name, typ := range testsupport.ReachableTypes(ops) {
		if !typ.Kind.Simple() && !names[name] {
			t.Errorf("the type %s is not fuzzed", name)
		}
	}
	for _, target := range targets {
		m := target.new()
		if err := testsupport.NewFiller(testsupport.SampleValues{Str: "plain"}).Message(m, target.fields); err != nil {
			t.Fatal(err)
		}
		content := m.AppendXML(nil)
		got, err := decodeWrapped(target, content, true)
		if err != nil {
			t.Errorf("%s: fast mode does not take %q: %v", target.name, content, err)
			continue
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%s: fast mode decoded %#v from %q, written from %#v", target.name, got, content, m)
		}
	}
}
