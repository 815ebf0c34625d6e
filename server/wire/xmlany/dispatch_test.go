package xmlany_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire/xmlany"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// The hierarchies of zoo3 (shapes/zoo3.wsdl): Animal with Cat and Dog, the abstract Shape with
// Square and Circle.
var (
	animals = &xmlany.Hierarchy{Declared: "Animal", Derived: []string{"Cat", "Dog"}}
	shapes  = &xmlany.Hierarchy{Declared: "Shape", Abstract: true, Derived: []string{"Square", "Circle"}}
)

// dispatch reads doc (an envelope) down to its parameter in the mode given and dispatches it.
func dispatch(t *testing.T, doc string, h *xmlany.Hierarchy, fast bool) (int, error) {
	t.Helper()
	r := xmlwire.NewReader([]byte(doc), ns, limits, fast)
	s, err := r.Root()
	require.NoError(t, err)
	for range 3 {
		s, _, err = r.Child()
		require.NoError(t, err)
	}
	return xmlany.Dispatch(r, s, h)
}

func TestDispatch(t *testing.T) {
	for _, tt := range []struct {
		capture string
		h       *xmlany.Hierarchy
		param   string
		want    int
		err     string // a Client fault's message, in both modes unless fastFallback
	}{
		{"soap11-EchoAnimal-base", animals, `<animal><Name>Rex</Name></animal>`, 0, ""},
		{"soap11-EchoAnimal-dog", animals, `<animal xsi:type="Dog"><Name>Rex</Name></animal>`, 2, ""},
		{"soap11-EchoAnimal-cat", animals, `<animal xsi:type="Cat"><Name>Tom</Name></animal>`, 1, ""},
		{"soap11-EchoAnimal-dog-other-prefix", animals, `<animal xmlns:z="` + ns + `" xsi:type="z:Dog"/>`, 2, ""},
		{"the declared type named", animals, `<animal xsi:type="Animal"/>`, 0, ""},
		{"soap11-EchoAnimal-unknown-type", animals, `<animal xsi:type="Horse"/>`, 0,
			"The xsi:type {" + ns + "}Horse of the element animal is not Animal or a type derived from it."},
		{"soap11-EchoAnimal-wrong-ns-type", animals, `<animal xmlns:q="urn:wrong" xsi:type="q:Dog"/>`, 0,
			"The xsi:type {urn:wrong}Dog of the element animal is not Animal or a type derived from it."},
		{"soap11-EchoAnimal-xsd-string", animals, `<animal xsi:type="xsd:string">Rex</animal>`, 0,
			"The xsi:type {http://www.w3.org/2001/XMLSchema}string of the element animal is not Animal or a type derived from it."},
		{"a type of another hierarchy", animals, `<animal xsi:type="Circle"/>`, 0,
			"The xsi:type {" + ns + "}Circle of the element animal is not Animal or a type derived from it."},
		// An xsi:type attribute whose own prefix is unbound (i: without xmlns:i) would otherwise read as
		// no xsi:type at all; a type attribute of a bound namespace is someone else's, and ignored.
		{"an unbound type attribute prefix", animals, `<animal i:type="Dog"><Name>Rex</Name></animal>`, 0,
			"The attribute i:type of the element animal uses the namespace prefix i, which is not declared."},
		{"a type attribute of another namespace", animals, `<animal xmlns:p="urn:p" p:type="Dog"/>`, 0, ""},
		{"an unbound type attribute prefix on an abstract element", shapes, `<shape i:type="Circle"/>`, 0,
			"The attribute i:type of the element shape uses the namespace prefix i, which is not declared."},
		{"soap11-DescribeShape-circle", shapes, `<shape xsi:type="Circle"><Radius>1</Radius></shape>`, 2, ""},
		{"soap11-DescribeShape-no-type", shapes, `<shape><Label>x</Label></shape>`, 0,
			"The element shape has the abstract type Shape: its xsi:type must name a type derived from it."},
		{"soap11-DescribeShape-abstract-type", shapes, `<shape xsi:type="Shape"/>`, 0,
			"The element shape has the abstract type Shape: its xsi:type must name a type derived from it."},
	} {
		t.Run(tt.capture, func(t *testing.T) {
			doc := envelope(`<Op xmlns="` + ns + `">` + tt.param + `</Op>`)
			for _, fast := range []bool{false, true} {
				got, err := dispatch(t, doc, tt.h, fast)
				if fast && strings.Contains(tt.param, ":type=") {
					// The fast reader keeps no attribute values: a typed element steps aside to the full one.
					assert.ErrorIs(t, err, xmlwire.ErrFallback)
					continue
				}
				if tt.err == "" {
					require.NoError(t, err, "fast %v", fast)
					assert.Equal(t, tt.want, got, "fast %v", fast)
					continue
				}
				require.Error(t, err, "fast %v", fast)
				f := fault.As(err)
				assert.True(t, f.Code.CallerFault(), "fast %v: %v", fast, err)
				assert.Equal(t, tt.err, f.Message, "fast %v", fast)
			}
		})
	}
}

