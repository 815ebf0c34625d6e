package json

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/wsdl"
)

// FuzzJSONBinding feeds arbitrary operation names and bodies to the JSON endpoint's decoder: it must
// never panic, every refusal must carry a message, and an accepted request must name the operation
// asked for and re-encode to a body it accepts again with the same result.
func FuzzJSONBinding(f *testing.F) {
	for _, s := range [][2]string{
		{"ReadContact", `{"id":"1"}`}, {"Version", `{}`}, {"Version", ``}, {"ReadContact", `{"id":1}`},
		{"ReadContact", `{"id":"a","id":"b"}`}, {"ReadContact", `[[[[[[]]]]]]`}, {"ReadContact", `{"id":"\ud800"}`},
		{"Nope", `{}`}, {"ReadContact", `{"id":null}`}, {"ReadContact", `{"id":"x"} trailing`},
	} {
		f.Add(s[0], s[1])
	}
	b := New(xmlwire.Limits{MaxDepth: 32}, gen.Operations)
	f.Fuzz(func(t *testing.T, op, body string) {
		r := httptest.NewRequest(http.MethodPost, wsdl.Path+"/x", strings.NewReader(body))
		r.URL.Path = wsdl.Path + "/" + op
		r.Header.Set("Content-Type", "application/json")
		got, err := b.Decode(r, op, []byte(body))
		if err != nil {
			if err.Message == "" {
				t.Fatalf("error without a message for %q", body)
			}
			return
		}
		if got.Op == nil || got.Op.Name != op || got.Msg == nil {
			t.Fatalf("decoded %q as %+v", op, got)
		}
		again := got.Msg.(interface{ AppendJSON([]byte) []byte }).AppendJSON(nil)
		r2 := httptest.NewRequest(http.MethodPost, r.URL.Path, strings.NewReader(string(again)))
		r2.Header.Set("Content-Type", "application/json")
		back, err := b.Decode(r2, op, again)
		if err != nil {
			t.Fatalf("the re-encoded request %s is refused: %v", again, err)
		}
		if string(back.Msg.(interface{ AppendJSON([]byte) []byte }).AppendJSON(nil)) != string(again) {
			t.Fatalf("the round trip changed %s", again)
		}
	})
}
