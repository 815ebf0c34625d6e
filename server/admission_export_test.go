package server

import (
	"testing"
	"time"
)

// SetBodyReadGrace shortens the grace every request body gets, for handlers created until the test
// ends, so a test of the minimum body rate need not wait seconds.
func SetBodyReadGrace(t *testing.T, d time.Duration) {
	old := bodyReadGrace
	bodyReadGrace = d
	t.Cleanup(func() { bodyReadGrace = old })
}
