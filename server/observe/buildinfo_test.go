package observe_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/observe"
)

// TestBuildInfo: contactsync_build_info is one series of value 1 whose labels are the build's, an
// unknown commit included as an empty label.
func TestBuildInfo(t *testing.T) {
	cases := []struct {
		name string
		b    observe.BuildInfo
		want string
	}{
		{"release", observe.BuildInfo{Version: "1.4.0", Commit: "0a1b2c3d", GoVersion: "go1.26.8"},
			`contactsync_build_info{commit="0a1b2c3d",go_version="go1.26.8",version="1.4.0"} 1`},
		{"go install without VCS stamping", observe.BuildInfo{Version: "devel", GoVersion: "go1.26.8"},
			`contactsync_build_info{commit="",go_version="go1.26.8",version="devel"} 1`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			observe.RegisterBuildInfo(reg, tc.b)
			want := "# HELP contactsync_build_info Always 1; the labels give the version, commit and Go version contactsync was built with.\n" +
				"# TYPE contactsync_build_info gauge\n" + tc.want + "\n"
			require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(want), "contactsync_build_info"))
		})
	}
}
