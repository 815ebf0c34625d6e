package main

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/store/stores"
)

// A reload (SIGHUP, which `systemctl reload` sends through the unit's ExecReload) re-reads the
// settings (config file, environment, command line), the users file and the TLS certificate and key,
// and applies what can change without re-binding a listener or reopening the store: the users, the
// certificate (from the next handshake on), the key and certificate paths and --log-level. Everything
// is read and checked before anything is swapped, so a reload that fails keeps the running
// configuration whole. Requests in flight and open connections are untouched: what a reload swaps is
// read through atomic pointers (one load per request or handshake), never by stopping the server.
// Every other setting is read and validated too, and one that changed is logged as needing a
// restart, on every reload until the restart. docs/configuration.md lists which settings reload.

// reloadableSettings are the settings a reload applies; any other that changed needs a restart.
// users-file and the TLS files reload while authentication and TLS stay on: turning either on or
// off changes what the listener and the handler were built with.
var reloadableSettings = map[string]bool{"users-file": true, "tls-cert": true, "tls-key": true, "log-level": true}

// reloader re-reads and applies serve's settings. It runs on serve's own goroutine, one reload at a
// time; the metrics read its outcome atomically.
type reloader struct {
	logger *slog.Logger
	// settings re-reads the settings, as at start (nil: the options serve started with, so that
	// in-process callers without a command line reload the files only).
	settings func() (serveOptions, error)
	// running are the options in effect; values are the settings' values as text by flag name, as
	// started with and as reloads changed the reloadable ones (nil for in-process callers).
	running serveOptions
	values  map[string]string
	auth    *auth.Authenticator // nil: authentication off
	cert    *servedCertificate  // nil: plain HTTP
	level   *slog.LevelVar      // nil: the level cannot change (in-process callers with a fixed logger)
	// done, when set, is called after each reload with its error. Tests use it to wait for one.
	done func(error)

	successful  atomic.Bool
	lastSuccess atomic.Int64 // Unix nanoseconds of the start or the last successful reload
}

// newReloader returns the reloader of a serve started with opts and front.
func newReloader(opts serveOptions, front serveFront, logger *slog.Logger) *reloader {
	r := &reloader{logger: logger, settings: opts.reloadSettings, running: opts, values: opts.settingValues,
		auth: front.auth, cert: front.cert, level: opts.logLevel, done: opts.reloaded}
	r.successful.Store(true)
	r.lastSuccess.Store(time.Now().UnixNano())
	return r
}

// register exports the outcome of the last reload under Prometheus' own names for it, so the alerts
// written for Prometheus and Alertmanager (…_last_reload_successful == 0) apply unchanged.
func (r *reloader) register(reg prometheus.Registerer) {
	reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "contactsync_config_last_reload_successful",
			Help: "Whether the last configuration reload (SIGHUP) succeeded: 1, or 0 while the running configuration is kept after a failed one.",
		}, func() float64 {
			if r.successful.Load() {
				return 1
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "contactsync_config_last_reload_success_timestamp_seconds",
			Help: "When the configuration was last loaded successfully, at start or by a reload, in seconds since the Unix epoch.",
		}, func() float64 { return float64(r.lastSuccess.Load()) / 1e9 }),
	)
}

// reload re-reads the settings and files and applies them, or keeps the running configuration and
// says why.
func (r *reloader) reload() {
	r.logger.Info("reloading the configuration (SIGHUP)")
	err := r.apply()
	if err != nil {
		r.successful.Store(false)
		r.logger.Error("reload failed: the running configuration is kept", "error", err)
	} else {
		r.successful.Store(true)
		r.lastSuccess.Store(time.Now().UnixNano())
	}
	if r.done != nil {
		r.done(err)
	}
}

// change is one difference a reload found, for the log.
type change struct {
	setting, from, to string
}

