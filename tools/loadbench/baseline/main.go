// Command baseline is the ceiling the load benchmark compares contactsync with: a minimal net/http
// server that drains each request body and answers with canned bytes (the exact response contactsync
// gave to the same request, captured by tools/loadbench/run.sh), without parsing, dispatch or storage.
// Whatever contactsync does beyond this is the cost of the service itself.
package main

import (
	"flag"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18182", "address to listen on")
	bodyFile := flag.String("body", "", "file holding the response body to send")
	contentType := flag.String("content-type", "text/xml; charset=utf-8", "Content-Type of the response")
	status := flag.Int("status", http.StatusOK, "HTTP status of the response")
	flag.Parse()
	body, err := os.ReadFile(*bodyFile)
	if err != nil {
		log.Fatal(err)
	}
	length := strconv.Itoa(len(body))
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the request as contactsync must, so the comparison includes receiving it.
		_, _ = io.Copy(io.Discard, r.Body)
		h := w.Header()
		h["Content-Type"] = []string{*contentType}
		h["Content-Length"] = []string{length}
		w.WriteHeader(*status)
		_, _ = w.Write(body)
	})
	// The same connection settings as contactsync's server (server.NewHTTPServer's defaults).
	srv := &http.Server{
		Addr:              *addr,
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	log.Fatal(srv.ListenAndServe())
}
