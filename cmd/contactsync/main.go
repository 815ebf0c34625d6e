// Command contactsync runs and calls the Contact Synchronization Service.
//
//	contactsync serve               run the service (SQLite store by default)
//	contactsync call OP --id X      call an operation over any binding
//	contactsync wsdl                print the contract for a base URL
//	contactsync version             print the service version
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCommand().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "contactsync:", err)
		os.Exit(1)
	}
}
