package zoo_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reasons of the third zoo's deviations.
const (
	becauseNoBytes     reason = "an absent byte[] parameter on GET/POST is the empty array, as every absent array parameter: ASMX fails with a null reference (500)"
	becauseFlagsXSD    reason = "a [Flags] parameter on GET/POST also takes the XSD forms, the space list and the empty list (zero), as on SOAP: ASMX's URL reader takes only the comma list"
	becauseFlagsBits   reason = "a [Flags] value with a bit no member names is written without that bit: ASMX fails the call (500), but the generated encoders have no error to return"
	becauseTextOnly    reason = "the text of an [XmlText] type (simple content) with a child element is refused: ASMX keeps its last text node and skips the element, but simple content has no child elements (XSD)"
	becauseFlagsNumber reason = "a [Flags] value is a list of its names: ASMX's URL reader also takes a number (3 for Read Write), but the WSDL gives the members no numbers"
	becauseObjectNil   reason = "an object element with xsi:nil is nil at the top as inside an object[] (where ASMX reads it as null too): ASMX reads a top-level one as an XmlNode[1] holding the attribute"
	becauseObjectAttrs reason = "an untyped object keeps its nodes, not the attributes of its element other than xsi:type and xsi:nil (xmlany.RawXML holds nodes): ASMX keeps them among the XmlNode[]"
	becauseObjectZone  reason = "a dateTime in an object keeps the zone it was sent with, the same instant: ASMX converts an offset to the server's local time"
	becauseObjectTyped reason = "an object is an anytype.Object, which holds no int[] nor XmlElement (ASMX's Server fault after the method ran has no Go counterpart: the twin answers null) and no enumeration the WSDL does not declare (Tier, known to ASMX through [XmlInclude] only)"
	becauseHelpEscapes reason = "the help page escapes a description (html/template): Mono inserts it raw, so its markup becomes the page's"
	becauseHelpNoBnd   reason = "an operation's help page needs no binding (?op=Name): Mono's help generator fails without &bnd= (500)"
	becauseNoProfile   reason = "?WSDL and the help page serve the contract as written: a BasicProfile1_1 build of the same service refuses them (500), and we have no conformance-claim setting"
	becauseBareBody    reason = "a bare body whose first element is none of the parameters of the operation its SOAPAction names is refused, as a body that does not match its action always is: ASMX reads the parameters as null and answers"
)

