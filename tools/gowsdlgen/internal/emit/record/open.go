package record

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"

// The open kinds in the record (issue 33, the store follows): an object, raw XML and a DataSet are
// written and read by server/wire/recordany, whose forms docs/xsd-types.md lists; an object reads
// its contract types through the registry the XML codec generates (anycodec.RegistryName).

// recordAppendOpen writes the statements appending the value of an open kind held in expr, and
// reports whether f is of one.
func (e *emitter) recordAppendOpen(f *model.Field, expr string) bool {
	switch f.Type.Kind {
	case model.KindObject:
		e.p("b = recordany.AppendObject(b, %s)", expr)
	case model.KindRawXML:
		e.p("b = recordany.AppendRaw(b, %s)", expr)
	case model.KindDataSet:
		e.p("b = recordany.AppendDataSet(b, %s)", expr)
	default:
		return false
	}
	return true
}

// recordDecodeOpen writes the statements reading the value of an open kind into expr, setting err,
// and reports whether f is of one.
func (e *emitter) recordDecodeOpen(f *model.Field, expr string) bool {
	switch f.Type.Kind {
	case model.KindObject:
		e.p("%s, err = recordany.DecodeObject(r, objectRegistry)", expr)
	case model.KindRawXML:
		e.p("%s, err = recordany.DecodeRaw(r)", expr)
	case model.KindDataSet:
		e.p("%s, err = recordany.DecodeDataSet(r)", expr)
	default:
		return false
	}
	return true
}
