package zoo_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo"
)

// zooNamespace is the type zoo's service namespace.
const zooNamespace = "http://localhost:8080/zoo/v1/"

// zooBaseURL is the base URL the type zoos' contracts are written for, as contactsync's is. The zoos
// are generated without -rebase-namespace, so their handlers serve zooNamespace and zoo2Namespace as
// the contracts write them (as the reference servers did) whatever the base URL;
// TestTwoContractsInOneProcess serves one under another.
const zooBaseURL = "http://localhost:8080"

func newZooHandler(t *testing.T, svc *zooService) http.Handler {
	t.Helper()
	h, err := server.NewHandler(zoo.Bind(svc), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	return h
}

// replay sends a captured request to h as the client sent it.
func replay(h http.Handler, c *capture) *httptest.ResponseRecorder {
	req := httptest.NewRequest(c.request.Method, c.request.RequestURI, bytes.NewReader(c.reqBody))
	for k, v := range c.request.Header {
		req.Header[k] = v
	}
	req.Host = c.request.Host
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// nullableStrings are the elements of type xsd:string with minOccurs 0 in the contract: ASMX omits
// such an element when its value is null, which a Go string cannot be, so the generated codec writes
// it empty (<City />). The comparison leaves such empty elements out on both sides.
func nullableStrings(ops []*wire.Operation) map[string]bool {
	names := map[string]bool{}
	var walk func(fields []wire.Field)
	seen := map[*wire.Type]bool{}
	walk = func(fields []wire.Field) {
		for _, f := range fields {
			if f.Type.Kind == wire.KindString && f.MinOccurs == 0 && !f.Nillable {
				names[f.Name] = true
			}
			if !seen[f.Type] {
				seen[f.Type] = true
				walk(f.Type.Fields)
			}
		}
	}
	for _, op := range ops {
		walk(op.Params)
		if op.Result != nil {
			walk([]wire.Field{*op.Result})
		}
	}
	return names
}

// difference is a deliberate difference from ASMX in one captured exchange: docs/xsd-types.md, "XSD types on the
// wire", gives the decision behind each kind.
type difference struct {
	why string
	// patches turn the captured body into ours: each old text must occur in it exactly n times.
	patches []patch
	// status and contentType are ours, when they differ from the capture's.
	status      int
	contentType string
	// says is what our body must contain when it is not the captured one patched: the answer to a bad
	// value, whose text is ours.
	says string
}

type patch struct {
	old, new string
	n        int
}

// The reasons, one per kind of deliberate difference.
const (
	whyOffsetKept = "a dateTime offset is kept as the client sent it; ASMX converts it to the server's local time"
	whyUTCKept    = "a UTC (Z) dateTime read from an HTTP GET/POST form stays UTC; ASMX's URL reader makes it local time"
	whyZeroTime   = "a missing dateTime is Go's zero time, written 0001-01-01T00:00:00Z; ASMX's default(DateTime) has no zone"
	whyDecimalArt = "the twin's edge table holds -0.000 as Zoo.cs spells it, written 0.000 (scale kept, zero unsigned); " +
		"ASMX's 0 is an artefact of mcs compiling the literal -0.000m, not a wire rule"
	whyFaultText = "the fault text is ours (it names the element and its XSD type); ASMX's gives the parser's position " +
		"and .NET's message; status and fault code are the same"
	whyBadBase64  = "invalid base64 is a Client fault like every other bad value; ASMX answers 400 with an empty body"
	whyHTTP400    = "a bad or missing HTTP GET/POST parameter is 400 InvalidArgument naming it; ASMX answers 500"
	whyNotOffered = "an operation the HTTP binding does not offer is 404 UnknownOperation saying it is offered over SOAP only; " +
		"ASMX answers 500 'method name is not valid'"
	whyLexical = "HTTP GET/POST parameters take the XSD forms, and those of ASMX's URL reader that clients send (True, " +
		"Python's and .NET's dates); not its guesses"
	whyDocs = "the documents (?WSDL) describe contactsync's own contract; the zoo's WSDL is the generator's " +
		"input, checked equal to this capture's body by TestZooWSDLIsTheCapturedOne"
)

// differences lists every capture that is not matched as it is; all the others must be.
var differences = map[string]difference{
	"doc-wsdl": {why: whyDocs},

	"soap11-MakeSample-offset-nils":    {why: whyOffsetKept, patches: []patch{{"2026-11-22T09:15:30.123+01:00", "2026-11-22T10:15:30.123+02:00", 1}}},
	"get-MakeSampleNoKey-offset-nils":  {why: whyOffsetKept, patches: []patch{{"2026-11-22T09:15:30.123+01:00", "2026-11-22T10:15:30.123+02:00", 1}}},
	"post-MakeSampleNoKey-offset-nils": {why: whyOffsetKept, patches: []patch{{"2026-11-22T09:15:30.123+01:00", "2026-11-22T10:15:30.123+02:00", 1}}},
	"soap11-EchoSample":                {why: whyOffsetKept, patches: []patch{{"2026-11-22T05:45:30.1234567+01:00", "2026-11-22T10:15:30.1234567+05:30", 1}}},
	"soap12-EchoSample":                {why: whyOffsetKept, patches: []patch{{"2026-11-22T05:45:30.1234567+01:00", "2026-11-22T10:15:30.1234567+05:30", 1}}},
	"get-MakeSampleNoKey":              {why: whyUTCKept, patches: []patch{{"2026-11-22T11:15:30.123+01:00", "2026-11-22T10:15:30.123Z", 2}}},
	"post-MakeSampleNoKey":             {why: whyUTCKept, patches: []patch{{"2026-11-22T11:15:30.123+01:00", "2026-11-22T10:15:30.123Z", 2}}},

	"soap11-MakeSample-missing-elements": {why: whyZeroTime, patches: []patch{{"<When>0001-01-01T00:00:00</When>", "<When>0001-01-01T00:00:00Z</When>", 1}}},
	"soap11-EchoSample-empty-sample":     {why: whyZeroTime, patches: []patch{{"<When>0001-01-01T00:00:00</When>", "<When>0001-01-01T00:00:00Z</When>", 1}}},
	"soap11-ListSamples-n12-edge-values": {why: whyDecimalArt, patches: []patch{{"<Amount>0</Amount><Ratio>1.2345678901234568E+17</Ratio>", "<Amount>0.000</Amount><Ratio>1.2345678901234568E+17</Ratio>", 1}}},

	"soap11-err-bad-bool":       {why: whyFaultText, says: "The parameter utc must be an xsd:boolean; &quot;True&quot; is not."},
	"soap11-err-bad-datetime":   {why: whyFaultText, says: "The parameter when must be an xsd:dateTime; &quot;2026-11-22 10:15:30&quot; is not."},
	"soap12-err-bad-datetime":   {why: whyFaultText, says: "The parameter when must be an xsd:dateTime; &quot;2026-11-22 10:15:30&quot; is not."},
	"soap11-err-bad-decimal":    {why: whyFaultText, says: "The parameter amount must be an xsd:decimal; &quot;12,5&quot; is not."},
	"soap12-err-bad-decimal":    {why: whyFaultText, says: "The parameter amount must be an xsd:decimal; &quot;12,5&quot; is not."},
	"soap11-err-bad-enum":       {why: whyFaultText, says: "The parameter level must be an xsd:Tier; &quot;Platinum&quot; is not."},
	"soap11-err-enum-lowercase": {why: whyFaultText, says: "The parameter t must be an xsd:Tier; &quot;gold&quot; is not."},
	"soap11-err-bad-guid":       {why: whyFaultText, says: "The parameter key must be an xsd:guid; &quot;not-a-guid&quot; is not."},
	"soap11-err-bad-int":        {why: whyFaultText, says: "The parameter count must be an xsd:int; &quot;abc&quot; is not."},
	"soap11-err-int-overflow":   {why: whyFaultText, says: "The parameter count must be an xsd:int; &quot;2147483648&quot; is not."},
	"soap11-err-nil-int":        {why: whyFaultText, says: "The parameter count must be an xsd:int; &quot;&quot; is not."},
	"soap11-err-bad-base64":     {why: whyBadBase64, status: 500, says: "<faultcode>soap:Client</faultcode><faultstring>The element Data must be an xsd:base64Binary; &quot;***&quot; is not.</faultstring>"},

	"get-err-bad-int":        {why: whyHTTP400, status: 400, says: `The parameter count must be an xsd:int; "abc" is not.`},
	"post-err-bad-int":       {why: whyHTTP400, status: 400, says: `The parameter count must be an xsd:int; "abc" is not.`},
	"get-err-empty-int":      {why: whyHTTP400, status: 400, says: `The parameter n must be an xsd:int; "" is not.`},
	"get-err-bad-datetime":   {why: whyHTTP400, status: 400, says: `The parameter when must be an xsd:dateTime; "not-a-date" is not.`},
	"get-err-bad-enum":       {why: whyHTTP400, status: 400, says: `The parameter level must be an xsd:Tier; "Platinum" is not.`},
	"post-err-bad-enum":      {why: whyHTTP400, status: 400, says: `The parameter level must be an xsd:Tier; "Platinum" is not.`},
	"get-NextTier-lowercase": {why: whyHTTP400, status: 400, says: `The parameter t must be an xsd:Tier; "gold" is not.`},
	"get-err-missing-param":  {why: whyHTTP400, status: 400, says: "The parameter when is required."},
	"post-err-missing-param": {why: whyHTTP400, status: 400, says: "The parameter when is required."},

	"get-MakeSample-not-offered":  {why: whyNotOffered, status: 404, says: `The operation "MakeSample" is offered over SOAP only (SOAP 1.1 and SOAP 1.2), not over HTTP GET`},
	"post-MakeSample-not-offered": {why: whyNotOffered, status: 404, says: `The operation "MakeSample" is offered over SOAP only (SOAP 1.1 and SOAP 1.2), not over HTTP POST`},
	"get-EchoSample-not-offered":  {why: whyNotOffered, status: 404, says: `The operation "EchoSample" is offered over SOAP only (SOAP 1.1 and SOAP 1.2), not over HTTP GET`},

	// ASMX's URL reader is more lenient than XmlConvert in some places and stricter in others
	// (testdata/more covers each form; TestZoo2Replay).
	"get-MaybeCount-bool-1":            {why: whyLexical + " (1 is an xsd:boolean; ASMX's GET refuses it)", status: 200, contentType: "text/xml; charset=utf-8", says: `<int xsi:nil="true"`},
	"get-NextTier-numeric":             {why: whyLexical + " (an enumeration value is its name; ASMX's GET takes t=2 as Gold)", status: 400, contentType: "text/plain; charset=utf-8", says: `The parameter t must be an xsd:Tier; "2" is not.`},
	"get-MakeSampleNoKey-amount-comma": {why: whyLexical + " (ASMX's GET reads 12,5 as 125)", status: 400, contentType: "text/plain; charset=utf-8", says: `The parameter amount must be an xsd:decimal; "12,5" is not.`},
	"get-err-double-INF":               {why: whyLexical + " (INF is an xsd:double; ASMX's GET refuses it)", status: 200, contentType: "text/xml; charset=utf-8", says: "<Ratio>INF</Ratio>"},
}

// faultCode finds the fault code's local name in a SOAP 1.1 or 1.2 fault.
var faultCode = regexp.MustCompile(`<faultcode>[^:<]*:([^<]*)</faultcode>|<[^>]*Value>[^:<]*:([^<]*)</[^>]*Value>`)

// TestGolden replays every captured exchange of the type zoo against the generated codec served
// through the real bindings, with the Go twin of Zoo.cs, and compares each response with the captured
// one on the infoset (see infoset): every capture matches, or is in differences with its reason.
func TestGolden(t *testing.T) {
	drop := nullableStrings(zoo.Operations)
	captures := readCaptures(t)
	names := map[string]bool{}
	for _, c := range captures {
		names[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			rec := replay(newZooHandler(t, &zooService{}), c)
			diff, deliberate := differences[c.name]
			if c.name == "doc-wsdl" {
				assert.Equal(t, http.StatusOK, rec.Code)
				return
			}
			wantStatus, wantType := c.response.StatusCode, c.response.Header.Get("Content-Type")
			if diff.status != 0 {
				wantStatus = diff.status
			}
			if diff.contentType != "" {
				wantType = diff.contentType
			}
			assert.Equal(t, wantStatus, rec.Code, "status")
			assert.Equal(t, wantType, rec.Header().Get("Content-Type"), "content type")
			if deliberate && diff.says != "" {
				assert.Contains(t, rec.Body.String(), diff.says)
				if m := faultCode.FindStringSubmatch(string(c.respBody)); m != nil {
					got := faultCode.FindStringSubmatch(rec.Body.String())
					require.NotNil(t, got, "ours must be a fault too")
					assert.Equal(t, m[1]+m[2], got[1]+got[2], "fault code")
				}
				return
			}
			want := string(c.respBody)
			for _, p := range diff.patches {
				require.Equal(t, p.n, strings.Count(want, p.old), "patch %q", p.old)
				want = strings.ReplaceAll(want, p.old, p.new)
			}
			if len(c.respBody) == 0 {
				assert.Empty(t, rec.Body.String())
				return
			}
			wantSet, err := infoset([]byte(want), drop)
			require.NoError(t, err)
			gotSet, err := infoset(rec.Body.Bytes(), drop)
			require.NoError(t, err, rec.Body.String())
			assert.Equal(t, wantSet, gotSet)
			assert.True(t, deliberate == (len(diff.patches) > 0), "a listed difference must change something")
		})
	}
	for name := range differences {
		assert.True(t, names[name], "differences lists %s, which is not a capture", name)
	}
}

// TestZooWSDLIsTheCapturedOne: the contract the package is generated from is the ?WSDL body ASMX
// served, byte for byte.
func TestZooWSDLIsTheCapturedOne(t *testing.T) {
	data, err := os.ReadFile("testdata/captures/doc-wsdl.txt")
	require.NoError(t, err)
	c, err := parseCapture("doc-wsdl", data)
	require.NoError(t, err)
	wsdl, err := os.ReadFile("testdata/zoo.wsdl")
	require.NoError(t, err)
	assert.Equal(t, string(c.respBody), string(wsdl))
}

// TestDifferencesAreDocumented: docs/xsd-types.md's table of the zoo's deliberate differences names every capture
// in differences.
func TestDifferencesAreDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../../../docs/xsd-types.md")
	require.NoError(t, err)
	for name := range differences {
		assert.Contains(t, string(readme), "`"+name+"`", "docs/xsd-types.md lists the capture %s", name)
	}
}