// apply reads and checks everything first, then swaps and logs what changed.
func (r *reloader) apply() error {
	next := r.running
	if r.settings != nil {
		var err error
		if next, err = r.settings(); err != nil {
			return err
		}
	}
	if err := checkServeOptions(&next); err != nil {
		return err
	}
	if err := next.auth.validate(); err != nil {
		return err
	}
	var restart []change
	if r.values != nil && next.settingValues != nil {
		for _, name := range slices.Sorted(maps.Keys(next.settingValues)) {
			from, to := r.values[name], next.settingValues[name]
			if from != to && !reloadableSettings[name] {
				restart = append(restart, change{name, shown(name, from), shown(name, to)})
			}
		}
	}

	var users *auth.Users
	switch on := next.auth.usersFile != ""; {
	case on && r.auth != nil:
		var err error
		if users, err = next.auth.loadUsers(r.logger); err != nil {
			return err
		}
	case on != (r.auth != nil):
		restart = append(restart, change{"users-file", r.running.auth.usersFile, next.auth.usersFile})
	}
	var cert *tls.Certificate
	switch on := next.tls.enabled(); {
	case on && r.cert != nil:
		var err error
		if cert, err = next.tls.loadKeyPair(); err != nil {
			return err
		}
	case on != (r.cert != nil):
		restart = append(restart, change{"tls-cert", r.running.tls.certFile, next.tls.certFile})
	}
	level := r.currentLevel()
	if r.level != nil && next.log.level.value != "" {
		if err := level.UnmarshalText([]byte(next.log.level.value)); err != nil {
			return fmt.Errorf("--log-level: %w", err)
		}
	}

	// Everything read and valid: swap. The log lines are written while the more verbose of the old
	// and the new level is in effect, so a reload that quietens the log still says what it did.
	old := r.currentLevel()
	if r.level != nil {
		r.level.Set(min(old, level))
	}
	changes := 0
	if level != old {
		changes++
		r.logger.Info("reload: log level changed", "setting", "log-level", "from", strings.ToLower(old.String()), "to", strings.ToLower(level.String()))
	}
	if users != nil {
		added, removed, changed := diffUsers(r.auth.Users(), users)
		r.auth.SetUsers(users)
		if len(added)+len(removed)+len(changed) > 0 || next.auth.usersFile != r.running.auth.usersFile {
			changes++
			r.logger.Info("reload: users file re-read", "users_file", next.auth.usersFile, "users", users.Len(),
				"added", strings.Join(added, ","), "removed", strings.Join(removed, ","), "password_changed", strings.Join(changed, ","))
		}
	}
	if cert != nil {
		previous := r.cert.current.Swap(cert)
		if !sameCertificate(previous, cert) || next.tls != r.running.tls {
			changes++
			r.logger.Info("reload: TLS certificate replaced; new handshakes present it", append([]any{"tls_cert", next.tls.certFile}, describeCertificate(cert)...)...)
		}
	}
	for _, c := range restart {
		r.logger.Warn("reload: a setting changed that takes effect only at the next restart; the running value is kept",
			"setting", c.setting, "running", c.from, "configured", c.to)
	}
	r.logger.Info("configuration reloaded", "changes", changes, "need_restart", len(restart))
	if r.level != nil {
		r.level.Set(level)
	}

	// The reloadable settings now run with their new values; the others keep theirs, and are
	// reported again by the next reload until a restart applies them.
	r.running.auth.usersFile, r.running.tls, r.running.log.level = next.auth.usersFile, next.tls, next.log.level
	if r.values != nil && next.settingValues != nil {
		for name := range reloadableSettings {
			r.values[name] = next.settingValues[name]
		}
	}
	return nil
}

// currentLevel is the level in effect (info when it cannot change).
func (r *reloader) currentLevel() slog.Level {
	if r.level == nil {
		return slog.LevelInfo
	}
	return r.level.Level()
}

// shown is a setting's value as the log may show it: a --store value with its password masked.
func shown(name, value string) string {
	if name == "store" {
		return stores.Registry.Redact(value)
	}
	return value
}

// diffUsers names the users a new users file adds, removes, and whose password (or digest secret)
// it changes: names only, never a secret.
func diffUsers(before, after *auth.Users) (added, removed, changed []string) {
	for _, name := range after.Names() {
		was, is := before.Lookup(name), after.Lookup(name)
		switch {
		case was == nil:
			added = append(added, name)
		case !bytes.Equal(was.Hash, is.Hash) || !bytes.Equal(was.DigestSecret, is.DigestSecret):
			changed = append(changed, name)
		}
	}
	for _, name := range before.Names() {
		if after.Lookup(name) == nil {
			removed = append(removed, name)
		}
	}
	return added, removed, changed
}

// sameCertificate reports whether two key pairs hold the same certificate chain.
func sameCertificate(a, b *tls.Certificate) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.EqualFunc(a.Certificate, b.Certificate, bytes.Equal)
}
