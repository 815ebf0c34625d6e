package main

import (
	"fmt"
	"runtime/debug"

	"github.com/contactsync/contactsync/server/service"
	"github.com/spf13/cobra"
)

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the service version and build information",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			build := "unknown"
			if info, ok := debug.ReadBuildInfo(); ok {
				build = info.Main.Version + " " + info.GoVersion
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "contactsync service version %s (build %s)\n", service.Version, build)
			return err
		},
	}
}
