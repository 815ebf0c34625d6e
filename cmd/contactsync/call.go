package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
	"github.com/contactsync/contactsync/server/wire"
	"github.com/contactsync/contactsync/server/wire/xmlwire"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/spf13/cobra"
)

type callOptions struct {
	id         string
	params     []string
	paramFiles []string
	binding    string
	url        string
	baseURL    string
	timeout    time.Duration
	// conn holds how call reaches and authenticates to the service (call_client.go).
	conn callConnection

	// headers are the --header flags, soapHeaders the blocks read from them (call_headers.go).
	headers     []string
	soapHeaders wire.HeaderAppender
}

func newCallCommand() *cobra.Command {
	var opts callOptions
	cmd := &cobra.Command{
		Use:   "call OPERATION",
		Short: "Call an operation of a running service and print the result as XML",
		Long: "Call one operation over the chosen binding through the generated operation table and print\n" +
			"the response as XML. Parameters are given by name: --param name=value for a simple type (its\n" +
			"XSD lexical form), repeated for each item of an array of a simple type (--param ids=a --param\n" +
			"ids=b), --param-file name=FILE for a complex one (FILE holds its XML element). A SOAP header\n" +
			"the operation reads is given as --header Header.Field=value (SOAP bindings only); the headers\n" +
			"of the answer are printed above the result, as a soap:Header element. The exit\n" +
			"status is non-zero when the service answers with a fault or an error status.\n\n" +
			"The namespace and the binding's address come from the service's own ?WSDL (read with the same\n" +
			"credentials), as a client generated from it would have them; --base-url overrides the namespace\n" +
			"and then --url is called as given. When the service serves no ?WSDL (--protocols without docs),\n" +
			"call says so and uses the namespace of --base-url's default, " + wsdl.DefaultBaseURL + ".\n\n" +
			"--user NAME authenticates with HTTP Basic, or with --ws-security with a WS-Security UsernameToken:\n" +
			"a PasswordDigest (--ws-security or --ws-security=digest; the user needs `contactsync user add\n" +
			"--digest`) or a PasswordText (--ws-security=text; any user, the password itself, so over https\n" +
			"only). The password comes from\n" +
			"--password-file, else " + passwordEnv + ", else a prompt on the terminal, never from the command line.\n\n" +
			"Operations: " + strings.Join(operationNames(), ", "),
		Example: callExamples(gen.Operations),
		Args:    oneArg("OPERATION", "the name of the operation to call ("+strings.Join(operationNames(), ", ")+")"),
		RunE: func(cmd *cobra.Command, args []string) error {
			op := wire.Lookup(gen.Operations, args[0])
			if op == nil {
				return fmt.Errorf("unknown operation %q; operations are: %s", args[0], strings.Join(operationNames(), ", "))
			}
			// The parameters are read (and checked against their XSD types) before anything is sent; the
			// namespace they are read in is the request document's own, whatever the service's.
			req, err := callRequest(op, wsdl.DefaultNamespace, &opts)
			if err != nil {
				return err
			}
			if opts.soapHeaders, err = callHeaders(op, wsdl.DefaultNamespace, client.Binding(opts.binding), opts.headers); err != nil {
				return err
			}
			return runCall(cmd, op, req, &opts)
		},
	}
	cmd.Flags().StringVar(&opts.id, "id", "", "shorthand for --param NAME=VALUE of an operation with a single parameter (the contact operations' id)")
	cmd.Flags().StringArrayVar(&opts.params, "param", nil, "a parameter as name=value (repeatable; repeated for the items of an array)")
	cmd.Flags().StringArrayVar(&opts.paramFiles, "param-file", nil, "a complex parameter as name=FILE, FILE holding its XML element (repeatable)")
	cmd.Flags().StringArrayVar(&opts.headers, "header", nil, "a field of a SOAP header the operation reads, as Header.Field=value (repeatable; SOAP bindings only)")
	cmd.Flags().StringVar(&opts.binding, "binding", string(client.SOAP11), "soap11, soap12, get, post or json (the JSON endpoint, when the service enables it)")
	cmd.Flags().StringVar(&opts.url, "url", wsdl.DefaultAddress, "service endpoint URL; its ?WSDL gives the namespace and the binding's address")
	cmd.Flags().DurationVar(&opts.timeout, "timeout", 30*time.Second, "time limit for the call")
	cmd.Flags().StringVar(&opts.baseURL, "base-url", "", "the --base-url the service was started with, fixing the namespace; default: the namespace of the service's ?WSDL")
	connectionFlags(cmd, &opts.conn) // call_client.go
	// Only the endpoint, namespace and connection are settings; the operation's arguments belong to
	// each call.
	return bindSettings(cmd, "url", "base-url", "user", "password-file", "ca-cert")
}

