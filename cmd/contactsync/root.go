package main

import (
	"os"
	"strconv"
	"time"

	"github.com/contactsync/contactsync/wsdl"
	"github.com/spf13/cobra"
)

// newRootCommand builds the command tree. Each subcommand has its own constructor and options struct
// so tests can run them in-process.
func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "contactsync",
		Short:         "Contact Synchronization Service: a SOAP 1.1/1.2 and HTTP GET/POST server and client",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newServeCommand(), newMigrateCommand(), newUserCommand(), newCallCommand(), newWSDLCommand(), newVersionCommand())
	return root
}

// envOr returns the environment variable's value, or def when it is unset or empty. Flags take their
// defaults from it, so an explicit flag wins over the environment, which wins over the default.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// envInt64 is envOr for integer flags. A value that does not parse is kept as -1 so validation names
// the setting instead of silently using the default.
func envInt64(name string, def int64) int64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// envDuration is envOr for duration flags; a value that does not parse becomes -1 for the same reason.
func envDuration(name string, def time.Duration) time.Duration {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return -1
	}
	return d
}

// baseURLFlag registers --base-url, shared by serve, call and wsdl so all three agree on the namespace.
func baseURLFlag(cmd *cobra.Command, target *string) {
	cmd.Flags().StringVar(target, "base-url", envOr("CONTACTSYNC_BASE_URL", wsdl.DefaultBaseURL),
		"base URL fixing the service namespace (<base-url>/contactsync/v1/) [env CONTACTSYNC_BASE_URL]")
}
