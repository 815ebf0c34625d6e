// Command patched builds contactsync from a scratch copy of the module with contract-evolution patches
// applied (package patching), for the interop suite's patched server:
//
//	go run ./tools/contractevo/cmd/patched -patch 09-out-ref -patch 13-header-op -o DIR/contactsync
//	go run ./tools/contractevo/cmd/patched -list tools/interop/patches -o DIR/contactsync
//
// It runs from the module root (or -root). The scratch copy is removed afterwards unless -work names it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/contactsync/contactsync/tools/contractevo/patching"
)

// patchList is a repeatable -patch flag.
type patchList []string

func (p *patchList) String() string     { return strings.Join(*p, ",") }
func (p *patchList) Set(v string) error { *p = append(*p, v); return nil }

func main() {
	var patches patchList
	flag.Var(&patches, "patch", "a patch directory under "+patching.PatchesDir+" (repeatable; applied in order)")
	list := flag.String("list", "", "a file listing patches, one a line (# comments), applied before any -patch")
	out := flag.String("o", "", "where to write the patched contactsync binary (required)")
	root := flag.String("root", ".", "the module root to copy")
	work := flag.String("work", "", "the scratch copy's directory, kept (default: a temporary directory, removed)")
	flag.Parse()
	if *list != "" {
		listed, err := patching.ReadList(*list)
		if err != nil {
			fmt.Fprintln(os.Stderr, "patched:", err)
			os.Exit(1)
		}
		patches = append(listed, patches...)
	}
	if *out == "" || len(patches) == 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: patched [-list FILE] [-patch NAME...] -o BINARY [-root DIR] [-work DIR]")
		os.Exit(2)
	}
	if err := run(*root, *work, *out, patches); err != nil {
		fmt.Fprintln(os.Stderr, "patched:", err)
		os.Exit(1)
	}
}

func run(root, work, out string, patches []string) error {
	dir := work
	if dir == "" {
		tmp, err := os.MkdirTemp("", "contactsync-patched-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	b := &patching.Build{Root: root, Dir: dir, Patches: patches, Out: out}
	return b.Run(context.Background())
}
