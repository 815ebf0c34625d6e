package accesslog

import (
	"math/rand/v2"
	"testing"
)

// plainByByte is plain one table look-up a byte, as it was written before it read eight at a time.
func plainByByte(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

// TestPlainEightAtATime holds plain to the byte-by-byte check: every byte value at every position of
// strings long enough for two words and a tail, and random strings of plain and other bytes.
func TestPlainEightAtATime(t *testing.T) {
	for _, length := range []int{1, 7, 8, 9, 16, 17, 23} {
		for at := 0; at < length; at++ {
			for c := 0; c < 256; c++ {
				b := make([]byte, length)
				for i := range b {
					b[i] = byte('!' + i%94)
				}
				b[at] = byte(c)
				if got, want := plain(string(b)), plainByByte(string(b)); got != want {
					t.Fatalf("byte %#x at %d of %d: plain = %v, want %v", c, at, length, got, want)
				}
			}
		}
	}
	others := []byte(" \"\\=\x00\x1f\x7f\x80\xff\xc3\xa9")
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			if rng.IntN(16) == 0 {
				b[i] = others[rng.IntN(len(others))]
			} else {
				b[i] = byte('!' + rng.IntN(94))
			}
		}
		if got, want := plain(string(b)), plainByByte(string(b)); got != want {
			t.Fatalf("%q: plain = %v, want %v", b, got, want)
		}
	}
}
