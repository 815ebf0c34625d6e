package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/contract"

// The contract model's types live in package contract; these are their names here, so the
// generator's packages keep importing model alone.
type (
	Kind        = contract.Kind
	Type        = contract.Type
	Field       = contract.Field
	Operation   = contract.Operation
	HTTPParam   = contract.HTTPParam
	Contract    = contract.Contract
	Direction   = contract.Direction
	HeaderPart  = contract.HeaderPart
	GoField     = contract.GoField
	StructField = contract.StructField
	TypedField  = contract.TypedField
)

// The kinds and header directions (contract.Kind, contract.Direction).
const (
	KindString   = contract.KindString
	KindInt      = contract.KindInt
	KindLong     = contract.KindLong
	KindShort    = contract.KindShort
	KindBoolean  = contract.KindBoolean
	KindDouble   = contract.KindDouble
	KindFloat    = contract.KindFloat
	KindDecimal  = contract.KindDecimal
	KindDateTime = contract.KindDateTime
	KindBase64   = contract.KindBase64
	KindGUID     = contract.KindGUID
	KindEnum     = contract.KindEnum
	KindComplex  = contract.KindComplex
	KindArray    = contract.KindArray

	KindByte                            = contract.KindByte
	KindUnsignedByte                    = contract.KindUnsignedByte
	KindUnsignedShort                   = contract.KindUnsignedShort
	KindUnsignedInt                     = contract.KindUnsignedInt
	KindUnsignedLong                    = contract.KindUnsignedLong
	KindChar                            = contract.KindChar
	KindFlags                           = contract.KindFlags
	KindObject, KindRawXML, KindDataSet = contract.KindObject, contract.KindRawXML, contract.KindDataSet

	HeaderIn    = contract.HeaderIn
	HeaderOut   = contract.HeaderOut
	HeaderInOut = contract.HeaderInOut

	RuntimeImport = contract.RuntimeImport // see contract.RuntimeImport
	ValuesImport  = contract.ValuesImport  // see contract.ValuesImport
)

// SimpleGoTypes: see contract.SimpleGoTypes.
var SimpleGoTypes = contract.SimpleGoTypes

// GowsdlField: see contract.GowsdlField.
func GowsdlField(name string) string { return contract.GowsdlField(name) }

func Open(kind Kind) bool { return contract.Open(kind) } // Open: see contract.Open.

// GoFieldOf: see contract.GoFieldOf.
func GoFieldOf(f *Field) GoField { return contract.GoFieldOf(f) }
