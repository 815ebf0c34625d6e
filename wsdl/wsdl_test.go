package wsdl_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/wsdl"
)

// TestWithoutComments: the contract file keeps its comment for its maintainers ("After editing, run
// `make generate`…"), which Served, what the server fills in and serves, drops; a comment alone on its
// line takes the line with it, any other leaves the text around it. The server root's
// TestServedContractHasNoComment checks what the handler and `contactsync wsdl` serve.
func TestWithoutComments(t *testing.T) {
	require.True(t, bytes.Contains(wsdl.Contract, []byte("<!--")), "the repository file keeps its comment; the server strips it")
	assert.NotContains(t, string(wsdl.Served), "<!--")
	assert.NotContains(t, string(wsdl.Served), "make generate")
	for _, tc := range []struct{ name, doc, want string }{
		{"none", "<a>\n  <b/>\n</a>\n", "<a>\n  <b/>\n</a>\n"},
		{"head, alone and inline", "<!-- head -->\n<a>\n  <!-- alone -->\n  <b/><!-- inline --> x\n</a>\n", "<a>\n  <b/> x\n</a>\n"},
		{"after the declaration", "<?xml version=\"1.0\"?>\n<!-- note -->\n<a/>\n", "<?xml version=\"1.0\"?>\n<a/>\n"},
		{"alone with a tab", "<a>\n\t<!-- t -->\n</a>", "<a>\n</a>"},
		{"text before it on the line", "<a>x <!-- c -->\n</a>", "<a>x \n</a>"},
		{"last, no newline after", "<a/><!-- end -->", "<a/>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(wsdl.WithoutComments([]byte(tc.doc))))
		})
	}
}
