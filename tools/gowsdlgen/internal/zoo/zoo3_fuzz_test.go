package zoo_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

const zoo3Namespace = "http://localhost:8080/zoo3/v1/"

// hierarchyTarget is a generated message holding values of zoo3's hierarchies (Animal, the abstract
// Shape), decoded through the generated xsi:type dispatch.
type hierarchyTarget struct {
	element string
	new     func() wire.Message
}

func hierarchyTargets() []hierarchyTarget {
	var ts []hierarchyTarget
	for _, op := range zoo3.Operations {
		switch op.Name {
		case "GetAnimal", "EchoAnimal", "ListAnimals", "GetKennel", "GetShape", "DescribeShape":
			ts = append(ts, hierarchyTarget{op.RequestElement, op.NewRequest}, hierarchyTarget{op.ResponseElement, op.NewResponse})
		}
	}
	return ts
}

// wrapperContent finds the content of a captured message's wrapper element (request or response).
var wrapperContent = regexp.MustCompile(`<(\w+) xmlns="http://localhost:8080/zoo3/v1/">(.*?)</(\w+)>(?:</soap|</env|\s*</soap|\s*</env)`)

// decodeHierarchy decodes content inside the target's wrapper (which declares xsi and xsd, as the
// envelope does) in the mode given and returns it written back.
func decodeHierarchy(tg hierarchyTarget, content []byte, fast bool) ([]byte, error) {
	doc := append([]byte(`<`+tg.element+` xmlns="`+zoo3Namespace+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`), content...)
	doc = append(doc, `</`+tg.element+`>`...)
	rd := xmlwire.NewReader(doc, zoo3Namespace, xmlwire.Limits{MaxDepth: 32, MaxElements: 10000}, fast)
	if _, err := rd.Root(); err != nil {
		return nil, err
	}
	m := tg.new()
	if err := m.DecodeXML(rd); err != nil {
		return nil, err
	}
	if err := rd.End(); err != nil {
		return nil, err
	}
	return m.AppendXML(nil), nil
}

// FuzzZoo3Hierarchies holds the generated xsi:type dispatch (decode<Base>Any over xmlany.Dispatch,
// abstract bases, nil items, derived fields) to the runtime's two modes agreeing, as FuzzZooDecoders
// does, and to a fixed point: what decodes is written back with xsi:type where the value is of a
// derived type, and that reads back as the same value.
func FuzzZoo3Hierarchies(f *testing.F) {
	targets := hierarchyTargets()
	if len(targets) == 0 {
		f.Fatal("zoo3 carries none of the inheritance operations")
	}
	files, _ := filepath.Glob("testdata/shapes/captures/soap1*-*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, m := range wrapperContent.FindAllSubmatch(data, -1) {
			for i, tg := range targets {
				if string(m[1]) == tg.element {
					f.Add(m[2], uint8(i))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, content []byte, which uint8) {
		tg := targets[int(which)%len(targets)]
		fast, fastErr := decodeHierarchy(tg, content, true)
		full, fullErr := decodeHierarchy(tg, content, false)
		switch {
		case fastErr == xmlwire.ErrFallback:
		case fastErr != nil:
			if fullErr == nil || fastErr.Error() != fullErr.Error() {
				t.Fatalf("the fast path reported %v, the full decoder %v: %q", fastErr, fullErr, content)
			}
		case fullErr != nil:
			t.Fatalf("the fast path accepted what the full decoder refuses (%v): %q", fullErr, content)
		case !bytes.Equal(fast, full):
			t.Fatalf("fast path %s, full decoder %s: %q", fast, full, content)
		}
		if fullErr != nil {
			return
		}
		again, err := decodeHierarchy(tg, full, false)
		require.NoError(t, err, "written back: %s", full)
		require.Equal(t, string(full), string(again))
	})
}

// TestZoo3HierarchySeeds keeps FuzzZoo3Hierarchies meaningful: the captures give it seeds for every
// target, and a derived value among them decodes as its type and is written back with xsi:type.
func TestZoo3HierarchySeeds(t *testing.T) {
	targets := hierarchyTargets()
	require.Len(t, targets, 12)
	got, err := decodeHierarchy(targets[2], []byte(`<animal xmlns:z="`+zoo3Namespace+`" xsi:type="z:Dog"><Name>Rex</Name><Barks>3</Barks></animal>`), false)
	require.NoError(t, err)
	require.Equal(t, `<animal xsi:type="Dog"><Name>Rex</Name><Barks>3</Barks></animal>`, string(got))
	seeded := map[string]bool{}
	files, _ := filepath.Glob("testdata/shapes/captures/soap1*-*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, m := range wrapperContent.FindAllSubmatch(data, -1) {
			seeded[string(m[1])] = true
		}
	}
	for _, tg := range targets {
		if tg.element != "ListAnimals" && tg.element != "GetKennel" { // requests without content
			require.True(t, seeded[tg.element], "no capture seeds %s", tg.element)
		}
	}
}

// TestZoo3HierarchiesJSON: on the JSON endpoint a value of an element with derived types carries its
// type's XSD local name first as "__type" (design §3.7, docs/bindings.md), and a leading "__type"
// chooses the type read; none reads the declared type, an abstract one or an unknown name is the
// caller's error naming it.
func TestZoo3HierarchiesJSON(t *testing.T) {
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json", "docs"}})
	require.NoError(t, err)
	call := func(op, body string) (int, string) {
		r := httptest.NewRequest(http.MethodPost, zoo3.Contract.Path+"/"+op, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json; charset=utf-8")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	for _, tt := range []struct {
		op, body string
		status   int
		want     string
	}{
		{"GetAnimal", `{"kind":"dog"}`, 200, `{"d":{"__type":"Dog","Name":"Rex","Barks":3}}`},
		{"GetAnimal", `{"kind":"animal"}`, 200, `{"d":{"__type":"Animal","Name":"Generic"}}`},
		{"GetAnimal", `{"kind":"none"}`, 200, `{"d":null}`},
		{"EchoAnimal", `{"animal":{"__type":"Cat","Name":"Tom","Indoor":true}}`, 200, `{"d":{"__type":"Cat","Name":"Tom","Indoor":true}}`},
		{"EchoAnimal", `{"animal":{"Name":"Rex","Barks":3}}`, 200, `{"d":{"__type":"Animal","Name":"Rex"}}`},
		{"EchoAnimal", `{"animal":{"__type":"Horse"}}`, 500, `The __type \"Horse\" of the parameter animal is not Animal or a type derived from it.`},
		{"DescribeShape", `{"shape":{"__type":"Circle","Radius":1.5,"Label":"c1"}}`, 200, `{"d":"Circle{Radius=Double=1.5,Label=String=c1}"}`},
		{"DescribeShape", `{"shape":{"Label":"c1"}}`, 500, `The parameter shape has the abstract type Shape: its __type must name a type derived from it.`},
		{"GetKennel", `{}`, 200, `{"d":{"Owner":"Ann","Favorite":{"__type":"Dog","Name":"Rex","Barks":3},"Animals":[{"__type":"Cat","Name":"Tom","Indoor":true},{"__type":"Animal","Name":"Generic"}]}}`},
	} {
		status, body := call(tt.op, tt.body)
		assert.Equal(t, tt.status, status, "%s %s: %s", tt.op, tt.body, body)
		assert.Contains(t, body, tt.want, "%s %s", tt.op, tt.body)
	}
}
