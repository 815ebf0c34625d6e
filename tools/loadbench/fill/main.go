// Command fill creates a contactsync SQLite database holding n contacts, for the load benchmark. It
// lets the store create the schema (sqlite.Open runs the migrations), then inserts every row in one
// transaction with the store's own column layout, which takes seconds where n HTTP requests would
// take minutes. Contact i has the id fmt.Sprintf("%s%07d", prefix, i) and the data TestCreateContact
// would store for that id, so ReadContact answers exactly as for a contact created over the wire.
//
// For a PostgreSQL run (run.sh with STORE=postgres) it also creates and drops the schemas the servers
// use: -pgdsn DSN -create-schema NAME, or -pgdsn DSN -drop-schema NAME. Those schemas are filled by
// each binary's own `contactsync import` of an export of the SQLite database, so a base commit whose
// schema differs still gets a store it can read.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/server/store/sqlite"
)

func main() {
	path := flag.String("db", "", "database file to create (must not exist)")
	n := flag.Int("n", 100000, "number of contacts")
	prefix := flag.String("prefix", "c", "id prefix; ids are prefix followed by a 7-digit index")
	pgDSN := flag.String("pgdsn", "", "PostgreSQL database for -create-schema and -drop-schema")
	createSchema := flag.String("create-schema", "", "create this schema in -pgdsn's database (it must not exist) and exit")
	dropSchema := flag.String("drop-schema", "", "drop this schema, with everything in it, from -pgdsn's database and exit")
	flag.Parse()
	if *createSchema != "" || *dropSchema != "" {
		if err := schema(*pgDSN, *createSchema, *dropSchema); err != nil {
			log.Fatalf("fill: %v", err)
		}
		return
	}
	if *path == "" {
		log.Fatal("fill: -db is required")
	}
	if _, err := os.Stat(*path); err == nil {
		log.Fatalf("fill: %s exists; remove it first", *path)
	}
	start := time.Now()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, *path) // creates the file in WAL mode and applies the migrations
	if err != nil {
		log.Fatal(err)
	}
	if err := st.Close(); err != nil {
		log.Fatal(err)
	}

	db, err := sql.Open("sqlite", *path)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`PRAGMA synchronous = OFF`); err != nil { // a failed fill is simply redone
		log.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		log.Fatal(err)
	}
	ins, err := tx.Prepare(`INSERT INTO contacts (id, index_value, doc) VALUES (?, ?, ?)`)
	if err != nil {
		log.Fatal(err)
	}
	for i := range *n {
		r := service.TestRecord(fmt.Sprintf("%s%07d", *prefix, i))
		if _, err := ins.Exec(r.Key, r.Index, string(r.Doc)); err != nil {
			log.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		log.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "fill: %d contacts in %s in %s\n", *n, *path, time.Since(start).Round(time.Millisecond))
}

// schema creates the schema create or drops the schema drop in the database dsn names.
func schema(dsn, create, drop string) error {
	if dsn == "" {
		return fmt.Errorf("-create-schema and -drop-schema need -pgdsn")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if create != "" {
		_, err = conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{create}.Sanitize())
	} else {
		_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{drop}.Sanitize()+" CASCADE")
	}
	return err
}
