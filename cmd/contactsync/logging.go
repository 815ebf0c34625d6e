package main

import (
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/server/observe/accesslog"
	"github.com/spf13/cobra"
)

// logOptions selects the shape and verbosity of serve's log.
type logOptions struct {
	format choice
	level  choice
	// levelVar, when set, is set to level and becomes the level of the logger and the access lines,
	// so that serve's reload can change it; nil: the level is fixed.
	levelVar *slog.LevelVar
}

// logFlags registers --log-format and --log-level. Both are choices, so a value outside the list fails
// when it is parsed, from the command line, the environment or the config file alike.
func logFlags(cmd *cobra.Command, o *logOptions) {
	o.format = choice{value: "text", allowed: []string{"text", "json"}}
	o.level = choice{value: "info", allowed: []string{"debug", "info", "warn", "error"}}
	cmd.Flags().Var(&o.format, "log-format", "log format: "+o.format.list())
	cmd.Flags().Var(&o.level, "log-level", "least severe level logged: "+o.level.list()+"; a reload (SIGHUP) applies a changed one")
}

// newLogger builds the logger o describes, writing to w.
func newLogger(w io.Writer, o logOptions) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.level.value)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	handlerOptions := &slog.HandlerOptions{Level: level}
	if o.levelVar != nil {
		o.levelVar.Set(level)
		handlerOptions.Level = o.levelVar
	}
	switch o.format.value {
	case "text":
		return slog.New(slog.NewTextHandler(w, handlerOptions)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, handlerOptions)), nil
	}
	return nil, fmt.Errorf("--log-format %q: must be %s", o.format.value, o.format.list())
}

// newAccessLog builds the access line writer matching newLogger(w, o): the same destination, format
// and level, so its lines are exactly the ones the logger would write. It assumes o was accepted by
// newLogger.
func newAccessLog(w io.Writer, o logOptions) *accesslog.Writer {
	var level slog.Level
	_ = level.UnmarshalText([]byte(o.level.value)) // newLogger has refused a bad level
	format := accesslog.Text
	if o.format.value == "json" {
		format = accesslog.JSON
	}
	if o.levelVar != nil {
		return accesslog.New(w, format, o.levelVar)
	}
	return accesslog.New(w, format, level)
}

// choice is a pflag.Value holding one of a fixed list of words.
type choice struct {
	value   string
	allowed []string
}

func (c *choice) String() string { return c.value }
func (c *choice) Type() string   { return "string" }

func (c *choice) Set(v string) error {
	if !slices.Contains(c.allowed, v) {
		return fmt.Errorf("must be %s", c.list())
	}
	c.value = v
	return nil
}

// list renders the allowed words for help and errors: "text or json", "a, b or c".
func (c *choice) list() string {
	if len(c.allowed) == 1 {
		return c.allowed[0]
	}
	return strings.Join(c.allowed[:len(c.allowed)-1], ", ") + " or " + c.allowed[len(c.allowed)-1]
}
