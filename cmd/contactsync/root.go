package main

import (
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
		// --version prints the same as the version command.
		Version: currentBuild().Version,
	}
	root.SetVersionTemplate(versionTemplate())
	root.AddCommand(newServeCommand(), newMigrateCommand(), newBackupCommand(), newExportCommand(), newImportCommand(), newCopyCommand(), newUserCommand(), newCallCommand(), newWSDLCommand(), newVersionCommand(), newHealthCommand())
	return root
}

// baseURLFlag registers --base-url, shared by serve, call and wsdl so all three agree on the namespace.
func baseURLFlag(cmd *cobra.Command, target *string) {
	cmd.Flags().StringVar(target, "base-url", wsdl.DefaultBaseURL,
		"base URL fixing the service namespace (<base-url>/contactsync/v1/)")
}
