package docs

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Addressing decides the endpoint address written into the WSDL, the DISCO document and the help
// pages. The namespace is not an address: it stays the base URL's.
type Addressing struct {
	// PublicURL, when set, fixes the address: PublicURL (scheme, host, port and an optional path
	// prefix a proxy adds) followed by the endpoint path, whatever the request says. Set it behind a
	// proxy or CDN, or wherever a shared cache may keep the documents.
	PublicURL string
	// TrustedProxies are the peers whose X-Forwarded-Proto and X-Forwarded-Host are believed; from
	// any other peer they are ignored. Empty means none: the address follows the request's own
	// scheme and Host.
	TrustedProxies []netip.Prefix
}

// addresser is an Addressing made ready for requests.
type addresser struct {
	fixed   string // the address from PublicURL; "" when the address follows each request
	path    string // the endpoint path
	trusted []netip.Prefix
}

// newAddresser prepares a for the endpoint at path.
func newAddresser(a Addressing, path string) (*addresser, error) {
	ad := &addresser{trusted: a.TrustedProxies, path: path}
	if a.PublicURL != "" {
		if err := CheckPublicURL(a.PublicURL); err != nil {
			return nil, err
		}
		ad.fixed = strings.TrimRight(a.PublicURL, "/") + path
	}
	return ad, nil
}

// CheckPublicURL reports whether s can be a PublicURL: an absolute http or https URL without user,
// query or fragment (a path, which a proxy may add in front of the endpoint's, is allowed).
func CheckPublicURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Opaque != "" || !isPlainHost(u.Host) {
		return fmt.Errorf("public URL %q must be an absolute http or https URL without user, query or fragment", s)
	}
	return nil
}

// ParseTrustedProxies parses a list of CIDR prefixes or single addresses (a /32 or /128).
func ParseTrustedProxies(values []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if p, err := netip.ParsePrefix(v); err == nil {
			out = append(out, p.Masked())
			continue
		}
		addr, err := netip.ParseAddr(v)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR prefix (10.0.0.0/8) nor an IP address", v)
		}
		out = append(out, netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()))
	}
	return out, nil
}

// trusts reports whether the request came straight from a trusted proxy.
func (a *addresser) trusts(r *http.Request) bool {
	if len(a.trusted) == 0 {
		return false
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	addr := ap.Addr().Unmap()
	for _, p := range a.trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// requestAddress is the endpoint URL written into the documents: PublicURL's when set; otherwise
// scheme and host from the request, or from X-Forwarded-Proto and X-Forwarded-Host when a trusted
// proxy sent it. Values that are not a plain scheme or host are ignored rather than echoed into the
// document.
func (a *addresser) requestAddress(r *http.Request) string {
	if a.fixed != "" {
		return a.fixed
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if a.trusts(r) {
		if p := firstValue(r.Header.Get("X-Forwarded-Proto")); p == "http" || p == "https" {
			scheme = p
		}
		if fh := firstValue(r.Header.Get("X-Forwarded-Host")); fh != "" && isPlainHost(fh) {
			host = fh
		}
	}
	if !isPlainHost(host) {
		host = "localhost"
	}
	return scheme + "://" + host + a.path
}

// The header values below are shared and never modified, so setting them allocates nothing.
var (
	headerPrivate     = []string{"private"}
	headerVaryAddress = []string{"Host, X-Forwarded-Host, X-Forwarded-Proto"}
)

// documentHeaders marks a document (WSDL, DISCO, help page) whose addresses follow the request as
// such for caches: private, so a shared cache does not hand one client's addresses to another, and
// varying with the headers the addresses come from. With PublicURL the documents are the same for
// everyone and are left cacheable.
func (a *addresser) documentHeaders(w http.ResponseWriter) {
	if a.fixed != "" {
		return
	}
	hdr := w.Header()
	hdr["Cache-Control"] = headerPrivate
	hdr["Vary"] = headerVaryAddress
}

// firstValue is the first of a header's comma-separated values, trimmed and in lower case.
func firstValue(header string) string {
	v, _, _ := strings.Cut(header, ",")
	return strings.ToLower(strings.TrimSpace(v))
}

// isPlainHost reports whether h is a host[:port] and nothing more: a DNS name, an IPv4 address or a
// bracketed IPv6 address, with an optional port. url.Parse alone is too lenient (it accepts quotes and
// angle brackets in a host), so the characters are checked first.
func isPlainHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-.:[]", r)) {
			return false
		}
	}
	u, err := url.Parse("http://" + h)
	return err == nil && u.Host == h && u.Path == "" && u.RawQuery == "" && u.User == nil
}
