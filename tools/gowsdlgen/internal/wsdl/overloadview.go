package wsdl

import (
	"fmt"
	"regexp"
)

// nameAttr finds an unprefixed name attribute in a start tag; group 2 is the value.
var nameAttr = regexp.MustCompile(`\sname\s*=\s*(["'])([^"']*)["']`)

// overloadNames renames, for gowsdl, every operation of a kept portType or binding whose wsdl:input
// has a name other than its own to that input name. ASMX names the overloads of a C# method after the
// method (two <wsdl:operation name="Add">) and tells them apart by the input's name, their message
// name (AddDoubles); gowsdl v0.5.0 names its client methods after the operation, so overloads would
// be duplicate methods. The generated code's identity of an operation is its message name (the
// contract model's Operation.Name), and the view gives gowsdl the same.
func overloadNames(defs *Definitions, kept ...map[*Node]bool) ([]replacement, error) {
	var repl []replacement
	for _, table := range []Table{defs.PortTypes, defs.Bindings} {
		for _, parent := range table.Order {
			if !kept[0][parent] && !kept[1][parent] {
				continue
			}
			for _, op := range parent.Elements(NamespaceWSDL, "operation") {
				name, _ := op.Attr("name")
				var input string
				for _, in := range op.Elements(NamespaceWSDL, "input") {
					input, _ = in.Attr("name")
				}
				if input == "" || input == name {
					continue
				}
				tag := startTag(defs.Data, op)
				m := nameAttr.FindSubmatchIndex(tag)
				if m == nil {
					return nil, fmt.Errorf("<%s> at byte %d: cannot find its name attribute", qualified(op.Raw), op.Start)
				}
				repl = append(repl, replacement{Start: op.Start + m[4], End: op.Start + m[5], text: input})
			}
		}
	}
	return repl, nil
}
