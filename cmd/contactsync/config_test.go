package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/admission"
)

// resolveSettings runs the command tree with args up to the point where the command would run: it
// replaces the named subcommand's RunE with nothing, so settings are applied (PreRunE) and validated
// by the flags' parsers, but no server starts. It returns the subcommand for reading its flags.
func resolveSettings(t *testing.T, args ...string) (*cobra.Command, error) {
	t.Helper()
	root := newRootCommand()
	sub, _, err := root.Find(args)
	require.NoError(t, err)
	sub.RunE = func(*cobra.Command, []string) error { return nil }
	root.SetArgs(args)
	root.SetOut(&strings.Builder{})
	root.SetErr(&strings.Builder{})
	_, err = root.ExecuteC()
	return sub, err
}

// writeConfig writes a config file in a fresh directory and returns its path.
func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "contactsync.yaml")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

// clearSettingsEnv unsets every CONTACTSYNC_ variable for the test, so the machine's environment
// cannot leak into the precedence being checked.
func clearSettingsEnv(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, envPrefix) && name != "CONTACTSYNC_TEST_POSTGRES" {
			t.Setenv(name, "")
		}
	}
}

func TestEnvName(t *testing.T) {
	for flag, want := range map[string]string{
		"addr":             "CONTACTSYNC_ADDR",
		"max-body-bytes":   "CONTACTSYNC_MAX_BODY_BYTES",
		"shutdown-timeout": "CONTACTSYNC_SHUTDOWN_TIMEOUT",
		"config":           "CONTACTSYNC_CONFIG",
	} {
		assert.Equal(t, want, envName(flag), flag)
	}
}

// TestSettingsPrecedence checks flag > env > file > default for each pair of sources, on settings of
// every kind of flag serve has (string, integer, duration, choice) and on migrate's.
func TestSettingsPrecedence(t *testing.T) {
	settings := []struct {
		command, name string
		// def is the default; flagValue, envValue and fileValue are three other valid values, each
		// written as the flag's String() prints it.
		def, flagValue, envValue, fileValue string
	}{
		{"serve", "addr", ":8080", "127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"},
		{"serve", "max-body-bytes", "1048576", "1000", "2000", "3000"},
		{"serve", "read-timeout", "30s", "1s", "2m0s", "3h0m0s"},
		{"serve", "db-max-conns", "10", "1", "2", "3"},
		{"serve", "log-format", "text", "json", "text", "json"},
		{"serve", "log-level", "info", "debug", "warn", "error"},
		{"serve", "tls-cert", "", "flag.pem", "env.pem", "file.pem"},
		{"migrate", "store", "sqlite:contactsync.db", "sqlite:flag.db", "sqlite:env.db", "sqlite:file.db"},
		{"migrate", "db-connect-timeout", "5s", "1s", "2s", "3s"},
		{"call", "url", "http://localhost:8080/contactsync/v1/sync.asmx", "http://flag/", "http://env/", "http://file/"},
		{"wsdl", "base-url", "http://localhost:8080", "http://flag", "http://env", "http://file"},
	}
	sources := []struct {
		name                     string
		useFlag, useEnv, useFile bool
		want                     func(def, flag, env, file string) string
	}{
		{"default", false, false, false, func(d, _, _, _ string) string { return d }},
		{"file beats default", false, false, true, func(_, _, _, f string) string { return f }},
		{"env beats default", false, true, false, func(_, _, e, _ string) string { return e }},
		{"env beats file", false, true, true, func(_, _, e, _ string) string { return e }},
		{"flag beats file", true, false, true, func(_, f, _, _ string) string { return f }},
		{"flag beats env", true, true, false, func(_, f, _, _ string) string { return f }},
		{"flag beats env and file", true, true, true, func(_, f, _, _ string) string { return f }},
	}
	for _, s := range settings {
		for _, src := range sources {
			t.Run(s.command+"/"+s.name+"/"+src.name, func(t *testing.T) {
				clearSettingsEnv(t)
				args := []string{s.command}
				if s.command == "call" {
					args = append(args, "Version")
				}
				if src.useFlag {
					args = append(args, "--"+s.name, s.flagValue)
				}
				if src.useEnv {
					t.Setenv(envName(s.name), s.envValue)
				}
				if src.useFile {
					args = append(args, "--config", writeConfig(t, s.name+": "+s.fileValue+"\n"))
				}
				cmd, err := resolveSettings(t, args...)
				require.NoError(t, err)
				assert.Equal(t, src.want(s.def, s.flagValue, s.envValue, s.fileValue), cmd.Flags().Lookup(s.name).Value.String())
			})
		}
	}
}

