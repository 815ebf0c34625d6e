package server_test

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/binding"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/wsdl"
)

// roundTripper sends a client's requests straight to a handler, in process.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// testSeed returns the seed of a randomized test: CONTACTSYNC_TEST_SEED when set (to replay a
// failure), else a new one. The test logs it either way.
func testSeed(t *testing.T) uint64 {
	t.Helper()
	seed := rand.Uint64()
	if s := os.Getenv("CONTACTSYNC_TEST_SEED"); s != "" {
		var err error
		seed, err = strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, "CONTACTSYNC_TEST_SEED")
	}
	t.Logf("seed %d (replay with CONTACTSYNC_TEST_SEED=%d)", seed, seed)
	return seed
}

// roundTripRounds is how many random values each operation sends on each binding, in each direction.
const roundTripRounds = 40

// TestCodecRoundTrip is the generated codec's round-trip property. For every operation of the table,
// on every binding that offers it (the JSON endpoint included, which the handler serves here), random
// requests and responses (every element of every type reachable from the operations filled, left
// out, nil or repeated by chance, strings full of XML-hostile text) travel through the real writers and
// readers of both sides:
//
//   - the request from the bundled client's writer (SOAP envelope, EncodeForm for HTTP GET/POST, the
//     JSON body) to the server's decoder (the SOAP binding's fast and full readers, DecodeForm,
//     DecodeJSON);
//   - the response from the server's encoder (SOAP response wrapper, HTTP result root, {"d": …}) to
//     the client's decoder.
//
// Each value must arrive as sent, with deliberate exceptions (testsupport.Carrier): a string that
// crosses an XML document arrives as testsupport.XMLCarried makes it, each character XML 1.0 cannot
// carry (C0 controls but tab, LF and CR; U+FFFE, U+FFFF) and each byte of invalid UTF-8 replaced by
// U+FFFD, since a document holding them would be refused by every client (AppendEscaped); CR, markup,
// "]]>", quotes and non-BMP characters arrive unchanged. HTTP GET/POST parameters are URL-encoded, not
// XML, so they arrive byte for byte, but for nil, which a form cannot write: a nil array parameter
// arrives empty, a nil item empty (testsupport.CarriedByForm). JSON carries every character but invalid
// UTF-8, and a dateTime as ASP.NET AJAX does, an instant in whole milliseconds, UTC.
func TestCodecRoundTrip(t *testing.T) {
	codecRoundTrip(t, gen.Contract, gen.Operations)
}

// codecRoundTrip checks the round-trip property for the operations of a generated table, ops, of a
// contract described by contract.
func codecRoundTrip(t *testing.T, contract *wire.Contract, ops []*wire.Operation) {
	rnd := rand.New(rand.NewPCG(testSeed(t), 0))
	ns, err := server.ServedNamespace(contract, contractBaseURL)
	require.NoError(t, err)

	// The handler serves the table bound to a call that records the request it gets and answers the
	// response the test chose; everything else (bindings, codec) is the real code.
	var received, answer wire.Message
	bound := wire.Bound{Contract: contract, Ops: ops, Call: func(_ context.Context, req wire.Message) (wire.Message, error) {
		received = req
		return answer, nil
	}}
	h, err := server.NewHandler(bound, server.Config{BaseURL: contractBaseURL, Protocols: binding.ProtocolNames,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	transport := roundTripper(func(r *http.Request) (*http.Response, error) {
		if r.Body == nil { // a client request may have none; a server request always has one
			r.Body = http.NoBody
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec.Result(), nil
	})

	fill := testsupport.NewFiller(testsupport.RandomValues{Rnd: rnd})
	for _, op := range ops {
		var result []wire.Field
		if op.Result != nil {
			result = []wire.Field{*op.Result}
		}
		for _, b := range append(client.Bindings, client.JSON) {
			if !client.Offers(op, b) {
				continue
			}
			c := &client.Client{Endpoint: "http://contract.example:8080" + wsdl.Path, Namespace: ns, Binding: b,
				HTTP: &http.Client{Transport: transport, Timeout: 10 * time.Second}}
			request, response := testsupport.CarriedByXML, testsupport.CarriedByXML
			switch b {
			case client.HTTPGet, client.HTTPPost:
				request = testsupport.CarriedByForm
			case client.JSON:
				request, response = testsupport.CarriedByJSON, testsupport.CarriedByJSON
			}
			t.Run(op.Name+"/"+string(b), func(t *testing.T) {
				for round := range roundTripRounds {
					req, resp, got := op.NewRequest(), op.NewResponse(), op.NewResponse()
					require.NoError(t, fill.Message(req, op.Params))
					require.NoError(t, fill.Message(resp, result))
					received, answer = nil, resp
					require.NoError(t, c.Invoke(context.Background(), op, req, got), "round %d", round)
					require.NotNil(t, received, "round %d: the operation was not called", round)
					if d := testsupport.Diff("request", rv(req), rv(received), request); d != "" {
						t.Fatalf("round %d: client → server: %s\nsent:     %#v\nreceived: %#v", round, d, req, received)
					}
					if d := testsupport.Diff("response", rv(resp), rv(got), response); d != "" {
						t.Fatalf("round %d: server → client: %s\nsent:     %#v\nreceived: %#v", round, d, resp, got)
					}
				}
			})
		}
	}

	// Every type reachable from the table was filled, so none escaped the property.
	for name := range testsupport.ReachableTypes(ops) {
		require.Positive(t, fill.Reached[name], "the type %s was never filled", name)
	}
}

func rv(v any) reflect.Value { return reflect.ValueOf(v) }
