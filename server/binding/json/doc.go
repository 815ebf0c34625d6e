// Package json is the ASP.NET AJAX JSON endpoint of an ASMX [ScriptService]: POST
// /sync.asmx/<Operation> with Content-Type application/json, the parameters as a JSON object by name,
// the result as {"d": value} through the generated JSON codec, and errors as ASP.NET AJAX's
// {"Message","StackTrace","ExceptionType"} object with the jsonerror: true header.
//
// It may import the standard library, server/binding, server/fault and server/wire, and never another
// binding family; only the server root imports it.
package json
