package zoo_test

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoohdr"
)

// hdrDeviation is a deliberate difference from ASMX in one exchange of the header section.
type hdrDeviation struct {
	why reason
	// accepts and refuses override ASMX's answer (200 or not).
	accepts, refuses bool
	// patches turn ASMX's body into ours.
	patches []patch
	// says is what our body must contain where we answer otherwise than ASMX.
	says string
}

// The reasons of the header section's deviations; docs/bindings.md gives them beside the exchanges.
const (
	becauseNoSoapHeaderBase reason = "the method sees a header's fields, not the SoapHeader base members: MustUnderstand is checked " +
		"by the binding before the method runs, so the twin cannot echo it"
	becauseActor reason = "a block aimed at another actor or role is not ours (SOAP 1.1 §4.2.2, SOAP 1.2 Part 1 §2.2): " +
		"ignored, declared or not; ASMX binds it, and faults on it with mustUnderstand"
	becauseNoDidUnderstand reason = "an undeclared block with mustUnderstand is a MustUnderstand fault before the method runs: " +
		"wire.UnknownHeaders has no DidUnderstand for the method to set, as ASMX's SoapUnknownHeader has"
)

// hdrDeviations lists every exchange of testdata/hdr/captures we answer otherwise than ASMX.
var hdrDeviations = map[string]hdrDeviation{
	"soap11-WhoAmI-mustunderstand-1":    {why: becauseNoSoapHeaderBase, patches: mustUnderstandTrue},
	"soap11-WhoAmI-mustunderstand-true": {why: becauseNoSoapHeaderBase, patches: mustUnderstandTrue},
	"soap12-WhoAmI-mustunderstand-true": {why: becauseNoSoapHeaderBase, patches: mustUnderstandTrue},
	"soap11-Renew-mustunderstand":       {why: becauseNoSoapHeaderBase, patches: mustUnderstandTrue},

	"soap11-WhoAmI-actor-other": {why: becauseActor, patches: []patch{{
		"AuthHeader User=alice;Token=t-1;MustUnderstand=True;Actor=http://example.org/other;DidUnderstand=True", "no AuthHeader", 1}}},
	"soap11-WhoAmI-unknown-mustunderstand-actor-other": {why: becauseActor, accepts: true, says: "<WhoAmIResult>no AuthHeader</WhoAmIResult>"},
	"soap12-WhoAmI-unknown-mustunderstand-role-other":  {why: becauseActor, accepts: true, says: "<WhoAmIResult>no AuthHeader</WhoAmIResult>"},

	"soap11-ListUnknownHeaders-ok-mustunderstand": {why: becauseNoDidUnderstand, refuses: true, says: "was marked mustUnderstand"},
}

// mustUnderstandTrue turns the MustUnderstand ASMX's method saw into the twin's.
var mustUnderstandTrue = []patch{{";MustUnderstand=True;", ";MustUnderstand=False;", 1}}

// TestHdrReplay replays every exchange captured from the header methods of ASMX's third zoo
// (testdata/hdr/captures) against the code generated from their WSDL, served through the real
// bindings with a Go twin (hdrService): each accepted where ASMX accepts it with the same body on
// the infoset (soap:Header included), each refused where ASMX refuses it with the same SOAP fault
// code, unless hdrDeviations lists it with its reason. The help pages (doc-*) are replayed over zoo3
// (TestZoo3Replay, checkHelpPage), which serves the same header operations.
func TestHdrReplay(t *testing.T) {
	h, err := server.NewHandler(zoohdr.Bind(hdrService{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	drop := nullableStrings(zoohdr.Operations)
	names := map[string]bool{}
	for _, c := range readCapturesIn(t, "testdata/hdr/captures", 56) {
		names[c.name] = true
		if strings.HasPrefix(c.name, "doc-") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			rec := replay(h, c)
			dev, listed := hdrDeviations[c.name]
			asmxAccepts := c.response.StatusCode == http.StatusOK
			accepts := asmxAccepts && !dev.refuses || dev.accepts
			got := rec.Body.String()
			if !accepts {
				require.GreaterOrEqual(t, rec.Code, 400, "refused: %s", got)
				if dev.says != "" {
					assert.Contains(t, got, dev.says)
				}
				if m := faultCode.FindStringSubmatch(string(c.respBody)); m != nil {
					ours := faultCode.FindStringSubmatch(got)
					require.NotNil(t, ours, "ours must be a fault too: %s", got)
					assert.Equal(t, m[1]+m[2], ours[1]+ours[2], "fault code")
					assert.NotContains(t, got, "Header><Trace", "a fault never carries the contract's headers")
				} else if !listed {
					assert.Less(t, rec.Code, 500, "a refused input is the client's error: %s", got)
				}
				return
			}
			require.Equal(t, http.StatusOK, rec.Code, "accepted: %s", got)
			assert.Equal(t, c.response.Header.Get("Content-Type"), rec.Header().Get("Content-Type"), "content type")
			if dev.says != "" {
				assert.Contains(t, got, dev.says)
				return
			}
			want := string(c.respBody)
			for _, p := range dev.patches {
				require.Equal(t, p.n, strings.Count(want, p.old), "patch %q", p.old)
				want = strings.ReplaceAll(want, p.old, p.new)
			}
			wantSet, err := infoset([]byte(want), drop)
			require.NoError(t, err)
			gotSet, err := infoset([]byte(got), drop)
			require.NoError(t, err, got)
			assert.Equal(t, wantSet, gotSet)
			if listed {
				asmxSet, err := infoset(c.respBody, drop)
				require.NoError(t, err)
				assert.NotEqual(t, asmxSet, gotSet, "a listed deviation must differ from ASMX")
			}
		})
	}
	for name := range hdrDeviations {
		assert.True(t, names[name], "hdrDeviations lists %s, which is not a capture", name)
	}
}

// TestHdrDeviationsAreDocumented: docs/bindings.md's table of the header deviations (between its
// hdr-deviations markers) is hdrDeviations: each reason's row lists exactly its exchanges.
func TestHdrDeviationsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/bindings.md")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(doc), "<!-- hdr-deviations: begin -->\n")
	require.True(t, ok, "docs/bindings.md has the hdr-deviations table")
	table, _, ok = strings.Cut(table, "<!-- hdr-deviations: end -->")
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
	for name, dev := range hdrDeviations {
		listed[dev.why] = append(listed[dev.why], name)
	}
	for why := range listed {
		slices.Sort(listed[why])
		assert.ElementsMatch(t, listed[why], documented[why], "docs/bindings.md's row for %q", why)
	}
	for why := range documented {
		assert.Contains(t, listed, why, "docs/bindings.md documents a reason no deviation has: %q", why)
	}
}
