package zoo_test

import (
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Mono's help pages and ours share no markup, so checkHelpPage compares what a reader takes from
// them, read as text (tags removed, entities resolved): the operations an overview links to, and on
// an operation page its parameter table (names and types), its remarks (the description), the
// protocols it lists, and the element names of its sample messages.
var (
	helpTag      = regexp.MustCompile(`(?s)<!--.*?-->|<[^>]*>`)
	helpOpLink   = regexp.MustCompile(`[?&]op=([^&"']+)`)
	helpElement  = regexp.MustCompile(`<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)`)
	helpSpace    = regexp.MustCompile(`\s+`)
	monoProtocol = map[string]string{"Soap": "SOAP 1.1", "HttpGet": "HTTP GET", "HttpPost": "HTTP POST"}
)

// helpBody is the body of an HTML page (where the operation list, the tables and the samples are).
func helpBody(page string) string {
	if i := strings.Index(page, "<body"); i >= 0 {
		return page[i:]
	}
	return page
}

// helpText is a page's body as a reader sees it: tags and comments removed, entities resolved (the
// samples' escaped markup becomes the XML it shows), no-break spaces as spaces.
func helpText(page string) string {
	return strings.ReplaceAll(html.UnescapeString(helpTag.ReplaceAllString(helpBody(page), " ")), "\u00a0", " ")
}

// helpLines are the non-empty trimmed lines of a page's text.
func helpLines(page string) []string {
	var lines []string
	for _, l := range strings.Split(helpText(page), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// between are the lines after the line from and before the first of the lines to.
func between(lines []string, from string, to ...string) []string {
	i := slices.Index(lines, from)
	if i < 0 {
		return nil
	}
	var out []string
	for _, l := range lines[i+1:] {
		if slices.Contains(to, l) || slices.ContainsFunc(to, func(p string) bool { return strings.HasPrefix(l, p) }) {
			break
		}
		out = append(out, l)
	}
	return out
}

// sampleElements are the local names of the elements a page's sample messages show.
func sampleElements(page string) []string {
	seen := map[string]bool{}
	for _, m := range helpElement.FindAllStringSubmatch(helpText(page), -1) {
		seen[m[2]] = true
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// checkHelpPage replays a help page ASMX served (200, HTML) and holds ours to it, read as text (see
// helpText): an overview links to the same operations; an operation page shows each parameter and
// result of Mono's table with its type, Mono's remarks, a sample for each protocol Mono lists, and
// every element of Mono's samples. A listed deviation names what ours says instead (dev.says, on the
// page's text) and must differ in the remarks.
func checkHelpPage(t *testing.T, h http.Handler, c *capture, dev deviation, listed bool) {
	t.Helper()
	rec := replay(h, c)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	assert.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html"), rec.Header().Get("Content-Type"))
	asmx, ours := string(c.respBody), rec.Body.String()
	if !strings.Contains(c.request.URL.RawQuery, "op=") {
		links := func(page string) []string {
			var ops []string
			for _, m := range helpOpLink.FindAllStringSubmatch(helpBody(page), -1) {
				if !slices.Contains(ops, m[1]) {
					ops = append(ops, m[1])
				}
			}
			slices.Sort(ops)
			return ops
		}
		require.NotEmpty(t, links(asmx))
		assert.Equal(t, links(asmx), links(ours), "the operations the overview links to")
		return
	}
	text := helpSpace.ReplaceAllString(helpText(ours), " ")
	lines := helpLines(asmx)
	for _, p := range between(lines, "Input Parameters", "Remarks", "Technical information") {
		switch p {
		case "Output Parameters":
		case "No input parameters":
			assert.Contains(t, text, "takes no parameters", "the parameter table's %q", p)
		default:
			assert.Regexp(t, `\b`+regexp.QuoteMeta(p)+`\b`, text, "the parameter table's %q", p)
		}
	}
	remarks := strings.Join(between(lines, "Remarks", "Technical information"), " ")
	if listed {
		assert.NotContains(t, text, remarks, "a listed deviation must differ from ASMX")
		assert.Contains(t, text, dev.says)
	} else {
		assert.Contains(t, text, remarks, "the remarks")
	}
	for _, l := range lines {
		if protocols, ok := strings.CutPrefix(l, "Supported protocols: "); ok {
			for _, p := range strings.Split(protocols, ", ") {
				assert.Contains(t, text, monoProtocol[p], "a sample for %s", p)
			}
		}
	}
	for _, name := range sampleElements(asmx) {
		assert.Regexp(t, `<([\w.-]+:)?`+regexp.QuoteMeta(name)+`\b`, text, "the samples' element %s", name)
	}
}