// zoo3Deviations lists every exchange of testdata/shapes/captures the carried operations deliberately
// answer otherwise than ASMX, as deviations does for the second zoo; docs/xsd-types.md mirrors it
// between its zoo3-deviations markers (TestZoo3DeviationsAreDocumented).
var zoo3Deviations = map[string]deviation{
	"get-EchoBytes-absent":                      {why: becauseNoBytes, accepts: true, says: `xmlns="http://localhost:8080/zoo3/v1/"></base64Binary>`},
	"get-EchoPerm-read-write":                   {why: becauseFlagsXSD, accepts: true, says: `xmlns="http://localhost:8080/zoo3/v1/">Read Write</Perm>`},
	"get-EchoPerm-empty":                        {why: becauseFlagsXSD, accepts: true, says: `xmlns="http://localhost:8080/zoo3/v1/">None</Perm>`},
	"get-EchoPerm-numeric":                      {why: becauseFlagsNumber, refuses: true, says: `The parameter p must be an xsd:Perm; "3" is not.`},
	"soap11-GetObject-ints":                     {why: becauseObjectTyped, accepts: true, says: `<GetObjectResponse xmlns="http://localhost:8080/zoo3/v1/" />`},
	"soap11-GetObject-element":                  {why: becauseObjectTyped, accepts: true, says: `<GetObjectResponse xmlns="http://localhost:8080/zoo3/v1/" />`},
	"soap11-DescribeObject-enum":                {why: becauseObjectTyped, patches: []patch{{`Tier=Gold`, `XmlNode[2] Attribute:xsi:type="Tier" Text:Gold`, 1}}},
	"soap11-DescribeObject-nil":                 {why: becauseObjectNil, patches: []patch{{`XmlNode[1] Attribute:xsi:nil="true"`, `null`, 1}}},
	"soap11-DescribeObject-untyped-attribute":   {why: becauseObjectAttrs, patches: []patch{{`XmlNode[2] Attribute:lang="en" Text:hi`, `XmlNode[1] Text:hi`, 1}}},
	"soap11-DescribeObject-xsd-dateTime-offset": {why: becauseObjectZone, patches: []patch{{`2026-11-22T09:15:30.0000000`, `2026-11-22T10:15:30.0000000`, 1}}},
	"soap11-GetObject-enum":                     {why: becauseObjectTyped, patches: []patch{{`<GetObjectResult xsi:type="Tier">Gold</GetObjectResult>`, "", 1}}},
	"soap11-BareOne-wrapped":                    {why: becauseBareBody, refuses: true, says: "The SOAP action names BareOne but the body holds BareOne, which is none of its parameters."},
	"soap11-GetTagged-3":                        {why: becauseFlagsBits, accepts: true, says: `<Permissions>None</Permissions>`},
	"get-GetTagged-3":                           {why: becauseFlagsBits, accepts: true, says: `<Permissions>None</Permissions>`},
	"soap11-EchoTagged-text-with-element":       {why: becauseTextOnly, refuses: true, says: `The content of Note must hold text, not elements.`},
	"doc-op-Documented-bnd":                     {why: becauseHelpEscapes, says: `a comment end */ and markup <b>bold</b> & an ampersand`},
	"doc-op-WhoAmI":                             {why: becauseHelpNoBnd, accepts: true, says: `<h1>WhoAmI</h1>`},
	"doc-op-GetDataSet":                         {why: becauseHelpNoBnd, accepts: true, says: `<h1>GetDataSet</h1>`},
	"doc-wsdl-bp11":                             {why: becauseNoProfile, accepts: true, says: `<wsdl:definitions`},
	"doc-help-bp11":                             {why: becauseNoProfile, accepts: true, says: `?op=WhoAmI`},
}

// TestZoo3DeviationsAreDocumented: docs/xsd-types.md's table of the third zoo's deviations (between
// its zoo3-deviations markers) is zoo3Deviations, reason by reason, and every entry names a capture.
func TestZoo3DeviationsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/xsd-types.md")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(doc), "<!-- zoo3-deviations: begin -->\n")
	require.True(t, ok, "docs/xsd-types.md has the zoo3-deviations table")
	table, _, ok = strings.Cut(table, "<!-- zoo3-deviations: end -->")
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
	for name, dev := range zoo3Deviations {
		listed[dev.why] = append(listed[dev.why], name)
		_, err := os.Stat("testdata/shapes/captures/" + name + ".txt")
		assert.NoError(t, err, "zoo3Deviations lists %s, which is not a capture", name)
		assert.False(t, dev.accepts && dev.refuses, name)
	}
	for why := range listed {
		assert.ElementsMatch(t, listed[why], documented[why], "docs/xsd-types.md's row for %q", why)
	}
	for why := range documented {
		assert.Contains(t, listed, why, "docs/xsd-types.md documents a reason no deviation has: %q", why)
	}
}

// zoo3Deviation is the deviation of one capture of testdata/shapes: zoo3Deviations', or for a header
// exchange hdrDeviations' (the same capture in testdata/hdr, documented in docs/bindings.md), so the
// header captures replay over zoo3 with the deviations zoo/zoohdr's replay lists.
func zoo3Deviation(name string) (deviation, bool) {
	if dev, ok := zoo3Deviations[name]; ok {
		return dev, true
	}
	if dev, ok := hdrDeviations[name]; ok {
		return deviation{why: dev.why, accepts: dev.accepts, refuses: dev.refuses, patches: dev.patches, says: dev.says}, true
	}
	return deviation{}, false
}