// TestConfigFileSource checks where the config file comes from: --config wins over CONTACTSYNC_CONFIG,
// and an empty CONTACTSYNC_CONFIG means no file.
func TestConfigFileSource(t *testing.T) {
	fromEnv := writeConfig(t, "max-concurrent: 11\n")
	fromFlag := writeConfig(t, "max-concurrent: 22\n")
	cases := []struct {
		name, env string
		args      []string
		want      string
	}{
		{"none", "", nil, strconv.Itoa(admission.DefaultMaxConcurrent())},
		{"env", fromEnv, nil, "11"},
		{"flag", "", []string{"--config", fromFlag}, "22"},
		{"flag beats env", fromEnv, []string{"--config", fromFlag}, "22"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clearSettingsEnv(t)
			t.Setenv("CONTACTSYNC_CONFIG", tc.env)
			cmd, err := resolveSettings(t, append([]string{"serve"}, tc.args...)...)
			require.NoError(t, err)
			assert.Equal(t, tc.want, cmd.Flags().Lookup("max-concurrent").Value.String())
		})
	}
}

// TestConfigFileValues checks YAML values of every shape a flag takes: numbers, durations, quoted
// strings, an empty value, lists for list flags, and that one file may carry other commands' keys.
func TestConfigFileValues(t *testing.T) {
	clearSettingsEnv(t)
	file := writeConfig(t, `# the deployment's settings
addr: "127.0.0.1:9999"
max-body-bytes: 2048
read-timeout: 1m30s
store: 'postgres://app:secret@db:5432/contacts?sslmode=disable'
tls-cert:
log-format: json
url: http://elsewhere/   # call's setting: known, so accepted here, and ignored by serve
`)
	cmd, err := resolveSettings(t, "serve", "--config", file)
	require.NoError(t, err)
	want := map[string]string{
		"addr": "127.0.0.1:9999", "max-body-bytes": "2048", "read-timeout": "1m30s",
		"store": "postgres://app:secret@db:5432/contacts?sslmode=disable", "tls-cert": "", "log-format": "json",
	}
	for name, v := range want {
		assert.Equal(t, v, cmd.Flags().Lookup(name).Value.String(), name)
	}

	// No command has a list setting yet; one built here proves lists reach a slice flag's Replace.
	var roles []string
	probe := &cobra.Command{Use: "probe", RunE: func(*cobra.Command, []string) error { return nil }}
	probe.Flags().StringSliceVar(&roles, "roles", []string{"default"}, "roles")
	bindSettings(probe)
	for _, tc := range []struct{ name, yaml, env string }{
		{"flow list", "roles: [a, b]\n", ""},
		{"block list", "roles:\n  - a\n  - b\n", ""},
		{"env list", "", "a,b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roles = nil
			t.Setenv("CONTACTSYNC_ROLES", tc.env)
			args := []string{}
			if tc.yaml != "" {
				args = append(args, "--config", writeConfig(t, tc.yaml))
			}
			probe.SetArgs(args)
			resetFlags(probe)
			require.NoError(t, probe.Execute())
			assert.Equal(t, []string{"a", "b"}, roles)
		})
	}
	t.Run("list for a single-valued flag", func(t *testing.T) {
		_, err := resolveSettings(t, "serve", "--config", writeConfig(t, "addr: [a, b]\n"))
		require.ErrorContains(t, err, "key addr (line 1): --addr takes one value, not a list")
	})
}

// resetFlags marks every flag of cmd as not given, so one command can be executed several times.
func resetFlags(cmd *cobra.Command) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) { f.Changed = false })
}

