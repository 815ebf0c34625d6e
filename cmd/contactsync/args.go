package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// Positional arguments are checked by these rather than cobra's NoArgs and ExactArgs, whose messages
// ("accepts 1 arg(s), received 0", `unknown command "x"`) do not say what the command wanted.

// noArgs refuses any positional argument: every input of the command is a flag.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return fmt.Errorf("%s takes no arguments, but was given %q; its inputs are flags (see %s --help)",
		cmd.CommandPath(), strings.Join(args, " "), cmd.CommandPath())
}

// oneArg returns the check of a command taking exactly one positional argument, called name in its
// usage line and described by what ("the user's name"), e.g. "user add needs NAME, the user's name".
func oneArg(name, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return fmt.Errorf("%s needs %s, %s: %s (see %s --help)", cmd.CommandPath(), name, what, cmd.UseLine(), cmd.CommandPath())
		case len(args) > 1:
			return fmt.Errorf("%s takes one %s, %s, but was given %d: %q (see %s --help)",
				cmd.CommandPath(), name, what, len(args), strings.Join(args, " "), cmd.CommandPath())
		}
		return nil
	}
}