// callRequest builds op's request from the command line: the parameters become the children of the
// request wrapper, in the table's order, and the generated decoder reads them, so a value is checked
// against its XSD type before anything is sent.
func callRequest(op *wire.Operation, ns string, opts *callOptions) (wire.Message, error) {
	given := map[string]string{} // name -> the element's XML
	set := func(name, element string) error {
		if wire.LookupField(op.Params, name) == nil {
			var names []string
			for _, p := range op.Params {
				names = append(names, p.Name)
			}
			return fmt.Errorf("%s has no parameter %q (parameters: %s)", op.Name, name, strings.Join(names, ", "))
		}
		if _, dup := given[name]; dup {
			return fmt.Errorf("the parameter %s is given more than once", name)
		}
		given[name] = element
		return nil
	}
	if opts.id != "" {
		if len(op.Params) != 1 {
			return nil, fmt.Errorf("--id is shorthand for an operation with a single parameter; %s has %d: use --param", op.Name, len(op.Params))
		}
		opts.params = append(opts.params, op.Params[0].Name+"="+opts.id)
	}
	items := map[string][]string{} // an array parameter's items, from repeated --param name=value
	for _, p := range opts.params {
		name, value, ok := strings.Cut(p, "=")
		if !ok {
			return nil, fmt.Errorf("--param %q: want name=value", p)
		}
		f := wire.LookupField(op.Params, name)
		if f != nil && f.Type.Kind == wire.KindArray && f.Type.Item.Type.Kind.Simple() {
			items[name] = append(items[name], value)
			continue
		}
		if f != nil && !f.Type.Kind.Simple() {
			return nil, fmt.Errorf("--param %s: the parameter is of the complex type %s; use --param-file %s=FILE", name, f.Type.Name, name)
		}
		element := string(xmlwire.AppendString(nil, name, value))
		if err := set(name, element); err != nil {
			return nil, err
		}
	}
	for _, f := range op.Params { // in the table's order, so the request is the same whatever the flags' order
		if values, ok := items[f.Name]; ok {
			element := xmlwire.AppendStart(nil, f.Name)
			for _, v := range values {
				element = xmlwire.AppendString(element, f.Type.Item.Name, v)
			}
			if err := set(f.Name, string(xmlwire.AppendEnd(element, f.Name))); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range opts.paramFiles {
		name, file, ok := strings.Cut(p, "=")
		if !ok {
			return nil, fmt.Errorf("--param-file %q: want name=FILE", p)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--param-file %s: %w", name, err)
		}
		if err := set(name, string(data)); err != nil {
			return nil, err
		}
	}
	doc := `<` + op.RequestElement + ` xmlns="` + string(xmlwire.AppendEscaped(nil, cmp.Or(op.RequestNamespace, ns))) + `">`
	for _, p := range op.Params {
		doc += given[p.Name]
	}
	doc += `</` + op.RequestElement + `>`
	rd := xmlwire.NewReader([]byte(doc), ns, xmlwire.Limits{MaxDepth: 64, MaxElements: 1 << 20}, false)
	if _, err := rd.Root(); err != nil {
		return nil, fmt.Errorf("reading the parameters: %w", err)
	}
	req := op.NewRequest()
	if err := req.DecodeXML(rd); err != nil {
		return nil, fmt.Errorf("reading the parameters: %w", err)
	}
	if err := rd.End(); err != nil {
		return nil, errors.New("a --param-file holds more than one element")
	}
	return req, nil
}
