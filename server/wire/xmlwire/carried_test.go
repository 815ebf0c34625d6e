package xmlwire_test

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/internal/testsupport"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
)

// TestXMLCarried pins the expected round trip of characters XML cannot carry, which the server root's
// TestCodecRoundTrip relies on (testsupport.XMLCarried), against the writer itself.
func TestXMLCarried(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain <&>\"' ]]> \r\n\t", "plain <&>\"' ]]> \r\n\t"},
		{"nul\x00 bell\x07 esc\x1b", "nul\uFFFD bell\uFFFD esc\uFFFD"},
		{"del\x7f nel\u0085 ls\u2028", "del\x7f nel\u0085 ls\u2028"}, // allowed by XML 1.0's Char
		{"\ufffe\uffff\ufffd", "\uFFFD\uFFFD\uFFFD"},
		{"bad \xff\xfe utf8 \xed\xa0\x80", "bad \uFFFD\uFFFD utf8 \uFFFD\uFFFD\uFFFD"}, // the last is an encoded surrogate
		{"😀\U0010FFFF", "😀\U0010FFFF"},
	} {
		require.Equal(t, tc.want, testsupport.XMLCarried(tc.in), "%q", tc.in)
		// The writer replaces the same characters (and escapes the rest).
		escaped := string(xmlwire.AppendEscaped(nil, tc.in))
		require.Equal(t, tc.want, unescapeXML(t, escaped), "AppendEscaped(%q) = %q", tc.in, escaped)
	}
}

// unescapeXML reads escaped text back as an XML parser does.
func unescapeXML(t *testing.T, escaped string) string {
	t.Helper()
	var v struct {
		Text string `xml:",chardata"`
	}
	require.NoError(t, xml.NewDecoder(strings.NewReader("<x>"+escaped+"</x>")).Decode(&v), escaped)
	return v.Text
}
