package main

import (
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMainDocListsEveryCommand reads the command list of main.go's doc comment (its lines
// "contactsync NAME …", where "export / import" names two) and holds it to the commands the root
// registers, so that a command added, renamed or removed cannot leave the doc behind.
func TestMainDocListsEveryCommand(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	require.NoError(t, err)
	require.NotNil(t, f.Doc, "main.go has no package doc comment")
	var documented []string
	for line := range strings.SplitSeq(f.Doc.Text(), "\n") {
		words := strings.Fields(line)
		if len(words) < 2 || words[0] != "contactsync" {
			continue
		}
		documented = append(documented, words[1])
		for i := 2; i+1 < len(words) && words[i] == "/"; i += 2 {
			documented = append(documented, words[i+1])
		}
	}
	var registered []string
	for _, c := range newRootCommand().Commands() {
		registered = append(registered, c.Name())
	}
	require.NotEmpty(t, registered)
	slices.Sort(documented)
	slices.Sort(registered)
	assert.Equal(t, registered, documented, "main.go's doc comment lists other commands than root.go registers")
}
