package wire

// Contract describes a generated contract as a whole: what a handler needs to serve it and describe
// it that is not an operation's. tools/gowsdlgen writes one per contract (the generated Contract
// variable) and the generated Bind puts it in the Bound it returns, so the runtime that serves a bound
// contract reads its document, endpoint path and namespace from there and never from a package of
// its own contract: two contracts served by one process each describe themselves.
type Contract struct {
	// Service is the wsdl:service name, the service's name on its help pages: "SyncService".
	Service string
	// Namespace is the target namespace as the WSDL writes it; the SOAPAction of an operation is
	// Namespace followed by its name, unless the operation names its own (Operation.SOAPAction11/12).
	Namespace string
	// RebaseNamespace says that the namespace is a deployment setting: a handler serves the contract
	// with Namespace's path moved onto its base URL (Namespace http://localhost:8080/contactsync/v1/
	// is served as https://sync.example.com/contactsync/v1/ under that base URL), in the documents and
	// on the wire. When false, the namespace and SOAPActions are served exactly as the WSDL writes
	// them, as the clients compiled against it send them (an ASMX contract's http://tempuri.org/).
	// The generator sets it when run with -rebase-namespace.
	RebaseNamespace bool
	// Address is the location of the service's first SOAP port as the WSDL writes it, which the
	// served document replaces with the address the client reached (at every port that has it).
	Address string
	// Path is the endpoint path: Address's path ("/contactsync/v1/sync.asmx"). Empty when the WSDL
	// names no SOAP address; a handler then needs a path of its own.
	Path string
	// ObjectTypes are the XSD names of the contract's types an object (xsd:anyType) value may hold
	// and be read as: its concrete complex types and its arrays (ArrayOfAnyType aside), in the order
	// the generated object registry lists them. The store records them as an object element's derived
	// rows, so that a contract dropping one is noticed. Empty for a contract without objects.
	ObjectTypes []string
	// Document is the WSDL as it is served before its namespace (when rebased) and addresses are
	// filled in: the contract file without its XML comments, which are notes for its maintainers.
	Document string
}
