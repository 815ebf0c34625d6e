package wsdl_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/wsdl"
)

// TestWithoutComments: the contract file keeps its comment for its maintainers ("After editing, run
// `make generate`…"), which the generated descriptor's document, what the server fills in and serves,
// drops (tools/gowsdlgen's TestWithoutComments checks how); everything else is the file's. The server
// root's TestServedContractHasNoComment checks what the handler and `contactsync wsdl` serve.
func TestWithoutComments(t *testing.T) {
	require.True(t, bytes.Contains(wsdl.Contract, []byte("<!--")), "the repository file keeps its comment; the server strips it")
	assert.NotContains(t, gen.Contract.Document, "<!--")
	assert.NotContains(t, gen.Contract.Document, "make generate")
	start := bytes.Index(wsdl.Contract, []byte("<wsdl:definitions"))
	require.Positive(t, start)
	assert.True(t, strings.HasSuffix(gen.Contract.Document, string(wsdl.Contract[start:])), "the document is the file's from the definitions on")
}
