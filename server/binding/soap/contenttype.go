package soap

import "github.com/contactsync/contactsync/server/binding"

// MediaType returns the media type of a Content-Type header, lower case, or "" when it does not
// parse: text/xml is SOAP 1.1's, application/soap+xml SOAP 1.2's.
func MediaType(contentType string) string {
	return binding.ReadContentType(contentType).MediaType
}

// actionParam returns the action parameter of a SOAP 1.2 content type (RFC 3902), "" when it has none
// or does not parse.
func actionParam(contentType string) string {
	c := binding.ReadContentType(contentType)
	if c.Err != nil {
		return ""
	}
	action, _ := c.Param("action")
	return action
}