// TestBadSettings checks that an invalid value fails at start, naming its source and the setting, from
// every source.
func TestBadSettings(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"flag: bad integer", []string{"--max-body-bytes", "abc"}, nil, `invalid argument "abc" for "--max-body-bytes" flag`},
		{"env: bad integer", nil, map[string]string{"CONTACTSYNC_MAX_BODY_BYTES": "abc"}, `CONTACTSYNC_MAX_BODY_BYTES="abc": invalid value for --max-body-bytes: `},
		{"env: bad duration", nil, map[string]string{"CONTACTSYNC_SHUTDOWN_TIMEOUT": "soon"}, `CONTACTSYNC_SHUTDOWN_TIMEOUT="soon": invalid value for --shutdown-timeout: `},
		{"env: bad log format", nil, map[string]string{"CONTACTSYNC_LOG_FORMAT": "xml"}, `CONTACTSYNC_LOG_FORMAT="xml": invalid value for --log-format: must be text or json`},
		{"flag: bad log level", []string{"--log-level", "loud"}, nil, `invalid argument "loud" for "--log-level" flag: must be debug, info, warn or error`},
		{"file: bad integer", []string{"--config", writeConfigIn(t, dir, "a.yaml", "addr: x\nmax-body-bytes: abc\n")}, nil,
			"config file " + filepath.Join(dir, "a.yaml") + `: key max-body-bytes (line 2): invalid value "abc" for --max-body-bytes: `},
		{"file: bad duration", []string{"--config", writeConfigIn(t, dir, "b.yaml", "read-timeout: 30\n")}, nil,
			`key read-timeout (line 1): invalid value "30" for --read-timeout: time: missing unit in duration`},
		{"file: bad log level", []string{"--config", writeConfigIn(t, dir, "c.yaml", "log-level: verbose\n")}, nil,
			`key log-level (line 1): invalid value "verbose" for --log-level: must be debug, info, warn or error`},
		{"file: mapping value", []string{"--config", writeConfigIn(t, dir, "d.yaml", "addr:\n  host: x\n")}, nil,
			"key addr (line 2): expected a value or a list of values, not a mapping"},
		{"file: unknown key", []string{"--config", writeConfigIn(t, dir, "e.yaml", "addr: x\nmax-body-byte: 10\n")}, nil,
			`unknown key "max-body-byte" (line 2); did you mean max-body-bytes?`},
		{"file: unknown key, nothing near", []string{"--config", writeConfigIn(t, dir, "e2.yaml", "addr: x\ncolour: blue\n")}, nil,
			`unknown key "colour" (line 2); known keys: access-log, addr, `},
		{"file: key given twice", []string{"--config", writeConfigIn(t, dir, "f.yaml", "addr: x\naddr: y\n")}, nil,
			"key addr (line 2) given twice"},
		{"file: config key", []string{"--config", writeConfigIn(t, dir, "g.yaml", "config: other.yaml\n")}, nil,
			"a config file cannot name another"},
		{"file: not a mapping", []string{"--config", writeConfigIn(t, dir, "h.yaml", "- addr\n")}, nil,
			"expected a mapping of setting names to values"},
		{"file: not YAML", []string{"--config", writeConfigIn(t, dir, "i.yaml", "addr: [\n")}, nil,
			"config file " + filepath.Join(dir, "i.yaml") + ": yaml: "},
		{"file: missing", []string{"--config", filepath.Join(dir, "missing.yaml")}, nil,
			"config file: open " + filepath.Join(dir, "missing.yaml") + ": no such file or directory"},
		{"file: unreadable (a directory)", []string{"--config", dir}, nil, "config file: read " + dir + ": is a directory"},
		{"env names a missing file", nil, map[string]string{"CONTACTSYNC_CONFIG": filepath.Join(dir, "gone.yaml")},
			"config file: open " + filepath.Join(dir, "gone.yaml") + ": no such file or directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clearSettingsEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, err := resolveSettings(t, append([]string{"serve"}, tc.args...)...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestUnknownConfigKeySuggests: an unknown config key is answered with the nearest known keys (the
// key spelled as an environment variable's tail, or a key one or two edits away), and with the list of
// every key only when none is near.
func TestUnknownConfigKeySuggests(t *testing.T) {
	known := knownSettings(newRootCommand())
	cases := []struct {
		key  string
		want string // the suggestion, or "" when every key is listed
	}{
		{"max_body_bytes", "did you mean max-body-bytes?"}, // the environment variable's spelling
		{"LOG_LEVEL", "did you mean log-level?"},
		{"Store", "did you mean store?"},
		{"max-body-byte", "did you mean max-body-bytes?"}, // one deleted
		{"tls-cret", "did you mean tls-cert?"},            // two swapped
		{"db-timout", "did you mean db-timeout?"},
		{"users_fil", "did you mean users-file?"},
		{"addres", "did you mean addr?"},
		{"tls-ke", "did you mean tls-key?"},
		{"to-", "did you mean to?"},
		{"colour", ""},
		{"x", ""},
		{"max-connections", ""},
	}
	for _, tc := range cases {
		t.Run(tc.key, func(t *testing.T) {
			path := writeConfig(t, tc.key+": 1\n")
			_, err := readConfigFile(path, known)
			require.Error(t, err)
			if tc.want == "" {
				assert.Contains(t, err.Error(), "known keys: access-log, addr, ")
				assert.NotContains(t, err.Error(), "did you mean")
				return
			}
			assert.Contains(t, err.Error(), fmt.Sprintf("unknown key %q (line 1); %s", tc.key, tc.want))
			assert.NotContains(t, err.Error(), "known keys")
		})
	}
	assert.Equal(t, 0, editDistance("addr", "addr"))
	assert.Equal(t, 3, editDistance("kitten", "sitting"))
	assert.Equal(t, 4, editDistance("", "addr"))
}

func writeConfigIn(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

// TestSettingsValidation checks that values that parse but cannot work stop serve at start with the
// setting named, whichever source gave them.
func TestSettingsValidation(t *testing.T) {
	cases := []struct {
		setting, value, want string
	}{
		{"max-body-bytes", "0", "--max-body-bytes must be at least 1"},
		{"max-xml-depth", "2", "--max-xml-depth must be at least 3"},
		{"max-xml-elements", "2", "--max-xml-elements must be at least 3"},
		{"max-concurrent", "0", "--max-concurrent must be at least 1"},
		{"max-header-bytes", "100", "--max-header-bytes must be at least 1024"},
		{"max-xml-attrs-per-element", "0", "--max-xml-attrs-per-element must be at least 1"},
		{"max-xml-comment-bytes", "-1", "--max-xml-comment-bytes must be at least 1"},
		{"max-pending", "0", "--max-pending must be at least 1"},
		{"max-body-bytes-in-flight", "0", "--max-body-bytes-in-flight must be at least 1"},
		{"min-body-rate", "0", "--min-body-rate must be at least 1"},
		{"queue-timeout", "0s", "--queue-timeout must be positive"},
		{"public-url", "contacts.example.com", "--public-url"},
		{"trusted-proxies", "10.0.0.0/33", "--trusted-proxies"},
		{"read-header-timeout", "0s", "--read-header-timeout must be positive"},
		{"read-timeout", "-1s", "--read-timeout must be positive"},
		{"write-timeout", "0s", "--write-timeout must be positive"},
		{"idle-timeout", "0s", "--idle-timeout must be positive"},
		{"oneway-timeout", "0s", "--oneway-timeout must be positive"},
		{"db-max-conns", "0", "--db-max-conns must be at least 1"},
		{"db-connect-timeout", "0s", "--db-connect-timeout must be positive"},
		{"db-timeout", "0s", "--db-timeout must be positive"},
		{"shutdown-timeout", "0s", "--shutdown-timeout must be positive"},
		{"base-url", "localhost:8080", "--base-url"},
		{"store", "mysql://x", "--store mysql://x: unknown store"},
		{"tls-cert", "cert.pem", "--tls-cert needs --tls-key"},
		{"tls-key", "key.pem", "--tls-key needs --tls-cert"},
	}
	for _, tc := range cases {
		for _, source := range []string{"flag", "env", "file"} {
			t.Run(tc.setting+"/"+source, func(t *testing.T) {
				clearSettingsEnv(t)
				args := []string{"serve", "--addr", "127.0.0.1:0"}
				if tc.setting != "store" {
					args = append(args, "--store", "sqlite:"+filepath.Join(t.TempDir(), "c.db"))
				}
				switch source {
				case "flag":
					args = append(args, "--"+tc.setting+"="+tc.value)
				case "env":
					t.Setenv(envName(tc.setting), tc.value)
				case "file":
					args = append(args, "--config", writeConfig(t, tc.setting+": '"+tc.value+"'\n"))
				}
				_, err := runCLI(t, args...)
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.want)
			})
		}
	}
}

// TestHelpListsEverySetting checks, against each command's own flag set rather than a list kept here,
// that --help shows every setting with its environment variable and explains the config file.
func TestHelpListsEverySetting(t *testing.T) {
	for _, tc := range []struct {
		command  string
		settings func(c *cobra.Command) []string
	}{
		{"serve", allFlags},
		{"migrate", func(*cobra.Command) []string { return []string{"store", "db-connect-timeout"} }},
		{"call", func(*cobra.Command) []string { return []string{"url", "base-url"} }},
		{"wsdl", func(*cobra.Command) []string { return []string{"base-url"} }},
	} {
		t.Run(tc.command, func(t *testing.T) {
			clearSettingsEnv(t)
			out, err := runCLI(t, tc.command, "--help")
			require.NoError(t, err)
			cmd, _, err := newRootCommand().Find([]string{tc.command})
			require.NoError(t, err)
			names := tc.settings(cmd)
			require.NotEmpty(t, names)
			for _, name := range append(names, "config") {
				line := regexp.MustCompile(`(?m)^ +(?:-\w, )?--` + regexp.QuoteMeta(name) + ` .*$`).FindString(out)
				require.NotEmpty(t, line, "--%s missing from %s --help", name, tc.command)
				assert.Contains(t, line, "[env "+envName(name)+"]", "--%s", name)
			}
			assert.Contains(t, out, "--config FILE")
			assert.Contains(t, out, "CONTACTSYNC_CONFIG")
			assert.Contains(t, out, "Precedence: flag > environment > config file > default.")
		})
	}
}

// allFlags lists every flag of c except --help and --config: the settings of a command whose flags
// are all settings.
func allFlags(c *cobra.Command) []string {
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" && f.Name != configFlag {
			names = append(names, f.Name)
		}
	})
	return names
}

