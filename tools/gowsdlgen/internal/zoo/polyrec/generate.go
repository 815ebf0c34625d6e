// Package polyrec is the wire code tools/gowsdlgen generates from a small contract whose record type
// holds values of inheritance hierarchies (issue 33, "the store follows"): Pen has an Animal field
// (Animal, Cat, the abstract Bird and its Parrot), an ArrayOfAnimal, a repeated element of the
// abstract Shape (Square, Circle) and a field declared with the derived Cat. The types are zoo3's
// (../testdata/shapes/zoo3.wsdl) with Bird and Parrot added for an abstract type in the middle of a
// hierarchy; the contract is ../testdata/polyrec/polyrec.wsdl.
//
// It exists for tests: ../polyrec_test.go round-trips Pen values through the record codec, the record
// formats and the unknown-member carry.
//
// This file is the only one written by hand; polyrec.go and polyrec_wire.go are generated like gen/,
// and `make check-generate` keeps them in step.
package polyrec

//go:generate go run ../../.. -wsdl ../testdata/polyrec/polyrec.wsdl -o polyrec.go -wire polyrec_wire.go -pkg polyrec -record Pen -record-key Id -record-index Keeper
