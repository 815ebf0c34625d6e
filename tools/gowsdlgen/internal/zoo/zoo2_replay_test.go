package zoo_test

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo2"
)

// zoo2Namespace is the second type zoo's service namespace.
const zoo2Namespace = "http://localhost:8080/zoo2/v1/"

func newZoo2Handler(t *testing.T) http.Handler {
	t.Helper()
	h, err := server.NewHandler(zoo2.Bind(zoo2Service{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	return h
}

// deviation is a deliberate difference from ASMX in one exchange of the second type zoo: the value we
// echo, or whether we accept the input at all. docs/xsd-types.md mirrors the table, reason by reason.
type deviation struct {
	why reason
	// accepts is whether we accept the input; it is ASMX's answer unless refuses or accepts is set.
	accepts, refuses bool
	// says is what our body must contain instead of ASMX's (the value we echo, or our error).
	says string
	// sameInstant: we echo the same instant in another zone (dateTime values are compared as UTC
	// instants, and the Kind and Ticks that follow from the zone are left out).
	sameInstant bool
	// patches turn ASMX's body into ours.
	patches []patch
}

// reason is why we differ, in a sentence; docs/xsd-types.md gives it beside every exchange it covers.
type reason string

// The reasons of the second type zoo's deviations.
const (
	becauseOffsetKept reason = "the zone is kept as sent, the same instant: ASMX converts an offset to the server's local time"
	becauseUTCKept    reason = "a UTC (Z or GMT) value read from a GET/POST form stays UTC, the same instant: ASMX's URL reader makes it local time"
	becauseZeroTime   reason = "a missing dateTime is Go's zero time, 0001-01-01T00:00:00Z (Kind Utc): ASMX's default(DateTime) has no zone"
	becauseBoolOne    reason = "a boolean parameter also takes the XSD forms 1 and 0 on GET/POST, as on SOAP: ASMX's URL reader refuses them"
	becauseINF        reason = "INF and -INF, XSD's infinities, are read on GET/POST as on SOAP: ASMX's URL reader takes only Infinity"
	becauseComma      reason = "a comma is never a thousands separator: ASMX's URL reader reads 1,5 as 15, a silent misreading of a decimal comma"
	becauseTrailing   reason = "a trailing minus (5-) is refused: ASMX's URL reader reads it as -5, a form no client writes"
	becauseMinusZero  reason = "-0 keeps its sign on GET/POST as on SOAP: ASMX's URL reader drops it (.NET Framework's double.Parse)"
	becauseEnumNumber reason = "an enumeration value is one of its names: ASMX's URL reader also takes a member's number (2 for Gold)"
	becauseEnumRange  reason = "a number or list that names no member is refused before the method runs: ASMX runs the method and fails to write the result"
	becauseRepeated   reason = "a simple parameter given twice is refused: ASMX joins the values with a comma (text=a&text=b reads as \"a,b\")"
	becauseNoArray    reason = "an absent array parameter is an empty array: ASMX fails with a null reference (500)"
)

// deviations lists every exchange of testdata/more/captures we deliberately answer otherwise than
// ASMX; every other one is matched (the accepted ones on the infoset, the refused ones on being
// refused, and on the fault code for SOAP).
var deviations = map[string]deviation{
	// dateTime zones (README §1, §2).
	"soap11-EchoWhen-plus-0200":         {why: becauseOffsetKept, sameInstant: true},
	"soap12-EchoWhen-plus-0200":         {why: becauseOffsetKept, sameInstant: true},
	"soap11-EchoWhen-python-isoformat":  {why: becauseOffsetKept, sameInstant: true},
	"soap11-EchoStamp-plus-0200":        {why: becauseOffsetKept, sameInstant: true},
	"soap11-EchoStamp-python-isoformat": {why: becauseOffsetKept, sameInstant: true},
	"soap11-EchoWhens":                  {why: becauseOffsetKept, sameInstant: true},
	"get-EchoWhen-plus-0200":            {why: becauseOffsetKept, sameInstant: true},
	"post-EchoWhen-plus-0200":           {why: becauseOffsetKept, sameInstant: true},
	"get-EchoWhen-python-isoformat":     {why: becauseOffsetKept, sameInstant: true},
	"post-EchoWhen-python-isoformat":    {why: becauseOffsetKept, sameInstant: true},
	"get-EchoWhen-python-str":           {why: becauseOffsetKept, sameInstant: true},
	"post-EchoWhen-python-str":          {why: becauseOffsetKept, sameInstant: true},
	"get-EchoWhen-z":                    {why: becauseUTCKept, sameInstant: true},
	"post-EchoWhen-z":                   {why: becauseUTCKept, sameInstant: true},
	"get-EchoWhen-z-summer":             {why: becauseUTCKept, sameInstant: true},
	"get-EchoWhen-frac7":                {why: becauseUTCKept, sameInstant: true},
	"post-EchoWhen-frac7":               {why: becauseUTCKept, sameInstant: true},
	"get-EchoWhen-frac8-rounds-up":      {why: becauseUTCKept, sameInstant: true},
	"get-EchoWhen-frac9":                {why: becauseUTCKept, sameInstant: true},
	"post-EchoWhen-frac9":               {why: becauseUTCKept, sameInstant: true},
	"get-EchoWhen-rfc1123":              {why: becauseUTCKept, sameInstant: true},
	"get-EchoWhens-two":                 {why: becauseUTCKept, sameInstant: true},
	"post-EchoWhens-two":                {why: becauseUTCKept, sameInstant: true},
	"soap11-EchoWhen-absent":            {why: becauseZeroTime, patches: zeroTimePatches},
	"soap11-EchoStamp-empty":            {why: becauseZeroTime, patches: zeroTimePatches},

	// GET/POST lexical forms (README §4, §6, §7).
	"get-EchoFlag-1":                {why: becauseBoolOne, accepts: true, says: "<boolean xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns=\"" + zoo2Namespace + "\">true</boolean>"},
	"post-EchoFlag-1":               {why: becauseBoolOne, accepts: true, says: ">true</boolean>"},
	"get-EchoRatio-INF":             {why: becauseINF, accepts: true, says: ">INF</double>"},
	"get-EchoRatio-minus-INF":       {why: becauseINF, accepts: true, says: ">-INF</double>"},
	"post-EchoRatio-INF":            {why: becauseINF, accepts: true, says: ">INF</double>"},
	"get-EchoApprox-INF":            {why: becauseINF, accepts: true, says: ">INF</float>"},
	"get-EchoApprox-minus-INF":      {why: becauseINF, accepts: true, says: ">-INF</float>"},
	"get-EchoRatio-comma":           {why: becauseComma, refuses: true, says: `The parameter ratio must be an xsd:double; "1,5" is not.`},
	"get-EchoAmount-thousands":      {why: becauseComma, refuses: true, says: `The parameter amount must be an xsd:decimal; "1,000" is not.`},
	"get-EchoAmount-trailing-minus": {why: becauseTrailing, refuses: true, says: `The parameter amount must be an xsd:decimal; "5-" is not.`},
	"get-EchoRatio-minus-zero":      {why: becauseMinusZero, patches: []patch{{">0</double>", ">-0</double>", 1}}},
	"get-EchoTier-numeric":          {why: becauseEnumNumber, refuses: true, says: `The parameter tier must be an xsd:Tier; "2" is not.`},
	"get-EchoTier-out-of-range":     {why: becauseEnumRange, refuses: true, says: `The parameter tier must be an xsd:Tier; "7" is not.`},
	"get-EchoTier-comma-list":       {why: becauseEnumRange, refuses: true, says: `The parameter tier must be an xsd:Tier; "Silver,Gold" is not.`},

	// Missing and repeated parameters (README §1, §5).
	"get-EchoText-repeated":  {why: becauseRepeated, refuses: true, says: "The parameter text is given more than once."},
	"post-EchoText-repeated": {why: becauseRepeated, refuses: true, says: "The parameter text is given more than once."},
	"get-EchoIds-absent":     {why: becauseNoArray, accepts: true, says: "<ArrayOfString xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns=\"" + zoo2Namespace + "\"></ArrayOfString>"},
	"post-EchoIds-absent":    {why: becauseNoArray, accepts: true, says: "\"></ArrayOfString>"},
	"get-EchoCounts-absent":  {why: becauseNoArray, accepts: true, says: "\"></ArrayOfInt>"},
	"post-EchoCounts-absent": {why: becauseNoArray, accepts: true, says: "\"></ArrayOfInt>"},
	"get-EchoWhens-absent":   {why: becauseNoArray, accepts: true, says: "\"></ArrayOfDateTime>"},
}

// zeroTimePatches turn ASMX's default(DateTime) into Go's zero time.
var zeroTimePatches = []patch{
	{"<When>0001-01-01T00:00:00</When>", "<When>0001-01-01T00:00:00Z</When>", 1},
	{"<Kind>Unspecified</Kind>", "<Kind>Utc</Kind>", 1},
}

// zonedDateTime is an xsd:dateTime with a zone, as a response writes it.
var zonedDateTime = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)

// kindAndTicks are the Stamp fields that follow from a dateTime's zone.
var kindAndTicks = regexp.MustCompile(`<Kind>[^<]*</Kind>|<Ticks>[^<]*</Ticks>`)

// asInstants writes every zoned dateTime of doc as its UTC instant and leaves Kind and Ticks out.
func asInstants(t *testing.T, doc string) string {
	doc = zonedDateTime.ReplaceAllStringFunc(doc, func(s string) string {
		v, err := time.Parse(time.RFC3339Nano, s)
		require.NoError(t, err, s)
		return v.UTC().Format(time.RFC3339Nano)
	})
	return kindAndTicks.ReplaceAllString(doc, "")
}

// TestZoo2Replay replays every exchange captured from ASMX's second type zoo (testdata/more) against
// the code generated from its WSDL, served through the real bindings with a Go twin of Zoo2.cs: each
// input we accept where ASMX accepts it, echoing the same value, and refuse where ASMX refuses it,
// unless deviations lists it with its reason. The status of a refusal is not compared: our 400 (404
// for an operation a binding does not offer) against ASMX's 500 is a difference docs/xsd-types.md
// states once for all.
func TestZoo2Replay(t *testing.T) {
	drop := nullableStrings(zoo2.Operations)
	h := newZoo2Handler(t)
	names := map[string]bool{}
	for _, c := range readCapturesIn(t, "testdata/more/captures", 219) {
		names[c.name] = true
		if c.name == "doc-wsdl" {
			continue // TestZoo2WSDLIsTheCapturedOne
		}
		t.Run(c.name, func(t *testing.T) {
			dev, listed := deviations[c.name]
			checkReplay(t, h, c, dev, listed, drop)
		})
	}
	for name, dev := range deviations {
		assert.True(t, names[name], "deviations lists %s, which is not a capture", name)
		assert.False(t, dev.accepts && dev.refuses, name)
	}
}

// TestZoo2WSDLIsTheCapturedOne: the contract zoo2 is generated from is the ?WSDL body ASMX served,
// byte for byte.
func TestZoo2WSDLIsTheCapturedOne(t *testing.T) {
	data, err := os.ReadFile("testdata/more/captures/doc-wsdl.txt")
	require.NoError(t, err)
	c, err := parseCapture("doc-wsdl", data)
	require.NoError(t, err)
	wsdl, err := os.ReadFile("testdata/more/zoo2.wsdl")
	require.NoError(t, err)
	assert.Equal(t, string(c.respBody), string(wsdl))
}

// TestZoo2DeviationsAreDocumented: docs/xsd-types.md's table of the second zoo's deviations (between
// its zoo2-deviations markers) is the deviations table: each reason's row lists exactly the exchanges
// deviations gives that reason.
func TestZoo2DeviationsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/xsd-types.md")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(doc), "<!-- zoo2-deviations: begin -->\n")
	require.True(t, ok, "docs/xsd-types.md has the zoo2-deviations table")
	table, _, ok = strings.Cut(table, "<!-- zoo2-deviations: end -->")
	require.True(t, ok)
	documented := map[reason][]string{}
	exchange := regexp.MustCompile("`([^`]+)`")
	for _, row := range strings.Split(strings.TrimSpace(table), "\n")[2:] {
		cells := strings.Split(strings.Trim(row, "| "), " | ")
		require.Len(t, cells, 2, "row %q", row)
		why := reason(cells[0])
		require.NotContains(t, documented, why, "one row per reason")
		for _, m := range exchange.FindAllStringSubmatch(cells[1], -1) {
			documented[why] = append(documented[why], m[1])
		}
	}
	listed := map[reason][]string{}
	for name, dev := range deviations {
		listed[dev.why] = append(listed[dev.why], name)
	}
	for why := range listed {
		assert.ElementsMatch(t, listed[why], documented[why], "docs/xsd-types.md's row for %q", why)
	}
	for why := range documented {
		assert.Contains(t, listed, why, "docs/xsd-types.md documents a reason no deviation has: %q", why)
	}
}

// checkReplay replays one captured exchange against h and holds our answer to ASMX's: an input ASMX
// accepts we accept, answering the same infoset (less drop's nullable strings), and one it refuses we
// refuse (with the same SOAP fault code), unless dev, a listed deviation, says otherwise. The replay
// tests of the second and third zoos share it.
// serverWriteFailure reports whether ASMX's answer to c is the one refusal over HTTP GET/POST that is
// not the client's error: the method ran and its result could not be written, a text/plain 500
// starting "There was an error generating the XML document." (get-GetObject-widget: an object holding
// a class the contract does not name). checkReplay's refusal rule otherwise requires a 4xx, since every
// other text/plain refusal ASMX answers is about the request; this exception is named so that it
// cannot hide a request we fail on.
func serverWriteFailure(c *capture) bool {
	return c.response.StatusCode == http.StatusInternalServerError &&
		strings.HasPrefix(string(c.respBody), "There was an error generating the XML document.")
}

func checkReplay(t *testing.T, h http.Handler, c *capture, dev deviation, listed bool, drop map[string]bool) {
	t.Helper()
	rec := replay(h, c)
	asmxAccepts := c.response.StatusCode == http.StatusOK
	accepts := asmxAccepts && !dev.refuses || dev.accepts
	got := rec.Body.String()
	if !accepts {
		require.GreaterOrEqual(t, rec.Code, 400, "refused: %s", got)
		if dev.says != "" {
			assert.Contains(t, got, dev.says)
		}
		if m := faultCode.FindStringSubmatch(string(c.respBody)); m != nil {
			// A SOAP fault is 500 on both sides; its code says whose error it is.
			ours := faultCode.FindStringSubmatch(got)
			require.NotNil(t, ours, "ours must be a fault too: %s", got)
			assert.Equal(t, m[1]+m[2], ours[1]+ours[2], "fault code")
		} else if ours := faultCode.FindStringSubmatch(got); ours != nil {
			// ASMX answered what we refuse over SOAP: our fault says it is the client's error (a
			// mustUnderstand block we cannot process is the sender's too, SOAP 1.1 §4.4.1).
			assert.Contains(t, []string{"Client", "Sender", "MustUnderstand"}, ours[1]+ours[2], "fault code")
		} else if serverWriteFailure(c) && !dev.refuses {
			// ASMX ran the method and then failed to write its result: the service's error, a 500 on
			// both sides. Ours hides the detail ASMX sends (fault.InternalError) and logs it. (Where a
			// listed deviation refuses the input before the method runs, as get-EchoTier-out-of-range,
			// ours is the client's error below.)
			assert.Equal(t, http.StatusInternalServerError, rec.Code, "a result that cannot be written: %s", got)
			assert.Equal(t, "text/plain; charset=utf-8", rec.Header().Get("Content-Type"))
			assert.Contains(t, got, "The service failed to process the request.")
		} else {
			assert.Less(t, rec.Code, 500, "a refused input is the client's error: %s", got)
			assert.Equal(t, "text/plain; charset=utf-8", rec.Header().Get("Content-Type"))
		}
		if strings.Contains(string(c.respBody), "Web Service method name is not valid") {
			assert.Contains(t, got, "is offered over SOAP only", "an operation offered over SOAP only says so")
		}
		return
	}
	require.Equal(t, http.StatusOK, rec.Code, "accepted: %s", got)
	if !asmxAccepts {
		assert.Contains(t, got, dev.says, "the value we echo where ASMX refuses")
		return
	}
	assert.Equal(t, c.response.Header.Get("Content-Type"), rec.Header().Get("Content-Type"), "content type")
	want := string(c.respBody)
	for _, p := range dev.patches {
		require.Equal(t, p.n, strings.Count(want, p.old), "patch %q", p.old)
		want = strings.ReplaceAll(want, p.old, p.new)
	}
	if dev.sameInstant {
		want, got = asInstants(t, want), asInstants(t, got)
	}
	wantSet, err := infoset([]byte(want), drop)
	require.NoError(t, err)
	gotSet, err := infoset([]byte(got), drop)
	require.NoError(t, err, got)
	assert.Equal(t, wantSet, gotSet)
	if listed {
		asmxSet, err := infoset(c.respBody, drop)
		require.NoError(t, err)
		oursSet, err := infoset(rec.Body.Bytes(), drop)
		require.NoError(t, err)
		assert.NotEqual(t, asmxSet, oursSet, "a listed deviation must differ from ASMX")
	}
}
