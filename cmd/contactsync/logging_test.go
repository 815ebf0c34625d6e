package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
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

// TestServeAccessLineFormats runs serve in each log format and level and checks the access line
// written by hand (server/observe) is shaped as the logger's own lines: a JSON object with the fields
// in order, or text key=value pairs; and that a level above info leaves it out.
func TestServeAccessLineFormats(t *testing.T) {
	for _, c := range []struct {
		format, level string
		want          string // the access line from "level" on; "" when none is expected
	}{
		{"text", "info", ` level=INFO msg=request request_id=fmt-test-1 method=GET path=/contactsync/v1/sync.asmx/VersionMajor binding=get operation=VersionMajor status=200 outcome=ok duration=`},
		{"json", "info", `","level":"INFO","msg":"request","request_id":"fmt-test-1","method":"GET","path":"/contactsync/v1/sync.asmx/VersionMajor","binding":"get","operation":"VersionMajor","status":200,"outcome":"ok","duration":`},
		{"text", "warn", ""},
		{"json", "error", ""},
	} {
		t.Run(c.format+"/"+c.level, func(t *testing.T) {
			clearSettingsEnv(t)
			port := freePort(t)
			var logs syncBuffer
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				cmd := newRootCommand()
				cmd.SetArgs([]string{"serve", "--addr", "127.0.0.1:" + port, "--log-format", c.format, "--log-level", c.level,
					"--store", "sqlite:" + filepath.Join(t.TempDir(), "c.db")})
				cmd.SetErr(&logs)
				done <- cmd.ExecuteContext(ctx)
			}()
			url := "http://127.0.0.1:" + port + "/contactsync/v1/sync.asmx/VersionMajor"
			require.Eventually(t, func() bool {
				resp, err := http.Get(url)
				if err == nil {
					_ = resp.Body.Close()
				}
				return err == nil
			}, 10*time.Second, 10*time.Millisecond)
			req, err := http.NewRequest(http.MethodGet, url, nil)
			require.NoError(t, err)
			req.Header.Set("X-Request-ID", "fmt-test-1")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			cancel()
			require.NoError(t, <-done)

			var line string
			for l := range strings.Lines(logs.String()) {
				if strings.Contains(l, "fmt-test-1") {
					line = l
				}
			}
			if c.want == "" {
				assert.Empty(t, line, "no access line above level info")
				return
			}
			require.NotEmpty(t, line, "the access line: %s", logs.String())
			assert.Contains(t, line, c.want)
			if c.format == "json" {
				var record map[string]any
				require.NoError(t, json.Unmarshal([]byte(line), &record), line)
				assert.Len(t, record, 13, "time, level, msg and ten fields")
			} else {
				assert.Regexp(t, `^time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\S+ level=INFO msg=request .* bytes=\d+ remote=127\.0\.0\.1:\d+\n$`, line)
			}
		})
	}
}
