package backend

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/contactsync/contactsync/server/store/migrate"
)

// Registry holds the backends a binary carries and picks one for a --store value. Its methods are
// safe for concurrent use.
type Registry struct {
	mu          sync.RWMutex
	backends    []Backend
	defaultSpec string
}

// NewRegistry returns a registry of backends, asked in this order whether a --store value is theirs;
// defaultSpec is --store's default.
func NewRegistry(defaultSpec string, backends ...Backend) *Registry {
	r := &Registry{defaultSpec: defaultSpec}
	for _, b := range backends {
		r.Register(b)
	}
	return r
}

// Register adds b, asked after the backends registered before it. A second backend of one name is a
// programming error: Register panics.
func (r *Registry) Register(b Backend) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, have := range r.backends {
		if have.Name() == b.Name() {
			panic("backend: " + b.Name() + " registered twice")
		}
	}
	r.backends = append(r.backends, b)
}

// all returns the registered backends, in order.
func (r *Registry) all() []Backend {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.backends)
}

// Default returns --store's default value.
func (r *Registry) Default() string { return r.defaultSpec }

// Lookup returns the backend spec names: the first one that recognises it. An unknown value gets an
// error listing the forms the backends take (it never holds spec, which may hold a password).
func (r *Registry) Lookup(spec string) (Backend, error) {
	backends := r.all()
	for _, b := range backends {
		if b.Recognise(spec) {
			return b, nil
		}
	}
	forms := make([]string, len(backends))
	for i, b := range backends {
		forms[i] = b.Help().Form
	}
	if spec == "" {
		// An empty environment variable counts as unset, so this is a flag or a config key given empty.
		return nil, errors.New("the value is empty: name a store; use " + strings.Join(forms, " or "))
	}
	return nil, errors.New("unknown store; use " + strings.Join(forms, " or "))
}

// Usage is --store's help text, listing every backend's forms.
func (r *Registry) Usage() string {
	var forms []string
	for _, b := range r.all() {
		forms = append(forms, b.Help().Usage)
	}
	list := strings.Join(forms, ", or ")
	if len(forms) > 2 {
		list = strings.Join(forms[:len(forms)-1], ", ") + ", or " + forms[len(forms)-1]
	}
	return "where contacts are kept: " + list
}

// Kind names the backend of spec, "unknown" when none recognises it.
func (r *Registry) Kind(spec string) string {
	b, err := r.Lookup(spec)
	if err != nil {
		return "unknown"
	}
	return b.Name()
}

// Redact returns spec with any password masked, for logs and errors: as its backend redacts it, or,
// for a value no backend recognises (a mistyped one included, which may still hold a password), as a
// URL with the password masked, or not at all ("…") when it is no such URL (a key=value string). An
// empty spec hides nothing and stays empty, so a message can show that it is (--store "").
func (r *Registry) Redact(spec string) string {
	if spec == "" {
		return ""
	}
	if b, err := r.Lookup(spec); err == nil {
		return b.Redact(spec)
	}
	u, err := url.Parse(spec)
	if err != nil || u.Scheme == "" || u.Opaque != "" {
		return "…"
	}
	return u.Redacted()
}

// Flags registers every backend's settings for a command on fs and returns the options they fill
// and the names of the flags registered (for the command's settings: environment, config file).
func (r *Registry) Flags(fs *pflag.FlagSet, scope Scope) (Settings, []string) {
	settings := Settings{}
	var names []string
	for _, b := range r.all() {
		before := map[string]bool{}
		fs.VisitAll(func(f *pflag.Flag) { before[f.Name] = true })
		opts := b.Flags(fs, scope)
		if opts != nil {
			settings[b.Name()] = opts
		}
		fs.VisitAll(func(f *pflag.Flag) {
			if !before[f.Name] {
				names = append(names, f.Name)
			}
		})
	}
	return settings, names
}

// Open opens the store spec names (see Backend.Open) with its backend's options from settings, after
// validating them. Its errors do not name spec.
func (r *Registry) Open(ctx context.Context, spec string, settings Settings, use Use) (Store, *Created, error) {
	b, opts, err := r.pick(spec, settings)
	if err != nil {
		return nil, nil, err
	}
	return b.Open(ctx, spec, opts, use)
}

// Migrate applies the migrations the store spec names lacks (see Backend.Migrate) and returns those
// it applied and the schema version the store is at when it succeeded.
func (r *Registry) Migrate(ctx context.Context, spec string, settings Settings) (applied []migrate.Migration, version int, err error) {
	b, opts, err := r.pick(spec, settings)
	if err != nil {
		return nil, 0, err
	}
	if applied, err = b.Migrate(ctx, spec, opts); err != nil {
		return applied, 0, err
	}
	known, err := migrate.Load(b.Migrations())
	if err != nil {
		return applied, 0, err
	}
	if len(known) > 0 {
		version = known[len(known)-1].Version
	}
	return applied, version, nil
}

// Lock takes the single-writer lock of the store spec names when its backend has one (Locker), and
// otherwise returns a release that does nothing.
func (r *Registry) Lock(spec string) (release func() error, err error) {
	b, err := r.Lookup(spec)
	if err != nil {
		return nil, err
	}
	if l, ok := b.(Locker); ok {
		if release, err = l.Lock(spec); err != nil || release != nil {
			return release, err
		}
	}
	return func() error { return nil }, nil
}

// Transient reports whether err, from opening the store spec names, may pass by itself, so that
// serve waits and tries again (see Waiter). It is false for a backend that is no Waiter.
func (r *Registry) Transient(spec string, err error) bool {
	b, lookupErr := r.Lookup(spec)
	if lookupErr != nil || err == nil {
		return false
	}
	w, ok := b.(Waiter)
	return ok && w.Transient(err)
}

// Backup backs the store spec names up to the file to, when its backend can (Backuper).
func (r *Registry) Backup(ctx context.Context, spec, to string) (BackupResult, error) {
	b, err := r.Lookup(spec)
	if err != nil {
		return BackupResult{}, err
	}
	bk, ok := b.(Backuper)
	if !ok {
		return BackupResult{}, fmt.Errorf("contactsync cannot back up a %s store; `contactsync export` writes its contacts as JSON Lines", b.Name())
	}
	return bk.Backup(ctx, spec, to)
}

// pick returns the backend of spec and its options from settings, validated.
func (r *Registry) pick(spec string, settings Settings) (Backend, Options, error) {
	b, err := r.Lookup(spec)
	if err != nil {
		return nil, nil, err
	}
	opts := settings[b.Name()]
	if opts != nil {
		if err := opts.Validate(); err != nil {
			return nil, nil, err
		}
	}
	return b, opts, nil
}

// Settings holds each backend's options by its Name, as Registry.Flags returned them; a backend
// without an entry (or a nil Settings, as in-process callers pass) takes its defaults.
type Settings map[string]Options

// Validate validates every backend's options, so that a setting that cannot work stops a command
// whatever its store.
func (s Settings) Validate() error {
	names := make([]string, 0, len(s))
	for name := range s {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := s[name].Validate(); err != nil {
			return err
		}
	}
	return nil
}
