package main

import (
	"strings"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/spf13/cobra"
)

type wsdlOptions struct {
	baseURL string
	address string
}

func newWSDLCommand() *cobra.Command {
	var opts wsdlOptions
	cmd := &cobra.Command{
		Use:   "wsdl",
		Short: "Print the service contract (WSDL) for a base URL",
		Long: "Print the WSDL a server started with the same --base-url serves at ?WSDL. Port addresses are\n" +
			"<base-url>" + wsdl.Path + " unless --address says otherwise.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			address := opts.address
			if address == "" {
				address = strings.TrimRight(opts.baseURL, "/") + wsdl.Path
			}
			doc, err := server.Contract(gen.Contract, opts.baseURL, address)
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(doc)
			return err
		},
	}
	baseURLFlag(cmd, &opts.baseURL)
	cmd.Flags().StringVar(&opts.address, "address", "", "address of every port (default <base-url>"+wsdl.Path+")")
	// Only the namespace is a setting, shared with serve; --address is particular to each invocation.
	return bindSettings(cmd, "base-url")
}
