// Package jsonwire is the runtime of the generated codec of the ASP.NET AJAX JSON endpoint
// (ScriptService): the request Reader with the parameter readers of each XSD type, the errors in
// ASP.NET's words, and the writers of JSON values in JavaScriptSerializer's forms.
//
// It may import only the standard library, server/fault, server/wire/xsd and the one JSON tokenizer
// (server/wire/internal/jsontext), which it shares with the record format.
package jsonwire
