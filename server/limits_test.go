package server

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLimitsDefaults: the one rule fills every unset leaf of the tree from DefaultLimits, whose leaves
// are all set, and keeps what is set.
func TestLimitsDefaults(t *testing.T) {
	d := DefaultLimits()
	var leaves func(v reflect.Value, path string)
	leaves = func(v reflect.Value, path string) {
		if v.Kind() == reflect.Struct {
			for i := range v.NumField() {
				leaves(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
			return
		}
		assert.Positive(t, v.Int(), "DefaultLimits%s", path)
	}
	leaves(reflect.ValueOf(d), "")

	assert.Equal(t, d, Limits{}.withDefaults())
	var l Limits
	l.ReadTimeout = time.Second
	l.Admission.MaxConcurrent = 3
	l.XML.MaxDepth = -1 // negative is unset too
	got := l.withDefaults()
	assert.Equal(t, time.Second, got.ReadTimeout)
	assert.Equal(t, 3, got.Admission.MaxConcurrent)
	assert.Equal(t, d.XML.MaxDepth, got.XML.MaxDepth)
	assert.Equal(t, d.Admission.BodyReadGrace, got.Admission.BodyReadGrace)
	require.Equal(t, d.XML.MaxSpecialBytes, got.XML.MaxSpecialBytes)

	srv := NewHTTPServer(nil, Limits{}, nil)
	assert.Equal(t, d.ReadHeaderTimeout, srv.ReadHeaderTimeout)
	assert.Equal(t, d.MaxHeaderBytes, srv.MaxHeaderBytes)
}
