// Package hostile makes the request bodies an attacker would send to exhaust the XML parser: 1 MiB
// SOAP 1.1 envelopes of each shape issue 14 found expensive. The SOAP binding's tests and the
// handler's tests and benchmarks share them. It imports only the standard library.
package hostile

import (
	"bytes"
	"strconv"
	"strings"
)

// Size is the length of every body: the default --max-body-bytes.
const Size = 1 << 20

const envelopeNS = "http://schemas.xmlsoap.org/soap/envelope/"

// Bodies returns the hostile bodies by shape (attributes, namespace declarations, a 1 MB name,
// comments, processing instructions, CDATA sections, one long comment), each in a SOAP 1.1 envelope
// whose operation element is op (the caller's: this package names no operation of the contract) in
// namespace ns.
func Bodies(ns, op string) map[string][]byte {
	// fill repeats unit (with N replaced by a counter, so names differ) between prefix and suffix
	// until the body is Size bytes.
	fill := func(prefix, unit, suffix string) []byte {
		var b bytes.Buffer
		b.WriteString(`<soap:Envelope xmlns:soap="` + envelopeNS + `"><soap:Body>` + prefix)
		end := suffix + `</soap:Body></soap:Envelope>`
		for i := 0; ; i++ {
			u := strings.ReplaceAll(unit, "N", strconv.Itoa(i))
			if b.Len()+len(u)+len(end) > Size {
				break
			}
			b.WriteString(u)
		}
		b.WriteString(end)
		return b.Bytes()
	}
	return map[string][]byte{
		"attributes":  fill(`<`+op+` xmlns="`+ns+`"`, ` aN="1"`, `/>`),
		"namespaces":  fill(`<`+op+` xmlns="`+ns+`"`, ` xmlns:pN="u"`, `/>`),
		"name":        fill(`<`+op, `x`, `/>`),
		"comments":    fill(``, `<!--c-->`, ``),
		"pis":         fill(``, `<?p x?>`, ``),
		"cdata":       fill(`<`+op+` xmlns="`+ns+`">`, `<![CDATA[x]]>`, `</`+op+`>`),
		"one comment": fill(`<!--`, `x`, `-->`),
	}
}
