package zoo_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server"
	"github.com/contactsync/contactsync/tools/gowsdlgen/internal/zoo/zoo3"
)

// TestZoo3JSONSmalls: the JSON endpoint carries the small and unsigned types, char, [Flags], a
// nillable value and TimeSpan as generated (no ASMX capture shows ASP.NET AJAX's forms: docs/xsd-types.md): integers as JSON numbers,
// unsignedLong exact, char its number, flags the space list; a value out of range is the caller's
// error (InvalidArgument).
func TestZoo3JSONSmalls(t *testing.T) {
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL,
		Protocols: []string{"soap11", "soap12", "get", "post", "json"}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	call := func(t *testing.T, op, body string) (int, string) {
		t.Helper()
		resp, err := srv.Client().Post(srv.URL+zoo3.Contract.Path+"/"+op, "application/json; charset=utf-8", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(out)
	}
	for _, tt := range []struct{ op, body, want string }{
		{"Unsigned", `{"b":255,"sb":-128,"us":65535,"ui":4294967295,"ul":18446744073709551615}`,
			`{"d":"b=255 sb=-128 us=65535 ui=4294967295 ul=18446744073709551615"}`},
		{"EchoChar", `{"c":233}`, `{"d":233}`},
		{"EchoPerm", `{"p":"Write  Read Read"}`, `{"d":"Read Write"}`},
		{"GetSmalls", `{"max":true}`, `"UL":18446744073709551615,"C":65535`},
		// A nillable value is the value or null; a TimeSpan (ASMX's empty complex type) an object
		// without members (docs/xsd-types.md's table of issue 33's types).
		{"EchoMaybe", `{"n":5}`, `{"d":5}`},
		{"EchoMaybe", `{"n":null}`, `{"d":null}`},
		{"EchoSpan", `{"span":{}}`, `{"d":{}}`},
	} {
		t.Run(tt.op+tt.body, func(t *testing.T) {
			status, body := call(t, tt.op, tt.body)
			assert.Equal(t, http.StatusOK, status, body)
			assert.Contains(t, body, tt.want)
		})
	}
	for _, bad := range []struct{ op, body string }{
		{"Unsigned", `{"b":256,"sb":0,"us":0,"ui":0,"ul":0}`},
		{"Unsigned", `{"b":0,"sb":0,"us":0,"ui":0,"ul":-1}`},
		{"EchoChar", `{"c":65536}`},
		{"EchoPerm", `{"p":"Read,Write"}`},
	} {
		status, body := call(t, bad.op, bad.body)
		assert.Equal(t, http.StatusInternalServerError, status, "%s %s: %s", bad.op, bad.body, body) // ASP.NET AJAX's status for every error
		assert.Contains(t, body, `"ExceptionType":"InvalidArgument"`, "%s %s", bad.op, bad.body)
	}
}

// TestZoo3HelpFlagsPlaceholder: the operation page's sample messages give a [Flags] value the
// placeholder of an enumeration, its members joined with " or ", and a char or unsigned type its
// XSD name.
func TestZoo3HelpFlagsPlaceholder(t *testing.T) {
	h, err := server.NewHandler(zoo3.Bind(zoo3Service{}), server.Config{BaseURL: zooBaseURL})
	require.NoError(t, err)
	for op, want := range map[string]string{"EchoPerm": "None or Read or Write or Execute", "EchoChar": "char", "Unsigned": "unsignedLong"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, zoo3.Contract.Path+"?page=op&tab=main&op="+op+"&bnd=SyncSoap", nil))
		assert.Equal(t, http.StatusOK, rec.Code, op)
		assert.Contains(t, rec.Body.String(), want, op)
	}
}
