package backend_test

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/backend"
	"github.com/contactsync/contactsync/server/store/migrate"
)

// fake is a backend of the registry's tests: it recognises values starting with its prefix, and
// registers one duration flag when it has a flag name.
type fake struct {
	name, prefix, flag string
	opened             []string
}

type fakeOptions struct{ d time.Duration }

func (o *fakeOptions) Validate() error {
	if o.d <= 0 {
		return errors.New("--wait must be positive")
	}
	return nil
}

func (f *fake) Name() string               { return f.name }
func (f *fake) Recognise(spec string) bool { return strings.HasPrefix(spec, f.prefix) }
func (f *fake) Help() backend.Help {
	return backend.Help{Form: f.prefix + "X", Usage: f.prefix + "X (" + f.name + ")"}
}
func (f *fake) Redact(string) string { return f.name + ":redacted" }
func (f *fake) Flags(fs *pflag.FlagSet, _ backend.Scope) backend.Options {
	if f.flag == "" {
		return nil
	}
	o := &fakeOptions{}
	fs.DurationVar(&o.d, f.flag, time.Second, "")
	return o
}
func (f *fake) Open(_ context.Context, spec string, _ backend.Options, _ backend.Use) (backend.Store, *backend.Created, error) {
	f.opened = append(f.opened, spec)
	return nil, nil, errors.New("opened")
}
func (f *fake) Migrate(context.Context, string, backend.Options) ([]migrate.Migration, error) {
	return []migrate.Migration{{Version: 2, File: "0002_b.sql"}}, nil
}
func (f *fake) Migrations() fs.FS {
	return fstest.MapFS{"0001_a.sql": {Data: []byte("select 1;")}, "0002_b.sql": {Data: []byte("select 2;")}}
}

// locking is a fake with the single-writer lock.
type locking struct {
	fake
	locked int
}

func (l *locking) Lock(string) (func() error, error) {
	l.locked++
	return func() error { l.locked--; return nil }, nil
}

// TestRegistryPicksTheFirstBackendThatRecognisesTheValue: the order of registration is the order of
// asking; a value no backend takes gets an error listing their forms and never the value itself.
func TestRegistryPicksTheFirstBackendThatRecognisesTheValue(t *testing.T) {
	a, b := &fake{name: "a", prefix: "a:"}, &fake{name: "b", prefix: "a:b"}
	r := backend.NewRegistry("a:default", a, b)
	for _, tc := range []struct{ spec, want string }{
		{"a:x", "a"},
		{"a:bx", "a"}, // b also recognises it, but a was registered first
		{"c:s3cret", ""},
		{"", ""},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := r.Lookup(tc.spec)
			if tc.want == "" && tc.spec == "" {
				require.EqualError(t, err, "the value is empty: name a store; use a:X or a:bX")
				assert.Equal(t, "unknown", r.Kind(tc.spec))
				return
			}
			if tc.want == "" {
				require.EqualError(t, err, "unknown store; use a:X or a:bX")
				assert.Equal(t, "unknown", r.Kind(tc.spec))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.Name())
			assert.Equal(t, tc.want, r.Kind(tc.spec))
		})
	}
	assert.Equal(t, "a:default", r.Default())
	assert.Panics(t, func() { r.Register(&fake{name: "a"}) }, "a second backend of one name")
}

// TestRegistryUsageListsEveryBackend: --store's help names each backend's forms, in order.
func TestRegistryUsageListsEveryBackend(t *testing.T) {
	r := backend.NewRegistry("", &fake{name: "a", prefix: "a:"}, &fake{name: "b", prefix: "b:"})
	assert.Equal(t, "where contacts are kept: a:X (a), or b:X (b)", r.Usage())
	r.Register(&fake{name: "c", prefix: "c:"})
	assert.Equal(t, "where contacts are kept: a:X (a), b:X (b), or c:X (c)", r.Usage())
}

