package store

// Record is one stored record as every backend keeps it, whatever the contract's record type holds:
// the store knows no field of it. The contract's generated record codec (gen: AppendRecord and
// DecodeRecord, from the generator's -record flags) turns the contract type into a Record and back, so
// a field added to the contract is stored with no store, schema or migration code.
type Record struct {
	// Key identifies the record (the contract's declared key field).
	Key string
	// Index is the value of the contract's declared indexed field, which the store can list records by.
	Index string
	// Doc is the record's canonical JSON document, as the generated record codec writes it. The store
	// keeps it as given and hands it back unchanged in meaning (a backend may normalise its spelling,
	// as PostgreSQL's jsonb orders keys); it never interprets a field of it except on the maintenance
	// paths that rename or drop fields by name.
	Doc []byte
}
