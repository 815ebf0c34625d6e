package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// events is a `go test -json` stream with a passing test, a skipped test and a skipped subtest (each
// with its reason), a package without test files, and a line of build output that is not JSON.
const events = `{"Action":"start","Package":"example.com/a"}
{"Action":"run","Package":"example.com/a","Test":"TestPass"}
{"Action":"output","Package":"example.com/a","Test":"TestPass","Output":"=== RUN   TestPass\n"}
{"Action":"pass","Package":"example.com/a","Test":"TestPass","Elapsed":0}
{"Action":"run","Package":"example.com/a","Test":"TestDB"}
{"Action":"output","Package":"example.com/a","Test":"TestDB","Output":"=== RUN   TestDB\n"}
{"Action":"output","Package":"example.com/a","Test":"TestDB","Output":"    pgtest.go:37: CONTACTSYNC_TEST_POSTGRES is not set\n"}
{"Action":"output","Package":"example.com/a","Test":"TestDB","Output":"--- SKIP: TestDB (0.00s)\n"}
{"Action":"skip","Package":"example.com/a","Test":"TestDB","Elapsed":0}
{"Action":"run","Package":"example.com/a","Test":"TestTools/chromium"}
{"Action":"output","Package":"example.com/a","Test":"TestTools/chromium","Output":"    browser_test.go:55: Chromium is not installed\n"}
{"Action":"skip","Package":"example.com/a","Test":"TestTools/chromium","Elapsed":0}
{"Action":"pass","Package":"example.com/a","Test":"TestTools","Elapsed":0}
{"Action":"pass","Package":"example.com/a","Elapsed":0.1}
# example.com/b [build output that is not an event]
{"Action":"skip","Package":"example.com/nofiles","Elapsed":0}
`

func TestReadListsSkipsWithTheirReasons(t *testing.T) {
	rep, err := read(strings.NewReader(events))
	require.NoError(t, err)
	assert.Equal(t, 4, rep.ran, "two passes, two skips; the package without test files is none")
	assert.Equal(t, []skip{
		{pkg: "example.com/a", test: "TestDB", reason: []string{"pgtest.go:37: CONTACTSYNC_TEST_POSTGRES is not set"}},
		{pkg: "example.com/a", test: "TestTools/chromium", reason: []string{"browser_test.go:55: Chromium is not installed"}},
	}, rep.skips)
	var out strings.Builder
	rep.print(&out)
	assert.Equal(t, "skipreport: 2 of 4 tests skipped:\n"+
		"  SKIP example.com/a TestDB\n       pgtest.go:37: CONTACTSYNC_TEST_POSTGRES is not set\n"+
		"  SKIP example.com/a TestTools/chromium\n       browser_test.go:55: Chromium is not installed\n", out.String())
	assert.Contains(t, rep.failure(), "2 tests skipped", "a skip fails the run under -fail-on-skip")
}

func TestReadFailure(t *testing.T) {
	for _, tc := range []struct {
		name, events, failure string
	}{
		{"all passed", `{"Action":"pass","Package":"p","Test":"TestA"}`, ""},
		{"no test ran", `{"Action":"skip","Package":"p"}`, "no test ran"},
		{"empty", "", "no test ran"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := read(strings.NewReader(tc.events))
			require.NoError(t, err)
			assert.Equal(t, tc.failure, rep.failure())
		})
	}
}
