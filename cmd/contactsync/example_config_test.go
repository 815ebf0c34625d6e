package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exampleConfig is the sample config file shipped in deploy/ and in the release archives.
var exampleConfig = filepath.Join("..", "..", "deploy", "contactsync.example.yaml")

// exampleDiffers lists the settings whose value in the example is not the command's default, and why.
var exampleDiffers = map[string]string{
	"call/base-url":        "call's default is the namespace of ?WSDL; the file gives serve's, for both",
	"serve/max-concurrent": "the default depends on the CPUs (32 per CPU); the file says 64, two CPUs' worth",
}

// TestExampleConfigHoldsEverySetting loads deploy/contactsync.example.yaml the way every command does:
// it must name every setting of every command, parse for each of them, and give each its default
// (but for exampleDiffers), so the file documents what an empty configuration does.
func TestExampleConfigHoldsEverySetting(t *testing.T) {
	clearSettingsEnv(t)
	root := newRootCommand()
	known := knownSettings(root)
	values, err := readConfigFile(exampleConfig, known)
	require.NoError(t, err)
	for name := range known {
		_, ok := values[name]
		assert.True(t, ok, "the example config has no key %s", name)
	}

	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		list, ok := c.Annotations[settingsAnnotation]
		if !ok {
			return
		}
		names := strings.Split(list, ",")
		require.NoError(t, c.Flags().Set(configFlag, exampleConfig))
		require.NoError(t, applySettings(c, names), c.CommandPath())
		for _, name := range names {
			f := c.Flags().Lookup(name)
			if _, differs := exampleDiffers[c.Name()+"/"+name]; differs {
				continue
			}
			assert.Equal(t, f.DefValue, f.Value.String(), "%s --%s: the example's value is not the default", c.CommandPath(), name)
		}
	}
	walk(root)
	for key := range exampleDiffers {
		cmd, name, _ := strings.Cut(key, "/")
		found := false
		walk := func(c *cobra.Command) bool {
			return c.Name() == cmd && slices.Contains(strings.Split(c.Annotations[settingsAnnotation], ","), name)
		}
		for _, c := range root.Commands() {
			found = found || walk(c)
		}
		assert.True(t, found, "exampleDiffers names %s, which is no setting", key)
	}
}

// TestSystemdUnitCommandLine: the ExecStart of deploy/contactsync.service is a command line serve
// accepts, its flags known and valid.
func TestSystemdUnitCommandLine(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "deploy", "contactsync.service"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^ExecStart=(.+)$`).FindSubmatch(data)
	require.NotNil(t, m)
	args := strings.Fields(strings.ReplaceAll(string(m[1]), "${CREDENTIALS_DIRECTORY}", "/run/credentials/contactsync.service"))
	require.Equal(t, "/usr/local/bin/contactsync", args[0])
	root := newRootCommand()
	cmd, rest, err := root.Find(args[1:])
	require.NoError(t, err)
	assert.Equal(t, "serve", cmd.Name())
	require.NoError(t, cmd.ParseFlags(rest))
	assert.Empty(t, cmd.Flags().Args())
	users, err := cmd.Flags().GetString("users-file")
	require.NoError(t, err)
	assert.Equal(t, "/run/credentials/contactsync.service/users", users)
}
