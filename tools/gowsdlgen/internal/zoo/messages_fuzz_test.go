package zoo_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/fetchitem"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/outref"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/overloads"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/renamed"
)

// messageOps are the operations of the contracts cut from the third zoo for its message shapes: out
// and ref parameters, renamed elements, overloads, a wrapper of another namespace.
var messageOps = func() []*wire.Operation {
	var ops []*wire.Operation
	for _, table := range [][]*wire.Operation{outref.Operations, renamed.Operations, overloads.Operations, fetchitem.Operations} {
		ops = append(ops, table...)
	}
	return ops
}()

// soapBodyContent finds the content of a captured envelope's Body.
var soapBodyContent = regexp.MustCompile(`(?s)<soap(?:12)?:Body>(.*?)</soap(?:12)?:Body>`)

// decodeMessage decodes body, one wrapper element, as op's request (response false) or response with
// the generated decoder, in the fast or the full mode of the runtime's reader, checking the wrapper's
// name and namespace as the SOAP binding and the client do; it returns the message written back, nil
// when body is not that wrapper.
func decodeMessage(op *wire.Operation, body []byte, response, fast bool) ([]byte, error) {
	rd := xmlwire.NewReader(body, oneWayNamespace, xmlwire.Limits{MaxDepth: 32, MaxElements: 10000}, fast)
	root, err := rd.Root()
	if err != nil {
		return nil, err
	}
	name, ns, msg := op.RequestElement, op.RequestNamespace, op.NewRequest
	if response {
		name, ns, msg = op.ResponseElement, op.ResponseNamespace, op.NewResponse
	}
	if ns == "" {
		ns = oneWayNamespace
	}
	if !rd.IsElement(root, ns, name) {
		return nil, nil
	}
	m := msg()
	if err := m.DecodeXML(rd); err != nil {
		return nil, err
	}
	if err := rd.End(); err != nil {
		return nil, err
	}
	return m.AppendXML(nil), nil
}

// FuzzMessageDecoders holds the generated decoders of the message shapes (out/ref response wrappers
// of several elements, renamed elements, overloads, a wrapper whose qualified children are in another
// namespace, read by switching the reader's namespace) to the runtime's two modes agreeing, requests
// and responses alike (the client reads responses from a server it may not trust): whatever the fast
// path decodes, the full decoder decodes to the same values, and an error is the same error in both;
// the fast path may only step aside with ErrFallback. Seeds: the captured SOAP bodies of those
// contracts.
func FuzzMessageDecoders(f *testing.F) {
	for _, body := range messageBodies(f) {
		for i, op := range messageOps {
			for d, response := range []bool{false, true} {
				if msg, err := decodeMessage(op, body, response, false); msg != nil || err != nil {
					f.Add(body, uint8(2*i+d)) // the operation and direction it is a message of
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		op := messageOps[int(which/2)%len(messageOps)]
		response := which%2 == 1
		fast, fastErr := decodeMessage(op, body, response, true)
		full, fullErr := decodeMessage(op, body, response, false)
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

// TestMessageDecodersReadCapturedBodies keeps FuzzMessageDecoders meaningful: the captured request and
// response bodies of the message-shape contracts are decoded by their operation's decoder on the fast
// path, to what the full decoder reads; among them the out/ref responses and the {urn:items} wrappers.
func TestMessageDecodersReadCapturedBodies(t *testing.T) {
	decoded := map[string]bool{}
	for _, body := range messageBodies(t) {
		for _, op := range messageOps {
			for _, response := range []bool{false, true} {
				fast, fastErr := decodeMessage(op, body, response, true)
				full, fullErr := decodeMessage(op, body, response, false)
				if fast == nil || fastErr != nil {
					continue
				}
				if fullErr != nil || !bytes.Equal(fast, full) {
					t.Errorf("%q: fast %s, full %s (%v)", body, fast, full, fullErr)
				}
				key := op.RequestElement
				if response {
					key = op.ResponseElement
				}
				decoded[key] = true
			}
		}
	}
	for _, want := range []string{"Split", "SplitResponse", "DivideResponse", "Renamed", "RenamedResponse", "LookupReply", "AddDoubles", "ScaleText", "GetItem", "GetItemReply"} {
		if !decoded[want] {
			t.Errorf("no captured %s was decoded on the fast path", want)
		}
	}
}

// messageBodies returns the SOAP Body contents of the captures of the message-shape contracts.
func messageBodies(tb testing.TB) [][]byte {
	var bodies [][]byte
	for _, dir := range []string{"outref", "renamed", "overloads", "fetchitem"} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "captures", "soap1*-*.txt"))
		if err != nil || len(files) == 0 {
			tb.Fatalf("no SOAP captures in testdata/%s: %v", dir, err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				tb.Fatal(err)
			}
			for _, m := range soapBodyContent.FindAllSubmatch(data, -1) {
				bodies = append(bodies, bytes.TrimSpace(m[1]))
			}
		}
	}
	return bodies
}
