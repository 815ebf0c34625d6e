// Package zoo is the wire code tools/gowsdlgen generates from the ASMX type zoo, a contract whose one
// complex type, Sample, has a field of every XSD type of the subset an ASMX contract uses (string,
// int, long, short, boolean, decimal, double, float, dateTime, base64Binary, the Microsoft guid, an
// enumeration, nested complex types, arrays of simple and complex types, nillable value types), and
// whose operations return each of them, null and void included.
//
// It exists for tests: its golden tests serve it through the real bindings, with
// server.NewHandler(zoo.Bind(svc), ...) as the service itself is served, with a Go twin of the
// reference service, testdata/Zoo.cs, and compare every exchange with the one captured from ASMX
// (testdata/captures). testdata/ holds the reference data unchanged (testdata/README.md describes
// it); the contract is testdata/zoo.wsdl, exactly as ASMX served it.
//
// This file is the only one written by hand (besides tests); zoo.go and zoo_wire.go are generated
// like gen/, and `make check-generate` keeps them in step.
package zoo

//go:generate go run ../.. -wsdl testdata/zoo.wsdl -o zoo.go -wire zoo_wire.go -pkg zoo -record Sample -record-key Key -record-index Level
