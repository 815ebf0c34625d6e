// Command gen writes n contacts as JSON Lines to standard output, the input of the data benchmark's
// imports. Contact i has the id fmt.Sprintf("%s%07d", prefix, i) and the data TestCreateContact would
// store for that id, written by the same encoder and record codec export uses, so the file is exactly
// what `contactsync export` would write for such a store.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/transfer"
)

func main() {
	n := flag.Int("n", 1000000, "number of contacts")
	prefix := flag.String("prefix", "c", "id prefix; ids are prefix followed by a 7-digit index")
	flag.Parse()
	enc, err := transfer.NewEncoder(os.Stdout, transfer.JSONL, transfer.Schema(service.Records))
	if err != nil {
		log.Fatal(err)
	}
	for i := range *n {
		if err := enc.Encode(service.ToRecord(service.TestContact(fmt.Sprintf("%s%07d", *prefix, i)))); err != nil {
			log.Fatal(err)
		}
	}
	if err := enc.Flush(); err != nil {
		log.Fatal(err)
	}
}
