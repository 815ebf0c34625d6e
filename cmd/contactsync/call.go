package main

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/spf13/cobra"
)

type callOptions struct {
	id      string
	binding string
	url     string
	baseURL string
	timeout time.Duration
}

func newCallCommand() *cobra.Command {
	var opts callOptions
	cmd := &cobra.Command{
		Use:   "call OPERATION",
		Short: "Call an operation of a running service and print the result as XML",
		Long: "Call one operation over the chosen binding through the generated operation interface and print\n" +
			"the response as XML. The exit status is non-zero when the service answers with a fault or an\n" +
			"error status.\n\nOperations: " + strings.Join(server.OperationNames(), ", "),
		Example: "  contactsync call TestCreateContact --id 42\n  contactsync call ReadContact --id 42 --binding soap12\n  contactsync call VersionMinor --binding get",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ns, err := server.Namespace(opts.baseURL)
			if err != nil {
				return fmt.Errorf("--base-url: %w", err)
			}
			c := &client.Client{
				Endpoint:  opts.url,
				Namespace: ns,
				Binding:   client.Binding(opts.binding),
				HTTP:      &http.Client{Timeout: opts.timeout},
			}
			resp, err := client.Invoke(cmd.Context(), c, args[0], opts.id)
			if err != nil {
				return err
			}
			out, err := xml.MarshalIndent(resp, "", "  ")
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", out)
			return err
		},
	}
	cmd.Flags().StringVar(&opts.id, "id", "", "contact id (for the contact operations)")
	cmd.Flags().StringVar(&opts.binding, "binding", string(client.SOAP11), "soap11, soap12, get or post")
	cmd.Flags().StringVar(&opts.url, "url", wsdl.DefaultAddress, "service endpoint URL")
	cmd.Flags().DurationVar(&opts.timeout, "timeout", 30*time.Second, "time limit for the call")
	baseURLFlag(cmd, &opts.baseURL)
	// Only the endpoint and namespace are settings; the operation's arguments belong to each call.
	return bindSettings(cmd, "url", "base-url")
}