// TestSettingsReachTheServer runs serve from a config file and the environment only, and checks the
// server it starts uses them: it listens where the file says and with the environment's base URL.
func TestSettingsReachTheServer(t *testing.T) {
	clearSettingsEnv(t)
	port := freePort(t)
	file := writeConfig(t, "addr: 127.0.0.1:"+port+"\nstore: sqlite:"+filepath.Join(t.TempDir(), "c.db")+"\n")
	t.Setenv("CONTACTSYNC_CONFIG", file)
	t.Setenv("CONTACTSYNC_BASE_URL", "https://contacts.example.com")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		cmd := newRootCommand()
		cmd.SetArgs([]string{"serve"})
		cmd.SetErr(&strings.Builder{})
		done <- cmd.ExecuteContext(ctx)
	}()
	var body string
	require.Eventually(t, func() bool {
		var err error
		body, err = getText("http://127.0.0.1:" + port + "/contactsync/v1/sync.asmx?WSDL")
		return err == nil
	}, 10*time.Second, 20*time.Millisecond)
	assert.Contains(t, body, `targetNamespace="https://contacts.example.com/contactsync/v1/"`)
	cancel()
	require.NoError(t, <-done)
}

// getText returns the body of a 200 response to GET url.
func getText(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return string(body), err
}

// TestDocsListEverySetting keeps the settings tables of docs/ true: every setting of every command is
// in one of them with its environment variable.
func TestDocsListEverySetting(t *testing.T) {
	t.Parallel() // no t.Setenv, no process-wide state: runs beside the other parallel tests
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var docs strings.Builder
	for _, f := range files {
		body, err := os.ReadFile(f)
		require.NoError(t, err)
		docs.Write(body)
	}
	root := newRootCommand()
	for _, cmd := range root.Commands() {
		list, ok := cmd.Annotations[settingsAnnotation]
		if !ok {
			continue
		}
		for _, name := range append(strings.Split(list, ","), configFlag) {
			row := regexp.MustCompile("(?m)^\\| [^|]*`--" + regexp.QuoteMeta(name) + "`[^|]*\\| [^|]*`" + envName(name) + "`")
			if !row.MatchString(docs.String()) {
				t.Errorf("docs/ has no settings table row for %s --%s with %s", cmd.Name(), name, envName(name))
			}
		}
	}
}
