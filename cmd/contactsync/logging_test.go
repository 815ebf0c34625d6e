package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewLogger checks each format writes its shape and each level drops what is less severe.
func TestNewLogger(t *testing.T) {
	levels := []string{"debug", "info", "warn", "error"}
	for _, format := range []string{"text", "json"} {
		for i, level := range levels {
			t.Run(format+"/"+level, func(t *testing.T) {
				var o logOptions
				logFlags(bareCommand(), &o)
				require.NoError(t, o.format.Set(format))
				require.NoError(t, o.level.Set(level))
				var out bytes.Buffer
				logger, err := newLogger(&out, o)
				require.NoError(t, err)
				logger.Debug("at debug")
				logger.Info("at info")
				logger.Warn("at warn")
				logger.Error("at error")
				lines := strings.Split(strings.TrimSpace(out.String()), "\n")
				require.Len(t, lines, len(levels)-i, out.String())
				for j, line := range lines {
					if format == "json" {
						var record map[string]any
						require.NoError(t, json.Unmarshal([]byte(line), &record), line)
						assert.Equal(t, "at "+levels[i+j], record["msg"])
					} else {
						assert.Contains(t, line, `msg="at `+levels[i+j]+`"`)
					}
				}
			})
		}
	}
}

// bareCommand returns an empty command to register one group of flags on.
func bareCommand() *cobra.Command { return &cobra.Command{} }

// TestServeLogFormat runs serve with --log-format json and checks its startup and stop lines are JSON
// records.
func TestServeLogFormat(t *testing.T) {
	clearSettingsEnv(t)
	port := freePort(t)
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		cmd := newRootCommand()
		cmd.SetArgs([]string{"serve", "--addr", "127.0.0.1:" + port, "--log-format", "json",
			"--store", "sqlite:" + filepath.Join(t.TempDir(), "c.db")})
		cmd.SetErr(&logs)
		done <- cmd.ExecuteContext(ctx)
	}()
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "contactsync listening") },
		10*time.Second, 10*time.Millisecond)
	cancel()
	require.NoError(t, <-done)
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	var msgs []string
	for _, line := range lines {
		var record map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &record), line)
		msgs = append(msgs, record["msg"].(string))
		if record["msg"] == "contactsync listening" {
			assert.Equal(t, "127.0.0.1:"+port, record["addr"])
			assert.Equal(t, "http", record["scheme"])
		}
	}
	assert.Equal(t, []string{"contactsync listening", "contactsync shutting down", "contactsync stopped"}, msgs)
}
