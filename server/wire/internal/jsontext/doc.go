// Package jsontext is the one JSON tokenizer of the wire runtime: the allocation-light scanner the
// record format (recordwire) reads the store's documents with, and the JSON endpoint (jsonwire)
// reads requests with. It knows no XSD type and no contract: it may import only the standard library.
package jsontext
