package xmlcodec

import (
	"strconv"
	"strings"

	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// httpParamNames writes the HTTPParams of op's table entry when a parameter's name on HTTP GET and
// POST (its message part's) differs from its SOAP element's: ASMX writes the C# parameter names there
// and the XmlElement names in the schema (Renamed: parts id and n, elements x-id and Count; shapes
// README §6). An operation whose names agree, as every one of a contract without renames, leaves it
// nil, and the table reads the names from Params.
func (e *emitter) httpParamNames(op *model.Operation) {
	same := true
	quoted := make([]string, len(op.HTTPParams))
	for i, hp := range op.HTTPParams {
		same = same && hp.Name == hp.Field.Name
		quoted[i] = strconv.Quote(hp.Name)
	}
	if same {
		return
	}
	e.p("HTTPParams: []string{%s},", strings.Join(quoted, ", "))
}
