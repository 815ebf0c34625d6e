package zoo_test

import (
	"bytes"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/formwire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo2"
)

// requestElement finds a captured SOAP request's operation element.
var requestElement = regexp.MustCompile(`(?s)<(\w+) xmlns="http://localhost:8080/zoo/v1/">.*</(\w+)>|<(\w+) xmlns="http://localhost:8080/zoo/v1/" />`)

// decodeRequest decodes an operation's request element from body with the generated decoder, in the
// fast or the full mode of the runtime's reader, and returns it written back.
func decodeRequest(op *wire.Operation, body []byte, fast bool) ([]byte, error) {
	rd := xmlwire.NewReader(body, zooNamespace, xmlwire.Limits{MaxDepth: 32, MaxElements: 10000}, fast)
	root, err := rd.Root()
	if err != nil {
		return nil, err
	}
	if !root.Is(op.RequestElement) {
		return nil, nil
	}
	msg := op.NewRequest()
	if err := msg.DecodeXML(rd); err != nil {
		return nil, err
	}
	if err := rd.End(); err != nil {
		return nil, err
	}
	return msg.AppendXML(nil), nil
}

// FuzzZooDecoders holds the generated decoders of every zoo request (every XSD type of the subset,
// nested types, arrays, nil) to the runtime's two modes agreeing: whatever the fast path decodes, the
// full decoder decodes to the same values (compared written back, so NaN compares equal), and an error
// of meaning is the same error in both; the fast path may only step aside with ErrFallback.
func FuzzZooDecoders(f *testing.F) {
	files, _ := filepath.Glob("testdata/captures/soap11-*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if m := requestElement.Find(data); m != nil {
			for i := range zoo.Operations {
				if bytes.HasPrefix(m, []byte("<"+zoo.Operations[i].RequestElement+" ")) {
					f.Add(m, uint8(i))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		op := zoo.Operations[int(which)%len(zoo.Operations)]
		fast, fastErr := decodeRequest(op, body, true)
		full, fullErr := decodeRequest(op, body, false)
		switch {
		case fastErr == xmlwire.ErrFallback:
		case fastErr != nil:
			if fullErr == nil || fastErr.Error() != fullErr.Error() {
				t.Fatalf("the fast path reported %v, the full decoder %v: %q", fastErr, fullErr, body)
			}
		case fullErr != nil:
			t.Fatalf("the fast path accepted what the full decoder refuses (%v): %q", fullErr, body)
		case !bytes.Equal(fast, full):
			t.Fatalf("fast path %s, full decoder %s: %q", fast, full, body)
		}
	})
}

// TestFastPathDecodesCapturedRequests keeps FuzzZooDecoders meaningful: the captured requests, the
// fuzzer's seeds, take the fast path (it does not step aside) and agree with the full decoder.
func TestFastPathDecodesCapturedRequests(t *testing.T) {
	fastCount := 0
	for _, c := range readCaptures(t) {
		m := requestElement.Find(c.reqBody)
		if m == nil {
			continue
		}
		var op *wire.Operation
		for _, o := range zoo.Operations {
			if bytes.HasPrefix(m, []byte("<"+o.RequestElement+" ")) {
				op = o
			}
		}
		if op == nil {
			continue
		}
		fast, fastErr := decodeRequest(op, m, true)
		full, fullErr := decodeRequest(op, m, false)
		if fastErr == nil {
			fastCount++
			if fullErr != nil || !bytes.Equal(fast, full) {
				t.Errorf("%s: fast %s, full %s (%v)", c.name, fast, full, fullErr)
			}
		}
	}
	// 25 of the 47 SOAP requests when this was written; the others carry xsi:nil or a bad value.
	if fastCount < 20 {
		t.Errorf("only %d captured requests took the fast path", fastCount)
	}
}

// FuzzZoo2Forms holds the generated HTTP GET/POST decoders of the second zoo (arrays of string, int
// and dateTime; dateTime, decimal, double, float, string, int, boolean and an enumeration) to their
// promises on any query: a request is decoded or refused with a *fault.Error naming the caller's
// mistake, never a panic; and what is decoded is written by the generated encoder as a form that
// decodes to the same request (compared written back as XML, so NaN compares equal).
func FuzzZoo2Forms(f *testing.F) {
	for _, seed := range []struct {
		op    int
		query string
	}{
		{0, "ids=a&IDS=b&ids=&ids=a%2Cb"}, {1, "counts=1&counts=+2+&counts=-0"}, {1, "counts=x"}, {2, "whens=2026-01-02&whens=2026-11-22+10%3a15%3a30.250000%2b02%3a00"},
		{3, "when=11%2f22%2f2026+10%3a15%3a30"}, {3, "when=Sun%2c+22+Nov+2026+10%3a15%3a30+GMT"}, {6, "amount=0.12345678901234567890123456789012"},
		{7, "ratio=Infinity"}, {9, "text=a&text=b"}, {11, "flag=True"}, {12, "tier=+Gold+"}, {12, "tier=7"}, {0, ""}, {3, "when=%zz"},
	} {
		f.Add(uint8(seed.op), seed.query)
	}
	f.Fuzz(func(t *testing.T, which uint8, query string) {
		op := zoo2.Operations[int(which)%len(zoo2.Operations)]
		if op.DecodeForm == nil {
			return
		}
		form, err := formwire.Parse(query)
		if err != nil {
			return
		}
		msg, err := op.DecodeForm(form)
		formwire.Put(form)
		if err != nil {
			var ferr *fault.Error
			if !errors.As(err, &ferr) || ferr.Code != fault.InvalidArgument {
				t.Fatalf("%s?%s: %v is not an InvalidArgument fault", op.Name, query, err)
			}
			return
		}
		encoded := url.Values{}
		op.EncodeForm(msg, encoded)
		again, err := formwire.Parse(encoded.Encode())
		if err != nil {
			t.Fatalf("%s: the encoded form %q does not parse: %v", op.Name, encoded.Encode(), err)
		}
		back, err := op.DecodeForm(again)
		formwire.Put(again)
		if err != nil {
			t.Fatalf("%s?%s decoded, but its encoding %q does not: %v", op.Name, query, encoded.Encode(), err)
		}
		if a, b := msg.AppendXML(nil), back.AppendXML(nil); !bytes.Equal(a, b) {
			t.Fatalf("%s?%s: decoded %s, round trip %s", op.Name, query, a, b)
		}
	})
}
