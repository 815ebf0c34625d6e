package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/contactsync/contactsync/server/docs"
)

// addressingOptions are the settings deciding the addresses in the WSDL, DISCO and help pages.
type addressingOptions struct {
	publicURL      string
	trustedProxies []string
}

func addressingFlags(f *pflag.FlagSet, o *addressingOptions) {
	f.StringVar(&o.publicURL, "public-url", "", "URL clients reach the service at (scheme, host, optional path prefix); fixes the addresses in ?WSDL, ?disco and the help pages, which otherwise follow each request")
	f.StringSliceVar(&o.trustedProxies, "trusted-proxies", nil, "CIDR prefixes or addresses of proxies whose X-Forwarded-Host and X-Forwarded-Proto are believed (default none)")
}

// build checks the settings and returns them as the server takes them.
func (o addressingOptions) build() (docs.Addressing, error) {
	if o.publicURL != "" {
		if err := docs.CheckPublicURL(o.publicURL); err != nil {
			return docs.Addressing{}, fmt.Errorf("--public-url: %w", err)
		}
	}
	proxies, err := docs.ParseTrustedProxies(o.trustedProxies)
	if err != nil {
		return docs.Addressing{}, fmt.Errorf("--trusted-proxies: %w", err)
	}
	return docs.Addressing{PublicURL: o.publicURL, TrustedProxies: proxies}, nil
}
