package httpform

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

const fuzzNS = wsdl.DefaultNamespace

// FuzzHTTPBindings feeds arbitrary paths, queries and form bodies to the HTTP GET and POST decoders.
func FuzzHTTPBindings(f *testing.F) {
	for _, s := range [][2]string{{"ReadContact", "id=1"}, {"Version", ""}, {"ReadContact", "id=%zz"}, {"ReadContact", "id=1&id=2"}, {"Nope", "id=%F0%9F%98%80"}} {
		f.Add(s[0], s[1], false)
		f.Add(s[0], s[1], true)
	}
	f.Fuzz(func(t *testing.T, op, params string, post bool) {
		b := New(post, fuzzNS, gen.Operations)
		target := wsdl.Path + "/" + op
		var r *http.Request
		if post {
			r = httptest.NewRequest(http.MethodPost, wsdl.Path+"/x", strings.NewReader(params))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		} else {
			r = httptest.NewRequest(http.MethodGet, wsdl.Path+"/x", nil)
			r.URL.RawQuery = params
		}
		r.URL.Path = target
		got, err := b.Decode(r, op, []byte(params))
		if err == nil {
			if got.Op == nil || got.Op.Name != op {
				t.Fatalf("decoded %q as %v", op, got.Op)
			}
			// The decoder only extracts; the service validates (an empty id is refused there). So on
			// success each string parameter must be exactly the one value the parameters hold under
			// its name, matched without regard to case.
			values, perr := url.ParseQuery(params)
			encoded := url.Values{}
			got.Op.EncodeForm(got.Msg, encoded)
			for _, p := range got.Op.Params {
				var given []string
				for k, vs := range values {
					if strings.EqualFold(k, p.Name) {
						given = append(given, vs...)
					}
				}
				if p.Type.Kind == wire.KindString && (perr != nil || len(given) != 1 || given[0] != encoded.Get(p.Name)) {
					t.Fatalf("decoded %s=%q from %q", p.Name, encoded.Get(p.Name), params)
				}
			}
		}
	})
}
