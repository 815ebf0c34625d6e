// Command skipreport reads the `go test -json` events that `make test` keeps (gotestsum's --jsonfile)
// and lists every skipped test with its reason, the lines it logged before skipping. With
// -fail-on-skip (which .ci/run sets) it exits 1 when any test skipped, and in any case when no test
// ran at all: CI installs every tool the tests need, so a skip there means a check that did not run.
// A package without test files is not a skip.
//
// It imports only the standard library.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// event is the part of a test2json event the report reads.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// skip is one skipped test and the lines it logged (its reason).
type skip struct {
	pkg, test string
	reason    []string
}

// report is what the events say: the skipped tests in the order they ended, and how many tests ran.
type report struct {
	skips []skip
	ran   int
}

// read collects the skips and the count of tests that ended from the events in r; lines that are
// not JSON events (a build failure's text) are left out.
func read(r io.Reader) (report, error) {
	var rep report
	logged := map[[2]string][]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" {
			continue
		}
		key := [2]string{e.Package, e.Test}
		switch e.Action {
		case "output":
			line := strings.TrimSpace(e.Output)
			if line != "" && !strings.HasPrefix(line, "=== ") && !strings.HasPrefix(line, "--- ") {
				logged[key] = append(logged[key], line)
			}
		case "skip":
			rep.skips = append(rep.skips, skip{pkg: e.Package, test: e.Test, reason: logged[key]})
			rep.ran++
		case "pass", "fail":
			rep.ran++
		}
		if e.Action == "skip" || e.Action == "pass" || e.Action == "fail" {
			delete(logged, key)
		}
	}
	return rep, sc.Err()
}

// print writes the report: every skipped test with its reason, or that none skipped.
func (rep report) print(w io.Writer) {
	if len(rep.skips) == 0 {
		fmt.Fprintf(w, "skipreport: %d tests ended, none skipped\n", rep.ran)
		return
	}
	fmt.Fprintf(w, "skipreport: %d of %d tests skipped:\n", len(rep.skips), rep.ran)
	for _, s := range rep.skips {
		fmt.Fprintf(w, "  SKIP %s %s\n", s.pkg, s.test)
		for _, line := range s.reason {
			fmt.Fprintf(w, "       %s\n", line)
		}
	}
}

// failure says why the run fails under -fail-on-skip, or "" when it does not.
func (rep report) failure() string {
	switch {
	case rep.ran == 0:
		return "no test ran"
	case len(rep.skips) > 0:
		return fmt.Sprintf("%d tests skipped; with -fail-on-skip (CI) every test must run: install what they name", len(rep.skips))
	}
	return ""
}

func main() {
	failOnSkip := flag.Bool("fail-on-skip", false, "exit 1 when a test skipped or none ran (what .ci/run sets)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: skipreport [-fail-on-skip] FILE.json...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var all report
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "skipreport:", err)
			os.Exit(2)
		}
		rep, err := read(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "skipreport: %s: %v\n", name, err)
			os.Exit(2)
		}
		all.skips = append(all.skips, rep.skips...)
		all.ran += rep.ran
	}
	all.print(os.Stdout)
	if why := all.failure(); *failOnSkip && why != "" {
		fmt.Fprintln(os.Stderr, "skipreport:", why)
		os.Exit(1)
	}
}
