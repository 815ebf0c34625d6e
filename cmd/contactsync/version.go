package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/contactsync/contactsync/server/service"
	"github.com/spf13/cobra"
)

// The build's identity, stamped by `make build` and `make release` with
//
//	-ldflags "-X main.version=… -X main.commit=… -X main.date=…"
//
// A build that is not stamped (go install, go run, go build) leaves them empty, and buildInfo falls
// back to what the Go toolchain recorded: a module version for `go install module@version`, the VCS
// revision when the build had VCS stamping on; "devel" otherwise.
var (
	version string
	commit  string
	date    string
)

// build describes the running binary.
type build struct {
	Version  string // a release version, a git describe string, or "devel"
	Commit   string // the commit it was built from; empty when unknown
	Date     string // when it was built (RFC 3339, UTC); empty when unknown
	Go       string // the Go version it was built with
	Platform string // GOOS/GOARCH
}

// currentBuild returns the running binary's build description.
func currentBuild() build {
	b := build{Version: version, Commit: commit, Date: date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && b.Commit == "":
				b.Commit = s.Value
			case s.Key == "vcs.time" && b.Date == "":
				b.Date = s.Value
			}
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

// String is the line `contactsync --version` prints, e.g.
// "contactsync 1.4.0 (commit 0a1b2c3d4e5f, built 2026-11-25T10:00:00Z, go1.26.8, linux/amd64)".
func (b build) String() string {
	s := "contactsync " + b.Version + " ("
	if b.Commit != "" {
		s += "commit " + b.Commit + ", "
	}
	if b.Date != "" {
		s += "built " + b.Date + ", "
	}
	return s + b.Go + ", " + b.Platform + ")"
}

// versionTemplate is what --version prints: the build line and the contract's version, which is the
// service's answer to its Version operation and changes only with the contract.
func versionTemplate() string {
	return currentBuild().String() + "\nservice contract version " + service.Version + "\n"
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the program's version, commit and build date, and the service contract's version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprint(cmd.OutOrStdout(), versionTemplate())
			return err
		},
	}
}
