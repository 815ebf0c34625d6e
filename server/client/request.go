package client

import (
	"context"
	"net/http"
)

// NewRequest returns the HTTP request the client sends for operation op with argument id (nil for the
// parameterless operations), without sending it. The server's help pages build their sample requests
// with it, so the samples are exactly what this client puts on the wire.
func (c *Client) NewRequest(ctx context.Context, op string, id *string) (*http.Request, error) {
	return c.newRequest(ctx, op, id)
}
