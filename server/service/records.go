package service

import (
	"errors"
	"fmt"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/fault"
	"github.com/contactsync/contactsync/server/wire"
)

// RecordSchema is what the data commands (export, import, copy: server/transfer and cmd/contactsync)
// need to know about the contract's record type, so that they never name it or its fields: its
// generated descriptor and the service's check of a record read from an untrusted file.
type RecordSchema struct {
	// Type is the generated descriptor of the record type.
	Type *wire.RecordType
	// Check refuses a record the service would not accept as input (see CheckRecord).
	Check func(wire.Record) error
}

// Records is the contract's record type, Contact, with the service's check.
var Records = RecordSchema{Type: gen.ContactRecord, Check: CheckRecord}

// CheckRecord refuses a record the service would never store or could not return: a key the
// operations would reject as an id (see validateID), and text anywhere in it that is not valid UTF-8
// or holds a character XML 1.0 cannot carry (such a record could not be read back over SOAP). Every
// string of the record is checked, nested ones too, whatever fields the contract gives it. The error
// starts with the field's name as the user sees it in their file.
func CheckRecord(r wire.Record) error {
	c, ok := r.(*gen.Contact)
	if !ok {
		return fmt.Errorf("not a %s record", gen.ContactRecord.Name)
	}
	if err := validateID(c.Id); err != nil {
		var e *fault.Error
		if errors.As(err, &e) {
			//lint:ignore ST1005 the message starts with the field's name as import's users see it in their file
			return fmt.Errorf("%s is not a valid contact id: %s", gen.ContactRecord.Key, e.Message)
		}
		return err
	}
	return wire.EachRecordString(c.AppendRecord(nil), func(path, s string) error {
		if err := checkXMLText(s); err != nil {
			return fmt.Errorf("%s %w", path, err)
		}
		return nil
	})
}
