package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigFileWithSeveralDocuments: a YAML file may hold several documents separated by "---". The
// settings are read from one mapping, so a file with more must be refused: reading only the first
// would silently drop the others, such as a users-file that turns authentication on.
func TestConfigFileWithSeveralDocuments(t *testing.T) {
	for _, tc := range []struct{ name, content string }{
		{"setting in the second document", "addr: \":9000\"\n---\nusers-file: /etc/contactsync/users\n"},
		{"explicit start of both", "---\naddr: \":9000\"\n---\nusers-file: /etc/contactsync/users\n"},
		{"empty first document", "---\n---\nusers-file: /etc/contactsync/users\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearSettingsEnv(t)
			cmd, err := resolveSettings(t, "serve", "--config", writeConfig(t, tc.content))
			if err == nil {
				usersFile, _ := cmd.Flags().GetString("users-file")
				t.Fatalf("a config file of several documents was accepted; --users-file is %q", usersFile)
			}
			assert.Contains(t, err.Error(), "more than one YAML document")
		})
	}
	// A single document, with or without its start and end markers, is still read.
	for _, content := range []string{"addr: \":9000\"\n", "---\naddr: \":9000\"\n", "---\naddr: \":9000\"\n...\n", "# only a comment\n", ""} {
		clearSettingsEnv(t)
		_, err := resolveSettings(t, "serve", "--config", writeConfig(t, content))
		require.NoError(t, err, "%q", content)
	}
}