// TestRegistryRedact: a backend's value is redacted by the backend; any other value is shown as a
// URL with its password masked, or not at all.
func TestRegistryRedact(t *testing.T) {
	r := backend.NewRegistry("", &fake{name: "a", prefix: "a:"})
	for spec, want := range map[string]string{
		"a:pw":                 "a:redacted",
		"mysql://u:pw@h/db":    "mysql://u:xxxxx@h/db",
		"mysql://x":            "mysql://x",
		"user=u password=pw":   "…",
		"u:pw@h/db":            "…",
		"mysql:opaque:pw@h/db": "…",
		"":                     "", // shown empty, not hidden as "…"
	} {
		assert.Equal(t, want, r.Redact(spec), spec)
	}
}

// TestRegistryFlagsAndSettings: each backend registers its own flags and gets its own options back,
// validated by the registry before it opens a store; a backend without options takes nil.
func TestRegistryFlagsAndSettings(t *testing.T) {
	a, b := &fake{name: "a", prefix: "a:", flag: "wait"}, &fake{name: "b", prefix: "b:"}
	r := backend.NewRegistry("", a, b)
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("store", "", "")
	settings, names := r.Flags(fs, backend.Serving)
	assert.Equal(t, []string{"wait"}, names)
	require.Contains(t, settings, "a")
	assert.NotContains(t, settings, "b")
	require.NoError(t, settings.Validate())

	require.NoError(t, fs.Parse([]string{"--wait", "0s"}))
	require.EqualError(t, settings.Validate(), "--wait must be positive")
	_, _, err := r.Open(t.Context(), "a:x", settings, backend.Write)
	require.EqualError(t, err, "--wait must be positive", "the registry validates before opening")
	assert.Empty(t, a.opened)
	_, _, err = r.Open(t.Context(), "b:x", settings, backend.Write)
	require.EqualError(t, err, "opened", "another backend's options do not stop it")
	_, _, err = r.Open(t.Context(), "a:x", nil, backend.Write)
	require.EqualError(t, err, "opened", "nil settings: the defaults")
	assert.Equal(t, []string{"a:x"}, a.opened)
}

// TestRegistryMigrateLockBackup: Migrate reports the version of the backend's newest migration; Lock
// takes a Locker's lock and is a no-op for the others; Backup needs a Backuper.
func TestRegistryMigrateLockBackup(t *testing.T) {
	l := &locking{fake: fake{name: "l", prefix: "l:"}}
	r := backend.NewRegistry("", l, &fake{name: "memory", prefix: "a:"})
	applied, version, err := r.Migrate(t.Context(), "a:x", nil)
	require.NoError(t, err)
	assert.Equal(t, 2, version)
	assert.Len(t, applied, 1)

	release, err := r.Lock("l:x")
	require.NoError(t, err)
	assert.Equal(t, 1, l.locked)
	require.NoError(t, release())
	assert.Equal(t, 0, l.locked)
	release, err = r.Lock("a:x")
	require.NoError(t, err)
	require.NoError(t, release())
	_, err = r.Lock("z:x")
	require.ErrorContains(t, err, "unknown store")

	_, err = r.Backup(t.Context(), "a:x", "to")
	require.ErrorContains(t, err, "contactsync cannot back up a memory store")
}

// TestCreatedRemove: a nil Created created nothing, and removing it does nothing.
func TestCreatedRemove(t *testing.T) {
	var none *backend.Created
	none.Remove()
	removed := 0
	backend.NewCreated(func() { removed++ }).Remove()
	assert.Equal(t, 1, removed)
}

// waiting is a fake whose open errors are transient when they say "later".
type waiting struct{ fake }

func (waiting) Transient(err error) bool { return strings.Contains(err.Error(), "later") }

// TestRegistryTransient: the registry asks a Waiter backend whether an open error may pass, and
// answers no for a backend that is no Waiter (a file never appears by waiting) and for no error.
func TestRegistryTransient(t *testing.T) {
	r := backend.NewRegistry("", &fake{name: "file", prefix: "f:"}, &waiting{fake{name: "server", prefix: "s:"}})
	for _, tc := range []struct {
		spec string
		err  error
		want bool
	}{
		{"s:x", errors.New("try later"), true},
		{"s:x", errors.New("wrong password"), false},
		{"s:x", nil, false},
		{"f:x", errors.New("try later"), false},
		{"unknown:x", errors.New("try later"), false},
	} {
		assert.Equal(t, tc.want, r.Transient(tc.spec, tc.err), "%s %v", tc.spec, tc.err)
	}
}
