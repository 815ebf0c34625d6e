package sqlite_test

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// BenchmarkPutParallel is many concurrent durable writes (16 goroutines per CPU, like wrk's 16
// connections), the shape of TestCreateContact under load: group commit lets them share commits, so
// the result is commits per second times the batch size rather than the disk's fsync rate alone.
func BenchmarkPutParallel(b *testing.B) {
	s := open(b, tempPath(b))
	var n atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(16)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := s.Put(b.Context(), benchContact(fmt.Sprintf("p%d", n.Add(1)))); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
