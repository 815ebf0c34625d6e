package observe

import (
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
