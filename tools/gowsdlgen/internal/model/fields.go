package model

import "github.com/contactsync/contactsync/tools/gowsdlgen/internal/wsdl"

// RequiredFields lists the elements whose minOccurs is 1 (XML Schema's default) of the structs
// gowsdl generates from a WSDL document's SOAP-only view, in document order; TypedFields lists
// those whose Go type the runtime provides. Both read the contract model, which refuses anything
// outside the XSD subset first.
//
// gowsdl v0.5.0 tags every field omitempty, which is wrong for a required element: VersionMajorResult
// (xsd:int, minOccurs="1") would vanish from the response whenever the version is 0.
func RequiredFields(data []byte) ([]StructField, error) {
	required, _, err := readFieldsToFix(data)
	return required, err
}

// TypedFields: see RequiredFields.
func TypedFields(data []byte) ([]TypedField, error) {
	_, typed, err := readFieldsToFix(data)
	return typed, err
}

func readFieldsToFix(data []byte) ([]StructField, []TypedField, error) {
	defs, err := wsdl.Read(data)
	if err != nil {
		return nil, nil, err
	}
	contract, err := Read(defs)
	if err != nil {
		return nil, nil, err
	}
	_, cut, err := defs.View()
	if err != nil {
		return nil, nil, err
	}
	required, typed := contract.FieldsToFix(cut)
	return required, typed, nil
}
