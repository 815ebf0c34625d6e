// Command contactsync runs and calls the Contact Synchronization Service.
//
//	contactsync serve               run the service (SQLite store by default)
//	contactsync migrate             bring the store's schema up to date
//	contactsync backup --to FILE    online, verified backup of a SQLite store
//	contactsync export / import     contacts out of and into a store (JSON Lines, CSV)
//	contactsync copy --to STORE     move every contact to another store, verified
//	contactsync user add NAME       manage the users file that turns authentication on (add, remove, list)
//	contactsync call OP --id X      call an operation over any binding
//	contactsync wsdl                print the contract for a base URL
//	contactsync version             print the service version
//	contactsync health              check that the serve on this host is ready (a container HEALTHCHECK)
//
// The list names every command root.go registers; TestMainDocListsEveryCommand keeps it so.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// The first SIGTERM or SIGINT cancels ctx, which makes serve shut down gracefully. Then the
	// signals get their default action back, so a second Ctrl-C ends a shutdown that takes too long.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	if err := newRootCommand().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "contactsync:", err)
		os.Exit(1)
	}
}
