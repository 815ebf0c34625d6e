package wsdlgen

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/hooklift/gowsdl"
)

// gowsdlMu serialises RunGowsdl, which borrows process-wide state (the standard logger, GOMAXPROCS).
var gowsdlMu sync.Mutex

// RunGowsdl runs the gowsdl library (github.com/hooklift/gowsdl, the version go.mod pins) on a WSDL
// document, with exported types, and returns its code sections by name ("header", "types",
// "operations"). It is the default Options.Gowsdl.
//
// gowsdl needs a file path, so the document goes to a temporary file; a schema include or import with
// a relative schemaLocation would therefore not resolve, and the contract has none.
//
// gowsdl reports problems only on the standard logger (and then carries on), so RunGowsdl captures that
// output while the library runs and turns anything except its "Reading file" progress line into an
// error: a warning such as "message doesn't have any parts" means broken output, not noise.
//
// gowsdl v0.5.0's Start writes its result map from two goroutines without synchronisation
// (gowsdl.go:134 and :145), a data race that can abort the process with "concurrent map writes".
// RunGowsdl sets GOMAXPROCS to 1 while the library runs, so those goroutines do not run in parallel.
// The race detector still reports the race, because it tracks ordering rather than timing; that is why
// the tests drive the library only through the built command, not in the -race test binary.
func RunGowsdl(wsdl []byte, pkg string) (map[string][]byte, error) {
	gowsdlMu.Lock()
	defer gowsdlMu.Unlock()

	dir, err := os.MkdirTemp("", "gowsdlgen-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "view.wsdl")
	if err := os.WriteFile(path, wsdl, 0o600); err != nil {
		return nil, err
	}

	var logged bytes.Buffer
	w, flags, prefix := log.Writer(), log.Flags(), log.Prefix()
	log.SetOutput(&logged) // log.Logger serialises writes, so the library's goroutines may share it
	log.SetFlags(0)
	log.SetPrefix("")
	defer func() {
		log.SetOutput(w)
		log.SetFlags(flags)
		log.SetPrefix(prefix)
	}()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))

	g, err := gowsdl.NewGoWSDL(path, pkg, false, true)
	if err != nil {
		return nil, fmt.Errorf("gowsdl: %w", err)
	}
	code, err := g.Start()
	if err != nil {
		return nil, fmt.Errorf("gowsdl: %w", err)
	}
	var problems []string // gowsdl repeats a warning each time a template looks the message up
	for line := range strings.Lines(logged.String()) {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "Reading file ") && !slices.Contains(problems, line) {
			problems = append(problems, line)
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("gowsdl reported problems with the SOAP view:\n\t%s", strings.Join(problems, "\n\t"))
	}
	return code, nil
}
