// Package docs holds the project's documentation; its only Go is its tests: this one keeps the links
// between README.md, BENCHMARKS.md, CHANGELOG.md and docs/*.md true, and readme_test.go walks README's
// first steps as written.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// markdownLink matches an inline link or image, [text](target), capturing the target. Link targets in
// this project never hold spaces or parentheses.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// frontDoorLines is README's budget: it is the front door, and everything else lives in docs/.
const frontDoorLines = 250

// documents lists the Markdown files whose links are checked, relative to the repository root.
func documents(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "BENCHMARKS.md", "CHANGELOG.md"}
	more, err := filepath.Glob("*.md")
	require.NoError(t, err)
	for _, name := range more {
		files = append(files, filepath.Join("docs", name))
	}
	var present []string
	for _, f := range files {
		if _, err := os.Stat(filepath.Join("..", f)); err == nil {
			present = append(present, f)
		}
	}
	return present
}

// TestLinks checks every relative link of every document: the file it names exists, and the anchor,
// when there is one, is a heading of that file (as GitHub makes anchors from headings).
func TestLinks(t *testing.T) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		body, err := os.ReadFile(filepath.Join("..", file))
		require.NoError(t, err)
		anchors[file] = headingAnchors(string(body))
		return anchors[file]
	}
	docs := documents(t)
	require.Contains(t, docs, "README.md")
	checked := 0
	for _, file := range docs {
		body, err := os.ReadFile(filepath.Join("..", file))
		require.NoError(t, err)
		for _, m := range markdownLink.FindAllStringSubmatch(outsideCode(string(body)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			resolved := file
			if path != "" {
				resolved = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), path)))
				if _, err := os.Stat(filepath.Join("..", resolved)); err != nil {
					t.Errorf("%s links to %s, which does not exist", file, target)
					continue
				}
			}
			checked++
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(resolved, ".md") {
				t.Errorf("%s links to %s: an anchor in a file that is not Markdown", file, target)
				continue
			}
			if !anchorsOf(resolved)[anchor] {
				t.Errorf("%s links to %s, but %s has no heading with the anchor #%s", file, target, resolved, anchor)
			}
		}
	}
	assert.Greater(t, checked, 20, "the documents link to each other; a test that checks no link checks nothing")
}

// TestReadmeIsAFrontDoor keeps README short, with the two commands a newcomer needs.
func TestReadmeIsAFrontDoor(t *testing.T) {
	body, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	lines := strings.Count(string(body), "\n")
	assert.LessOrEqual(t, lines, frontDoorLines, "README.md is the front door; move detail to docs/")
	assert.Contains(t, string(body), "contactsync serve", "README says how to run the service")
	assert.Contains(t, string(body), "make test", "README says how to run the tests")
}

// outsideCode blanks fenced code blocks, whose brackets are not links.
func outsideCode(doc string) string {
	var b strings.Builder
	fenced := false
	for line := range strings.Lines(doc) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			b.WriteString("\n")
			continue
		}
		if fenced {
			b.WriteString("\n")
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// headingAnchors returns the anchors GitHub gives a document's headings: lower case, punctuation other
// than '-' and '_' dropped, spaces as '-', and "-1", "-2" appended to repeats.
func headingAnchors(doc string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for line := range strings.Lines(outsideCode(doc)) {
		line = strings.TrimRight(line, "\n")
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		anchor := githubSlug(strings.TrimSpace(line[level:]))
		if n := seen[anchor]; n > 0 {
			anchors[anchor+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[anchor] = true
		}
		seen[anchor]++
	}
	return anchors
}

func githubSlug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestGithubSlug pins the anchor rule against headings this project uses.
func TestGithubSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Run it, test it":                         "run-it-test-it",
		"The JSON endpoint and protocol switches": "the-json-endpoint-and-protocol-switches",
		"Where we differ from ASMX, deliberately": "where-we-differ-from-asmx-deliberately",
		"XSD types on the wire":                   "xsd-types-on-the-wire",
		"Access log and request ids":              "access-log-and-request-ids",
		"What the generator does about `gowsdl`":  "what-the-generator-does-about-gowsdl",
	} {
		assert.Equal(t, want, githubSlug(heading), heading)
	}
}
