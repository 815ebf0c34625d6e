// Command breakproxy is the interop suite's deliberate contract break: a loopback reverse proxy in
// front of the service that passes the contract (?WSDL) through unchanged but rewrites one string in
// every other response body, by default the service namespace, so responses arrive in a namespace
// the clients' proxies were not generated for. `tools/interop/run.sh --break-namespace` runs the
// clients through it to show that the suite fails when the server breaks the contract.
//
//	breakproxy -listen 127.0.0.1:PORT -target http://127.0.0.1:PORT -from OLD -to NEW
package main

import (
	"bytes"
	"flag"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "loopback address to listen on")
	target := flag.String("target", "", "URL of the service, e.g. http://127.0.0.1:8080")
	from := flag.String("from", "http://localhost:8080/contactsync/v1/", "string to replace in responses")
	to := flag.String("to", "http://localhost:8080/contactsync/broken/", "replacement")
	flag.Parse()

	u, err := url.Parse(*target)
	if err != nil || u.Host == "" {
		log.Fatalf("breakproxy: -target %q is not a URL", *target)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(resp *http.Response) error {
		if isContractRequest(resp.Request) {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		body = bytes.ReplaceAll(body, []byte(*from), []byte(*to))
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("breakproxy: %v", err)
	}
	// run.sh reads the port from this line.
	log.Printf("breakproxy listening addr=%s target=%s, replacing %q with %q in responses",
		l.Addr(), *target, *from, *to)
	srv := &http.Server{Handler: rp, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(l))
}

// isContractRequest reports whether r asks for the WSDL (?WSDL, any case), which passes unchanged.
func isContractRequest(r *http.Request) bool {
	for k := range r.URL.Query() {
		if strings.EqualFold(k, "wsdl") {
			return true
		}
	}
	return false
}
