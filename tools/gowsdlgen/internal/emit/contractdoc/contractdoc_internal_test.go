package contractdoc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWithoutComments: the generated descriptor's document is the contract without its comments,
// which are notes for its maintainers; a comment alone on its line takes the line with it, any other
// leaves the text around it. (The wsdl package's TestWithoutComments checks contactsync's document.)
func TestWithoutComments(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"none", "<a>\n  <b/>\n</a>\n", "<a>\n  <b/>\n</a>\n"},
		{"head, alone and inline", "<!-- head -->\n<a>\n  <!-- alone -->\n  <b/><!-- inline --> x\n</a>\n", "<a>\n  <b/> x\n</a>\n"},
		{"after the declaration", "<?xml version=\"1.0\"?>\n<!-- note -->\n<a/>\n", "<?xml version=\"1.0\"?>\n<a/>\n"},
		{"alone with a tab", "<a>\n\t<!-- t -->\n</a>", "<a>\n</a>"},
		{"text before it on the line", "<a>x <!-- c -->\n</a>", "<a>x \n</a>"},
		{"last, no newline after", "<a/><!-- end -->", "<a/>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(withoutComments([]byte(tc.doc))))
		})
	}
}
