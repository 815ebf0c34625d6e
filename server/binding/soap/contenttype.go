package soap

import "github.com/contactsync/contactsync/server/binding"

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