// TestDispatchUndeclaredPrefix: soap11-EchoAnimal-undeclared-prefix is XSIType's fault in the full
// mode; the fast mode steps aside (xmlwire.ErrFallback) rather than answer.
func TestDispatchUndeclaredPrefix(t *testing.T) {
	doc := envelope(`<Op xmlns="` + ns + `"><animal xsi:type="nope:Dog"/></Op>`)
	_, err := dispatch(t, doc, animals, false)
	require.Error(t, err)
	assert.Equal(t, `The xsi:type "nope:Dog" of the element animal uses the namespace prefix nope, which is not declared.`, fault.As(err).Message)
	_, err = dispatch(t, doc, animals, true)
	assert.ErrorIs(t, err, xmlwire.ErrFallback)
}

// FuzzXSITypeDispatch: for any xsi:type value and prefix declaration on an element of zoo3's abstract
// Shape or concrete Animal, Dispatch answers an index within the hierarchy or a Client fault, never a
// panic; never the abstract declared type; the type chosen is the one the xsi:type resolves to (or the
// declared one without it); and the fast reader, when it answers, agrees with the full one.
func FuzzXSITypeDispatch(f *testing.F) {
	for _, s := range [][3]string{
		{"z", ns, "z:Dog"}, {"q", "urn:wrong", "q:Dog"}, {"x", "", "nope:Dog"}, {"x", "http://www.w3.org/2001/XMLSchema", "x:string"},
		{"p", ns, "Circle"}, {"p", ns, "Shape"}, {"p", "urn:p", ""}, {"", "", "-"},
	} {
		f.Add(s[0], s[1], s[2], false)
		f.Add(s[0], s[1], s[2], true)
	}
	f.Fuzz(func(t *testing.T, prefix, uri, value string, abstract bool) {
		h := animals
		if abstract {
			h = shapes
		}
		attrs := ""
		if prefix != "" {
			attrs = ` xmlns:` + prefix + `="` + string(xmlwire.AppendEscaped(nil, uri)) + `"`
		}
		if value != "-" {
			attrs += ` xsi:type="` + string(xmlwire.AppendEscaped(nil, value)) + `"`
		}
		doc := `<w xmlns="` + ns + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><e` + attrs + `/></w>`
		full, ok, fullErr := dispatchDoc(doc, h, false)
		if !ok {
			return // not a document: the reader's own tests cover that
		}
		if fullErr != nil {
			require.True(t, fault.As(fullErr).Code.CallerFault(), "%v", fullErr)
		} else {
			require.True(t, full >= 0 && full <= len(h.Derived), "index %d", full)
			require.False(t, h.Abstract && full == 0, "the abstract declared type")
			name, typed, _, err := readType(doc, false)
			require.NoError(t, err)
			if typed {
				require.Equal(t, ns, name.Space)
				require.Equal(t, append([]string{h.Declared}, h.Derived...)[full], name.Local)
			}
		}
		if fast, ok, fastErr := dispatchDoc(doc, h, true); ok && fastErr != xmlwire.ErrFallback {
			require.Equal(t, fullErr == nil, fastErr == nil, "full %v, fast %v", fullErr, fastErr)
			require.Equal(t, full, fast)
		}
	})
}

// dispatchDoc dispatches doc's first child element in the mode given; ok is false when the document
// is not read that far.
func dispatchDoc(doc string, h *xmlany.Hierarchy, fast bool) (int, bool, error) {
	r := xmlwire.NewReader([]byte(doc), ns, limits, fast)
	if _, err := r.Root(); err != nil {
		return 0, fast && err == xmlwire.ErrFallback, err
	}
	s, found, err := r.Child()
	if err != nil || !found {
		return 0, fast && err == xmlwire.ErrFallback, err
	}
	i, err := xmlany.Dispatch(r, s, h)
	return i, true, err
}

// TestAppendRootXSIType: the attribute goes inside the start tag an HTTP result's content follows;
// anything else is left alone.
func TestAppendRootXSIType(t *testing.T) {
	assert.Equal(t, `<Animal xmlns="urn:z" xsi:type="Dog">`, string(xmlany.AppendRootXSIType([]byte(`<Animal xmlns="urn:z">`), "Dog")))
	assert.Equal(t, `<a xsi:type="T&amp;">`, string(xmlany.AppendRootXSIType([]byte(`<a>`), "T&")))
	assert.Equal(t, `<a />`, string(xmlany.AppendRootXSIType([]byte(`<a />`), "Dog")))
	assert.Equal(t, `text`, string(xmlany.AppendRootXSIType([]byte(`text`), "Dog")))
	assert.Empty(t, xmlany.AppendRootXSIType(nil, "Dog"))
}

// TestDispatchFollowsTheServiceNamespace: the derived types are named in the namespace the request
// is read in, so a contract served rebased onto another namespace dispatches there, and its old
// namespace names no type of it.
func TestDispatchFollowsTheServiceNamespace(t *testing.T) {
	const moved = "https://example.test/moved/"
	doc := `<w xmlns="` + moved + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:o="` + ns + `"><a xsi:type="Dog"/><b xsi:type="o:Dog"/></w>`
	r := xmlwire.NewReader([]byte(doc), moved, limits, false)
	_, err := r.Root()
	require.NoError(t, err)
	a, _, err := r.Child()
	require.NoError(t, err)
	i, err := xmlany.Dispatch(r, a, animals)
	require.NoError(t, err)
	assert.Equal(t, 2, i)
	require.NoError(t, r.Skip(a))
	b, _, err := r.Child()
	require.NoError(t, err)
	_, err = xmlany.Dispatch(r, b, animals)
	require.Error(t, err)
	assert.Contains(t, fault.As(err).Message, "{"+ns+"}Dog of the element b is not Animal")
}
