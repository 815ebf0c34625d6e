package stores_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/stores"
)

// TestBackendsRecogniseTheirForms: each --store form reaches its backend, PostgreSQL's key=value DSN
// (no scheme) included, and its redaction hides every password.
func TestBackendsRecogniseTheirForms(t *testing.T) {
	for _, tc := range []struct{ spec, kind, redacted string }{
		{"sqlite:contacts.db", "sqlite", "sqlite:contacts.db"},
		{"sqlite:", "sqlite", "sqlite:"},
		{"postgres://u:pw@h/db?sslmode=disable", "postgres", "postgres://u:xxxxx@h/db?sslmode=disable"},
		{"postgresql://u@h1,h2/db", "postgres", "postgresql://u@h1,h2/db"},
		{"postgres://u:pw@h:badport/db", "postgres", "postgres://…"},
		{"host=a,b dbname=db target_session_attrs=read-write", "postgres", "host=a,b dbname=db target_session_attrs=read-write"},
		{"dbname=db password=pw", "postgres", "dbname=db password=xxxxx"},
		{"user=u password = 'p w\\'s' host=h", "postgres", "user=u password=xxxxx host=h"},
		{"host=h password='pw", "postgres", "…"},
		{"application_name='my app' host=h", "postgres", "application_name='my app' host=h"},
		{"mysql://u:pw@h/db", "unknown", "mysql://u:xxxxx@h/db"},
		{"hots=h password=pw", "unknown", "…"},
		{"contacts.db", "unknown", "…"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			assert.Equal(t, tc.kind, stores.Registry.Kind(tc.spec))
			assert.Equal(t, tc.redacted, stores.Registry.Redact(tc.spec))
		})
	}
	assert.Equal(t, "sqlite:contactsync.db", stores.Registry.Default())
	assert.Equal(t, "where contacts are kept: sqlite:PATH, or postgres://USER@HOST:PORT/DB?sslmode=… (a PostgreSQL DSN; libpq's key=value form, host=H1,H2 dbname=DB …, too)",
		stores.Registry.Usage())
}

// backendPackages are the packages of the backends (and what lies under them): only this package
// and tests may import them.
var backendPackages = []string{
	"github.com/contactsync/contactsync/server/store/sqlite",
	"github.com/contactsync/contactsync/server/store/postgres",
}

// TestOnlyTheRegistryNamesBackends: no package of the command imports a backend package (non-test
// files), directly or through a package outside server/store, so a new backend needs no edit there.
func TestOnlyTheRegistryNamesBackends(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", "github.com/contactsync/contactsync/cmd/...").Output()
	require.NoError(t, err, "go list")
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		require.NoError(t, dec.Decode(&p))
		n++
		for _, imp := range p.Imports {
			for _, b := range backendPackages {
				assert.False(t, imp == b || strings.HasPrefix(imp, b+"/"), "%s imports the backend package %s; reach it through stores.Registry", p.ImportPath, imp)
			}
		}
		if p.ImportPath == "github.com/contactsync/contactsync/cmd/contactsync" {
			assert.Contains(t, p.Imports, "github.com/contactsync/contactsync/server/store/stores", "the command opens its stores through the registry")
		}
	}
	require.Positive(t, n, "go list found no command")
}
