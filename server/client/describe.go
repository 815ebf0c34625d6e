package client

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Description is what a service says of itself at ?WSDL that a client needs: its namespace and the
// address of each binding it offers.
type Description struct {
	// Namespace is the WSDL's targetNamespace, the namespace of every action and element.
	Namespace string
	// Addresses holds the address of each binding the WSDL has a port for; the JSON endpoint, which
	// WSDL does not describe, is at the SOAP 1.1 port's address.
	Addresses map[Binding]string
}

// NoDescriptionError is Describe's error when the service answered but served no WSDL (its
// documentation protocol is off, or the URL is not the service's), as opposed to not answering.
type NoDescriptionError struct {
	URL    string
	Status string
	Body   string
}

func (e *NoDescriptionError) Error() string {
	msg := e.URL + " answered " + e.Status
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// Describe reads the WSDL the service at endpoint serves (endpoint + "?WSDL") through hc, sending
// HTTP Basic credentials when user is not empty (a service may protect its documents). A service that
// answers with anything but a WSDL gives a *NoDescriptionError; 401 is reported as such, since
// falling back would only fail again.
func Describe(ctx context.Context, hc *http.Client, endpoint, user, password string) (*Description, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	u := endpoint + "?WSDL"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", u, err)
	}
	if resp.StatusCode == http.StatusUnauthorized {
		return nil, fmt.Errorf("%s answered %s: the service's documents need credentials; pass --user", u, resp.Status)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &NoDescriptionError{URL: u, Status: resp.Status, Body: firstLine(body)}
	}
	d, err := parseDescription(body)
	if err != nil {
		return nil, &NoDescriptionError{URL: u, Status: resp.Status + " with no WSDL (" + err.Error() + ")"}
	}
	return d, nil
}

// firstLine returns the first line of a short answer, for a message.
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// wsdlDocument is the part of a WSDL 1.1 document Describe reads.
type wsdlDocument struct {
	XMLName         xml.Name `xml:"http://schemas.xmlsoap.org/wsdl/ definitions"`
	TargetNamespace string   `xml:"targetNamespace,attr"`
	Bindings        []struct {
		Name   string    `xml:"name,attr"`
		SOAP   *struct{} `xml:"http://schemas.xmlsoap.org/wsdl/soap/ binding"`
		SOAP12 *struct{} `xml:"http://schemas.xmlsoap.org/wsdl/soap12/ binding"`
		HTTP   *struct {
			Verb string `xml:"verb,attr"`
		} `xml:"http://schemas.xmlsoap.org/wsdl/http/ binding"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ binding"`
	Services []struct {
		Ports []struct {
			Binding string  `xml:"binding,attr"`
			SOAP    address `xml:"http://schemas.xmlsoap.org/wsdl/soap/ address"`
			SOAP12  address `xml:"http://schemas.xmlsoap.org/wsdl/soap12/ address"`
			HTTP    address `xml:"http://schemas.xmlsoap.org/wsdl/http/ address"`
		} `xml:"http://schemas.xmlsoap.org/wsdl/ port"`
	} `xml:"http://schemas.xmlsoap.org/wsdl/ service"`
}

type address struct {
	Location string `xml:"location,attr"`
}

// parseDescription reads a WSDL's namespace and, for each port, which binding it offers (by the
// binding's extension element: soap:binding, soap12:binding, http:binding with its verb) and where.
func parseDescription(doc []byte) (*Description, error) {
	var w wsdlDocument
	if err := xml.Unmarshal(doc, &w); err != nil {
		return nil, err
	}
	if w.TargetNamespace == "" {
		return nil, errors.New("the WSDL has no targetNamespace")
	}
	kinds := map[string]Binding{} // binding name -> what it is
	for _, b := range w.Bindings {
		switch {
		case b.SOAP != nil:
			kinds[b.Name] = SOAP11
		case b.SOAP12 != nil:
			kinds[b.Name] = SOAP12
		case b.HTTP != nil && strings.EqualFold(b.HTTP.Verb, http.MethodGet):
			kinds[b.Name] = HTTPGet
		case b.HTTP != nil && strings.EqualFold(b.HTTP.Verb, http.MethodPost):
			kinds[b.Name] = HTTPPost
		}
	}
	d := &Description{Namespace: w.TargetNamespace, Addresses: map[Binding]string{}}
	for _, s := range w.Services {
		for _, p := range s.Ports {
			_, local, _ := strings.Cut(p.Binding, ":") // a QName; binding names are unique in one WSDL
			if local == "" {
				local = p.Binding
			}
			kind, ok := kinds[local]
			if !ok {
				continue
			}
			if loc := p.SOAP.Location + p.SOAP12.Location + p.HTTP.Location; loc != "" {
				d.Addresses[kind] = loc
			}
		}
	}
	if a, ok := d.Addresses[SOAP11]; ok {
		d.Addresses[JSON] = a
	}
	return d, nil
}
