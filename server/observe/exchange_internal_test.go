package observe

import (
	"net/textproto"
	"testing"
	"unsafe"
)

// TestExchangeSize holds the Exchange, allocated once for every request, to 256 bytes: a size class of
// Go's allocator, where one more word costs the next class's 288 bytes on every request (and the
// garbage collector's time that comes with them; BENCHMARKS.md). A field added to Events must make room.
func TestExchangeSize(t *testing.T) {
	if size := unsafe.Sizeof(Exchange{}); size > 256 {
		t.Errorf("the Exchange is %d bytes, more than 256", size)
	}
}

// TestRequestIDKey: the middleware reads and writes the request id under requestIDKey, which must be
// the key net/http files RequestIDHeader under.
func TestRequestIDKey(t *testing.T) {
	if got := textproto.CanonicalMIMEHeaderKey(RequestIDHeader); got != requestIDKey {
		t.Errorf("requestIDKey is %q; net/http files %s under %q", requestIDKey, RequestIDHeader, got)
	}
}
