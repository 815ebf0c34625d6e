package xmlcodec

import (
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/model"
)

// responseCodec writes the XML codec of op's response wrapper; a one-way operation has none.
func (e *emitter) responseCodec(op *model.Operation) error {
	if op.OneWay {
		return nil
	}
	if err := e.wrapperCodec(op.Response, op.Response.GoName, "element", op.ResponseNamespace); err != nil {
		return err
	}
	return e.outRefJSONCodec(op)
}

// oneWayClientMethod writes the client stub's methods of one-way operation op: the call is sent and
// its acknowledgement (202 on SOAP, the empty 200 of GET and POST) read; no response is decoded.
func (e *emitter) oneWayClientMethod(client string, op *model.Operation) {
	req := op.Request.GoName
	e.p("")
	e.p("// %sContext calls the one-way operation %s: it returns once the service acknowledged the call.", op.GoName, op.Name)
	e.p("func (c *%s) %sContext(ctx context.Context, request *%s) error {", client, op.GoName, req)
	e.p("return c.Invoker.Invoke(ctx, op%s, request, nil)", op.GoName)
	e.p("}")
	e.p("")
	e.p("// %s is %sContext without a context.", op.GoName, op.GoName)
	e.p("func (c *%s) %s(request *%s) error {", client, op.GoName, req)
	e.p("return c.%sContext(context.Background(), request)", op.GoName)
	e.p("}")
}
