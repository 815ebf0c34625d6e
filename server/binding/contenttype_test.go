package binding

import (
	"mime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkReadContentType fails t when ReadContentType reads header otherwise than mime.ParseMediaType:
// its media type, error and every parameter. It reports whether the header was read without mime.
func checkReadContentType(t *testing.T, header string) (simple bool) {
	t.Helper()
	wantType, wantParams, wantErr := mime.ParseMediaType(header)
	c := ReadContentType(header)
	if c.MediaType != wantType || (c.Err == nil) != (wantErr == nil) {
		t.Fatalf("ReadContentType(%q) = %q, error %v; mime.ParseMediaType gives %q, error %v", header, c.MediaType, c.Err, wantType, wantErr)
	}
	for name, want := range wantParams {
		if got, ok := c.Param(name); !ok || got != want {
			t.Fatalf("ReadContentType(%q).Param(%q) = %q, %v; mime.ParseMediaType gives %q", header, name, got, ok, want)
		}
	}
	for _, name := range []string{"charset", "action", "boundary"} {
		if _, want := wantParams[name]; !want {
			if got, ok := c.Param(name); ok {
				t.Fatalf("ReadContentType(%q).Param(%q) = %q; mime.ParseMediaType has no such parameter", header, name, got)
			}
		}
	}
	// MayHaveMediaType lets a caller skip the parse only when the parse could not find the media type.
	if c.MediaType != "" && !MayHaveMediaType(header, c.MediaType) {
		t.Fatalf("MayHaveMediaType(%q, %q) is false, but ReadContentType reads that media type", header, c.MediaType)
	}
	return c.parsed == nil && c.Err == nil
}

func TestReadContentType(t *testing.T) {
	const action = `"http://localhost:8080/contactsync/v1/ReadContact"`
	for _, tc := range []struct {
		header string
		simple bool // read without mime: the shapes clients send must be
	}{
		{"text/xml; charset=utf-8", true},
		{"text/xml; charset=UTF-8", true},
		{"text/xml;charset=utf-8", true},
		{"text/xml", true},
		{"Text/XML; Charset=utf-8", true},
		{"application/soap+xml; charset=utf-8; action=" + action, true},
		{"application/soap+xml;charset=utf-8;action=" + action, true},
		{"application/soap+xml; action=" + action + "; charset=utf-8", true},
		{"application/soap+xml; action=\"\"", true},
		{"application/soap+xml; action=ReadContact", true},
		{"application/soap+xml ; action = " + action + " ;", true},
		{"application/x-www-form-urlencoded", true},
		{"application/x-www-form-urlencoded; charset=utf-8", true},
		{"application/json; charset=utf-8", true},
		{"application/soap+xml; charset=utf-8; action=" + action + "; action=x", false},
		{"application/soap+xml; ACTION=a; action=b", false},
		{"application/x-www-form-urlencoded; charset=\"utf-8\"; a=1; b=2; c=3; d=4", false},
		{`application/soap+xml; action="a\"b"`, false},
		{`application/soap+xml; action="unterminated`, false},
		{"application/soap+xml; action*=utf-8''a", false},
		{"application/soap+xml; action=a:b", false},
		{"application/soap+xml; ;", false},
		{"multipart/form-data; boundary=x", true},
		{"text/xml/x", false},
		{"text/", false},
		{" text/xml", false},
		{"", false},
	} {
		t.Run(tc.header, func(t *testing.T) {
			if got := checkReadContentType(t, tc.header); got != tc.simple {
				t.Errorf("ReadContentType(%q) read without mime: %v, want %v", tc.header, got, tc.simple)
			}
		})
	}
}

// FuzzReadContentType holds ReadContentType to mime.ParseMediaType for any header.
func FuzzReadContentType(f *testing.F) {
	f.Add("application/soap+xml; charset=utf-8; action=\"http://localhost:8080/contactsync/v1/ReadContact\"")
	f.Add("text/xml; charset=utf-8")
	f.Add("application/x-www-form-urlencoded; charset=utf-8")
	f.Add("application/soap+xml; action=a; ACTION=b")
	f.Add("appl\u0130cation/json")
	f.Fuzz(func(t *testing.T, header string) {
		checkReadContentType(t, header)
	})
}

// TestMayHaveMediaType: the pre-check before a parse says no only where no spelling of the media type
// is in the header; anything beyond ASCII is a maybe.
func TestMayHaveMediaType(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{"application/json", true},
		{"Application/JSON; charset=utf-8", true},
		{"  application/json", true},
		{"application/x-www-form-urlencoded", false},
		{"text/json", false},
		{"", false},
		{"appl\u0130cation/json", true},                                    // U+0130 lower-cases to i: mime reads application/json
		{"text/plain; x=\u212A", true},                                     // the Kelvin sign: beyond ASCII, a maybe
		{"text/plain; charset=utf-8; x=J", false},                          // a J, but no json in any case
		{"multipart/form-data; boundary=0123456789APPLICATION/JSON", true}, // past the first words
		{"text/plain; charset=utf-8; x=\u00e9", true},                      // beyond ASCII in a later word
	} {
		assert.Equal(t, tc.want, MayHaveMediaType(tc.header, "application/json"), "%q", tc.header)
	}
	assert.Equal(t, "application/json", ReadContentType("appl\u0130cation/json").MediaType, "why a non-ASCII header is a maybe")
}

// TestMayHoldByte holds the eight-bytes-at-a-time search to the obvious loop, for every length up to
// three words, every position of the byte looked for and of a byte beyond ASCII.
func TestMayHoldByte(t *testing.T) {
	naive := func(s string, key byte) bool {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 || s[i]|0x20 == key {
				return true
			}
		}
		return false
	}
	for n := 0; n <= 24; n++ {
		base := []byte(strings.Repeat("a", n))
		check := func(s string) {
			for _, key := range []byte("jsxz") {
				require.Equal(t, naive(s, key), mayHoldByte(s, key), "%q %q", s, key)
			}
		}
		check(string(base))
		for i := range n {
			for _, c := range []byte{'j', 'J', 'S', '+', 0x0b, 0x80, 0xff, 'i', 'k'} {
				b := append([]byte(nil), base...)
				b[i] = c
				check(string(b))
			}
		}
	}
}
