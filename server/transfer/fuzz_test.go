package transfer_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
	"github.com/contactsync/contactsync/server/transfer"
)

// fuzzDecode feeds untrusted input to a decoder: it must never panic or loop, and every record it
// accepts must survive an encode and a decode unchanged, in both formats.
func fuzzDecode(t *testing.T, format transfer.Format, input []byte) {
	dec, err := transfer.NewDecoder(bytes.NewReader(input), format, schema, transfer.DecodeOptions{})
	if err != nil {
		return // a CSV header refused: the whole input is
	}
	var accepted []store.Record
	lastLine := 0
	for range len(input) + 2 { // every record consumes at least one byte, but the last (EOF)
		rec, err := dec.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "reading from memory cannot fail")
		require.Greater(t, rec.Line, 0)
		require.GreaterOrEqual(t, rec.Line, lastLine, "line numbers go forward")
		lastLine = rec.Line
		if rec.Err == nil {
			accepted = append(accepted, rec.Record)
		}
	}
	for _, out := range []transfer.Format{transfer.JSONL, transfer.CSV} {
		var buf bytes.Buffer
		enc, err := transfer.NewEncoder(&buf, out, schema)
		require.NoError(t, err)
		for _, r := range accepted {
			require.NoError(t, enc.Encode(r))
		}
		require.NoError(t, enc.Flush())
		dec, err = transfer.NewDecoder(&buf, out, schema, transfer.DecodeOptions{})
		require.NoError(t, err)
		for _, want := range accepted {
			rec, err := dec.Next()
			require.NoError(t, err)
			require.NoError(t, rec.Err)
			require.Equal(t, want, rec.Record)
		}
	}
}

func FuzzDecodeJSONL(f *testing.F) {
	for _, seed := range []string{
		`{"Id":"a","AccountId":"A","FirstName":"F","LastName":"L","PhoneMobile":"1","PhoneWork":"2","EmailAddress":"e","RoleIds":["r1","r2"]}`,
		"{\"Id\":\"a\"}\n{\"Id\":\"b\",\"RoleIds\":null}\r\n\n",
		"\xEF\xBB\xBF{\"Id\":\"\\u00fc\\ud83d\\ude42\"}",
		`{"Id":"a","x":1}`, `{"Id":7}`, `[1,2]`, `{"Id":"a"} {}`, `{"Id":"a"`, "\xff\xfe",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) { fuzzDecode(t, transfer.JSONL, input) })
}

func FuzzDecodeCSV(f *testing.F) {
	for _, seed := range []string{
		"Id,AccountId,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds\na,A,F,L,1,2,e,r1;r2\n",
		"\xEF\xBB\xBFID,ACCOUNTID,FirstName,LastName,PhoneMobile,PhoneWork,EmailAddress,RoleIds\r\n\"a,b\",\"x\"\"y\",\"multi\nline\",,,,,;\r\n",
		"RoleIds,EmailAddress,PhoneWork,PhoneMobile,LastName,FirstName,AccountId,Id\n,,,,,,,a\nshort\n\"unclosed\n",
		"Id\n", "",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) { fuzzDecode(t, transfer.CSV, input) })
}
