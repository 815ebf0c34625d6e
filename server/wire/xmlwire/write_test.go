package xmlwire

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAppendEscaped(t *testing.T) {
	assert.Equal(t, "a&amp;b&lt;c&gt;d&quot;e&#xD;f'é😀\uFFFD\uFFFD", string(AppendEscaped(nil, "a&b<c>d\"e\rf'é😀\x00\xff")))
}
