// Command writer is the data benchmark's write load and its check. `writer -mode write` creates
// contacts through a running service (TestCreateContact, over SOAP 1.1) from several goroutines until
// it is stopped, appending each id to the -acks file once the service acknowledged it, so that the
// first K lines of the file are writes acknowledged before the moment the file had K lines. `writer
// -mode verify -n K` reads the first K ids of the file back from a service (the one serving the
// restored backup) and fails if any is missing.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
)

func main() {
	mode := flag.String("mode", "write", "write or verify")
	endpoint := flag.String("endpoint", "http://127.0.0.1:8080"+gen.Contract.Path, "service endpoint")
	acks := flag.String("acks", "", "file of acknowledged ids (write: appended; verify: read)")
	workers := flag.Int("c", 4, "concurrent writers or readers")
	prefix := flag.String("prefix", "w", "id prefix of the written contacts")
	n := flag.Int("n", 0, "verify: how many ids from the start of -acks to check")
	flag.Parse()
	if *acks == "" {
		log.Fatal("writer: -acks is required")
	}
	switch *mode {
	case "write":
		write(*endpoint, *acks, *prefix, *workers)
	case "verify":
		verify(*endpoint, *acks, *n, *workers)
	default:
		log.Fatalf("writer: unknown -mode %q", *mode)
	}
}

func write(endpoint, acks, prefix string, workers int) {
	f, err := os.OpenFile(acks, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var (
		mu   sync.Mutex
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: gen.Contract.Namespace}}
			for ctx.Err() == nil {
				id := fmt.Sprintf("%s%09d", prefix, next.Add(1))
				if _, err := c.TestCreateContactContext(ctx, &gen.TestCreateContact{Id: id}); err != nil {
					if ctx.Err() == nil {
						log.Printf("writer: create %s: %v", id, err)
					}
					continue // not acknowledged: not recorded
				}
				mu.Lock()
				// One write per id, so a reader counting lines sees only whole acknowledged ids.
				_, err := f.WriteString(id + "\n")
				mu.Unlock()
				if err != nil {
					log.Fatal(err)
				}
			}
		})
	}
	wg.Wait()
}

func verify(endpoint, acks string, n, workers int) {
	f, err := os.Open(acks)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	ids := make(chan string)
	var missing, checked atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			c := &gen.SyncServiceSoapClient{Invoker: &client.Client{Endpoint: endpoint, Namespace: gen.Contract.Namespace}}
			for id := range ids {
				if _, err := c.ReadContact(&gen.ReadContact{Id: id}); err != nil {
					missing.Add(1)
					log.Printf("writer: acknowledged %s, not in the restored store: %v", id, err)
				}
				checked.Add(1)
			}
		})
	}
	sc := bufio.NewScanner(f)
	for i := 0; i < n && sc.Scan(); i++ {
		ids <- sc.Text()
	}
	close(ids)
	wg.Wait()
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("verified %d acknowledged writes: %d missing\n", checked.Load(), missing.Load())
	if missing.Load() > 0 || checked.Load() < int64(n) {
		os.Exit(1)
	}
}
