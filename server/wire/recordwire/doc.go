// Package recordwire is the runtime of the generated record codec: the contract's record type as the
// store keeps it and the record formats carry it, one canonical JSON document per record (Record,
// Type, the allocation-light Reader, and the writers of the canonical form).
//
// It may import only the standard library, server/wire (the type descriptors a record Type names),
// server/wire/xsd and the one JSON tokenizer (server/wire/internal/jsontext).
package recordwire
