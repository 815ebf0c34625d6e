package observe

import "github.com/prometheus/client_golang/prometheus"

// BuildInfo identifies the running binary, as `contactsync --version` prints it.
type BuildInfo struct {
	// Version is the release version, a git describe string, or "devel".
	Version string
	// Commit is the commit the binary was built from; empty when unknown.
	Commit string
	// GoVersion is the Go version it was built with (runtime.Version()).
	GoVersion string
}

// RegisterBuildInfo registers contactsync_build_info with reg: a gauge that is always 1, whose labels
// say which build is running, after Prometheus' own prometheus_build_info. A dashboard joins it to
// other series (`* on(instance) group_left(version) contactsync_build_info`) to tell a fleet's versions
// apart during a rollout. It is one series per process, its labels fixed at start, so it costs no
// request anything.
func RegisterBuildInfo(reg prometheus.Registerer, b BuildInfo) {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "contactsync_build_info",
		Help: "Always 1; the labels give the version, commit and Go version contactsync was built with.",
		ConstLabels: prometheus.Labels{
			"version":    b.Version,
			"commit":     b.Commit,
			"go_version": b.GoVersion,
		},
	})
	g.Set(1)
	reg.MustRegister(g)
}
