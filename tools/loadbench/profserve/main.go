// Command profserve serves contactsync exactly as `contactsync serve` wires it (the same handler,
// SQLite store, limits and http.Server settings) plus net/http/pprof on a second address, so the load
// benchmark can take CPU and allocation profiles under real load (PROFILE=1 tools/loadbench/run.sh).
// The contactsync binary itself carries no profiling endpoint.
package main

import (
	"context"
	"flag"
	"log"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/server/store/sqlite"
	"github.com/contactsync/contactsync/wsdl"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18181", "address of the service")
	pprofAddr := flag.String("pprof", "127.0.0.1:18190", "address of the pprof endpoints")
	path := flag.String("db", "contactsync.db", "SQLite database file")
	flag.Parse()

	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	st, err := sqlite.Open(context.Background(), *path)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	limits := server.DefaultLimits()
	h, err := server.NewHandler(server.NewService(st), server.Config{BaseURL: wsdl.DefaultBaseURL, Limits: limits, Logger: logger})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	go func() { log.Fatal(http.ListenAndServe(*pprofAddr, mux)) }()
	srv := server.NewHTTPServer(h, limits, logger)
	srv.Addr = *addr
	log.Fatal(srv.ListenAndServe())
}
