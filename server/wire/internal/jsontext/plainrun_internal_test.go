package jsontext

import (
	"math/rand/v2"
	"testing"
)

// plainRunByByte is plainRun one table look-up a byte, as the scanner read strings before.
func plainRunByByte(s []byte) int {
	n := 0
	for n < len(s) && recordPlain[s[n]] {
		n++
	}
	return n
}

// TestPlainRun holds the eight-bytes-at-a-time scan to the byte-by-byte one: every byte value at every
// position of runs long enough to cross two words and a tail, and random strings mixing plain bytes
// with quotes, backslashes, control bytes and UTF-8.
func TestPlainRun(t *testing.T) {
	for _, length := range []int{0, 1, 7, 8, 9, 15, 16, 17, 23} {
		for at := 0; at < length; at++ {
			for c := 0; c < 256; c++ {
				s := make([]byte, length)
				for i := range s {
					s[i] = byte('a' + i%26)
				}
				s[at] = byte(c)
				if got, want := plainRun(s), plainRunByByte(s); got != want {
					t.Fatalf("byte %#x at %d of %d: plainRun = %d, want %d", c, at, length, got, want)
				}
			}
		}
	}
	alphabet := []byte("ab~ \x7f\"\\\x00\x1f\xc3\xa9\x80\xff")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s := make([]byte, rng.IntN(40))
		for i := range s {
			if rng.IntN(8) == 0 {
				s[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				s[i] = byte(0x20 + rng.IntN(0x5f))
			}
		}
		if got, want := plainRun(s), plainRunByByte(s); got != want {
			t.Fatalf("%q: plainRun = %d, want %d", s, got, want)
		}
	}
}
