package docs

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"strings"

	"github.com/contactsync/contactsync/server/binding"
)

// WSDL namespaces that decide which protocol a wsdl:binding is.
const (
	nsWSDL       = "http://schemas.xmlsoap.org/wsdl/"
	nsWSDLSOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/"
	nsWSDLSOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/"
	nsWSDLHTTP   = "http://schemas.xmlsoap.org/wsdl/http/"
)

// wsdlComponent is a top-level component of the contract, or a port, with its byte range.
type wsdlComponent struct {
	kind, name string
	start, end int
	// refs are the local names it refers to: a binding's portType, a port's binding, a portType's
	// messages.
	refs []string
	// protocol is a binding's: soap11, soap12, get or post.
	protocol string
	// headers are the messages a binding's soap:header and soap12:header elements name.
	headers []string
}

// contractFor returns the contract without the bindings of the protocols p disables, their ports, and
// the portTypes and messages only those bindings used (a message is used by a portType, or by a
// binding's soap:header), so a client importing it sees exactly what is
// served; everything kept stays byte for byte. The schema is kept whole: global elements no binding
// uses any more are harmless.
func contractFor(doc []byte, p binding.Protocols) []byte {
	enabled := map[string]bool{"soap11": p.SOAP11, "soap12": p.SOAP12, "get": p.Get, "post": p.Post}
	comps := wsdlComponents(doc)
	dropped := map[string]bool{} // kind + " " + name
	for _, c := range comps {
		if c.kind == "binding" && !enabled[c.protocol] {
			dropped["binding "+c.name] = true
		}
	}
	used := func(kind string, name string, by string) bool {
		for _, c := range comps {
			if c.kind == by && !dropped[by+" "+c.name] && slices.Contains(c.refs, name) {
				return true
			}
		}
		return false
	}
	var cut [][2]int
	for _, c := range comps {
		drop := false
		switch c.kind {
		case "binding":
			drop = dropped["binding "+c.name]
		case "port":
			drop = dropped["binding "+c.refs[0]]
		case "portType":
			drop = !used("portType", c.name, "binding")
			if drop {
				dropped["portType "+c.name] = true
			}
		}
		if drop {
			cut = append(cut, [2]int{c.start, c.end})
		}
	}
	headerUsed := func(name string) bool { // by a SOAP header of a binding kept
		for _, c := range comps {
			if c.kind == "binding" && !dropped["binding "+c.name] && slices.Contains(c.headers, name) {
				return true
			}
		}
		return false
	}
	for _, c := range comps {
		if c.kind == "message" && !used("message", c.name, "portType") && !headerUsed(c.name) {
			cut = append(cut, [2]int{c.start, c.end})
		}
	}
	if len(cut) == 0 {
		return doc
	}
	slices.SortFunc(cut, func(a, b [2]int) int { return a[0] - b[0] })
	var out []byte
	last := 0
	for _, r := range cut {
		start := r[0]
		// Take the indentation and the line break before the element too, so no blank line remains.
		for start > last && (doc[start-1] == ' ' || doc[start-1] == '\t') {
			start--
		}
		if start > last && doc[start-1] == '\n' {
			start--
		}
		out = append(out, doc[last:start]...)
		last = r[1]
	}
	return append(out, doc[last:]...)
}

// wsdlComponents lists the messages, portTypes, bindings and ports of a WSDL 1.1 document.
func wsdlComponents(doc []byte) []wsdlComponent {
	d := xml.NewDecoder(bytes.NewReader(doc))
	var comps []wsdlComponent
	var cur *wsdlComponent // the component being read (top level, or a port)
	depth := 0
	local := func(qname string) string {
		if _, l, ok := strings.Cut(qname, ":"); ok {
			return l
		}
		return qname
	}
	attr := func(t xml.StartElement, name string) string {
		for _, a := range t.Attr {
			if a.Name.Space == "" && a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	for {
		start := int(d.InputOffset())
		tok, err := d.Token()
		if err == io.EOF || err != nil {
			return comps
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth == 2 && t.Name.Space == nsWSDL && (t.Name.Local == "message" || t.Name.Local == "portType" || t.Name.Local == "binding"):
				comps = append(comps, wsdlComponent{kind: t.Name.Local, name: attr(t, "name"), start: start})
				cur = &comps[len(comps)-1]
				if t.Name.Local == "binding" {
					cur.refs = []string{local(attr(t, "type"))}
				}
			case depth == 3 && t.Name.Space == nsWSDL && t.Name.Local == "port":
				comps = append(comps, wsdlComponent{kind: "port", name: attr(t, "name"), start: start, refs: []string{local(attr(t, "binding"))}})
				cur = &comps[len(comps)-1]
			case depth == 3 && cur != nil && cur.kind == "binding":
				switch t.Name.Space {
				case nsWSDLSOAP11:
					cur.protocol = "soap11"
				case nsWSDLSOAP12:
					cur.protocol = "soap12"
				case nsWSDLHTTP:
					if t.Name.Local == "binding" {
						cur.protocol = strings.ToLower(attr(t, "verb"))
					}
				}
			case cur != nil && cur.kind == "binding" && (t.Name.Space == nsWSDLSOAP11 || t.Name.Space == nsWSDLSOAP12) &&
				(t.Name.Local == "header" || t.Name.Local == "headerfault") && attr(t, "message") != "":
				cur.headers = append(cur.headers, local(attr(t, "message")))
			case cur != nil && cur.kind == "portType" && t.Name.Space == nsWSDL && attr(t, "message") != "":
				cur.refs = append(cur.refs, local(attr(t, "message")))
			}
		case xml.EndElement:
			if cur != nil && ((depth == 2 && cur.kind != "port") || (depth == 3 && cur.kind == "port")) {
				cur.end = int(d.InputOffset())
				cur = nil
			}
			depth--
		}
	}
}
