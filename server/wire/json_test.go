package wire

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAppendJSONString(t *testing.T) {
	assert.Equal(t, `"a\"b\\c\n\r\t\u003c\u003e\u0026\u0027\u0001é😀\u2028`+"\uFFFD\"", string(AppendJSONString(nil, "a\"b\\c\n\r\t<>&'\x01é😀\u2028\xff")))
	var back string
	require.NoError(t, json.Unmarshal(AppendJSONString(nil, "a\"b\\c\n<>&'é😀\u2028"), &back))
	assert.Equal(t, "a\"b\\c\n<>&'é😀\u2028", back)
}

func TestJSONNumbersAndDates(t *testing.T) {
	assert.Equal(t, `"NaN"`, string(AppendJSONDouble(nil, math.NaN())))
	assert.Equal(t, `"-Infinity"`, string(AppendJSONDouble(nil, math.Inf(-1))))
	assert.Equal(t, `1E+21`, string(AppendJSONDouble(nil, 1e21)))
	v, ok := ParseDateTime("2026-11-22T10:15:30.123+01:00")
	require.True(t, ok)
	assert.Equal(t, `"\/Date(1795338930123)\/"`, string(AppendJSONDateTime(nil, v)))
	back, err := JSONDateTime("/Date(1795338930123)/", "element When")
	require.NoError(t, err)
	assert.True(t, back.Time.Equal(v.Time))
	_, err = JSONInt(json.Number("9223372036854775808"), "parameter n", "long", 64)
	assert.ErrorContains(t, err, "must be an xsd:long")
	_, err = JSONInt(json.Number("1e3"), "parameter n", "int", 32)
	assert.Error(t, err, "an int is written without exponent or fraction")
}

// TestJSONDepthLimit: nesting beyond the limit is refused while skipping or reading values.
func TestJSONDepthLimit(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`
	r := NewJSONReader([]byte(deep), 32)
	_, err := r.Object()
	require.NoError(t, err)
	_, ok, err := r.Key()
	require.True(t, ok)
	require.NoError(t, err)
	tok, err := r.Token()
	require.NoError(t, err)
	assert.ErrorContains(t, r.Skip(tok), "nested deeper than 32")

	shallow := NewJSONReader([]byte(`{"a":[[1,{"b":[]}]]}`), 32)
	_, err = shallow.Object()
	require.NoError(t, err)
	_, _, _ = shallow.Key()
	tok, err = shallow.Token()
	require.NoError(t, err)
	require.NoError(t, shallow.Skip(tok))
	_, ok, err = shallow.Key()
	assert.False(t, ok)
	assert.NoError(t, err)
	assert.NoError(t, shallow.End())
}
