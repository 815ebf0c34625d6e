package docs

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/checkout"
)

// readmeBlocks returns the fenced code blocks of README.md's section titled heading, in order.
func readmeBlocks(t *testing.T, readme, heading string) []string {
	t.Helper()
	start := strings.Index(readme, "\n## "+heading+"\n")
	require.GreaterOrEqual(t, start, 0, "README has no section %q", heading)
	section := readme[start+len(heading)+5:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1) {
		blocks = append(blocks, m[1])
	}
	require.NotEmpty(t, blocks, "README's section %q has no sh block", heading)
	return blocks
}

// commands splits a block into its commands: a line ending in a backslash continues on the next.
func commands(block string) []string {
	var out []string
	var cur strings.Builder
	for line := range strings.SplitSeq(strings.TrimRight(block, "\n"), "\n") {
		cur.WriteString(line)
		if strings.HasSuffix(line, "\\") {
			cur.WriteString("\n")
			continue
		}
		out = append(out, cur.String())
		cur.Reset()
	}
	return out
}

// TestReadmeFirstSteps walks README's first blocks as written, on a clean checkout, as a new user
// would: the install block (go install and make build), `contactsync serve` from the run block, each
// request of "One request per binding" and the `call` line, each binding it names that serve offers by
// default. What it changes is only where things go, since tests run side by side: GOBIN is a
// directory of the test's (put first on PATH), serve listens on a free port rather than 8080
// (CONTACTSYNC_ADDR and CONTACTSYNC_BASE_URL, and "localhost:8080" in the request block becomes that
// port), and call is pointed at it with CONTACTSYNC_URL. `make test`, in the run block, is what is
// running this test, and is not run again.
func TestReadmeFirstSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary twice in a clean checkout; skipped with -short")
	}
	checkout.Need(t, "make", "Debian package make")
	checkout.Need(t, "curl", "Debian package curl")
	body, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	readme := string(body)

	dir := checkout.Clean(t)
	gobin := filepath.Join(t.TempDir(), "gobin")
	port := freePort(t)
	env := []string{"GOBIN=" + gobin, "PATH=" + gobin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"CONTACTSYNC_ADDR=:" + port, "CONTACTSYNC_BASE_URL=http://localhost:" + port,
		"CONTACTSYNC_URL=http://localhost:" + port + "/contactsync/v1/sync.asmx"}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(name, "CONTACTSYNC_") && name != "GOBIN" && name != "PATH" {
			env = append(env, kv)
		}
	}
	sh := func(command string) *exec.Cmd {
		cmd := exec.Command("sh", "-c", command)
		cmd.Dir, cmd.Env = dir, env
		return cmd
	}

	// Install: every command of the block, then both binaries say what they are.
	install := commands(readmeBlocks(t, readme, "Install")[0])
	require.Len(t, install, 2, "the install block: go install, make build")
	for _, c := range install {
		cmd := sh(c)
		if strings.HasPrefix(c, "make build") {
			// README: after go install, make build reuses the compiled packages (the same compile
			// flags); -x shows each compile it runs. Only the command's own package is compiled again.
			cmd.Env = append(cmd.Env, "GOFLAGS=-x")
		}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s\n%s", c, out)
		if strings.HasPrefix(c, "make build") {
			for line := range strings.SplitSeq(string(out), "\n") {
				if strings.Contains(line, "/compile ") && !strings.Contains(line, " -p main ") {
					t.Errorf("make build after go install compiled a package again (the install block's flags differ from the Makefile's): %.200s", line)
				}
			}
		}
	}
	for _, bin := range []string{filepath.Join(gobin, "contactsync"), filepath.Join(dir, "bin", "contactsync")} {
		out, err := exec.Command(bin, "--version").Output()
		require.NoError(t, err, bin)
		assert.Regexp(t, `^contactsync devel \(`, string(out), "%s: a build of a checkout without git says devel", bin)
	}

	// Run: serve as written, in the background, until it listens.
	var serveLine string
	for _, c := range commands(readmeBlocks(t, readme, "Run it, test it")[0]) {
		switch {
		case strings.HasPrefix(c, "contactsync serve"):
			serveLine = c
		case strings.HasPrefix(c, "make test"):
			t.Logf("not run again: %s", c)
		default:
			t.Errorf("the run block has a command this test does not know: %q", c)
		}
	}
	require.NotEmpty(t, serveLine)
	serve := sh("exec " + serveLine)
	serve.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logs, err := serve.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, serve.Start())
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	listening := make(chan struct{})
	var serveLog strings.Builder
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			serveLog.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "contactsync listening") {
				close(listening)
			}
		}
	}()
	select {
	case <-listening:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start listening within 30 s", serveLine)
	}
	_, err = os.Stat(filepath.Join(dir, "contactsync.db"))
	require.NoError(t, err, "README: contacts are in ./contactsync.db")

	// One request per binding: each request of the block, as written but for the port, and what each
	// must answer. A request this test does not know fails it, so the README cannot drift from it.
	checks := map[string][]string{
		"SOAP 1.1":     {"<TestCreateContactResponse ", "<Id>42</Id>"},
		"SOAP 1.2":     {"<ReadContactResponse ", "<Id>42</Id>"},
		"HTTP GET":     {"<Contact ", "<Id>42</Id>"},
		"HTTP POST":    {"<Contact ", "<Id>42</Id>"},
		"The contract": {"<wsdl:definitions ", `location="http://localhost:` + port + `/contactsync/v1/sync.asmx"`},
	}
	blocks := readmeBlocks(t, readme, "One request per binding")
	require.Len(t, blocks, 2, "the requests, then the call line")
	var prelude []string
	title := ""
	ran := map[string]bool{}
	for _, c := range commands(strings.ReplaceAll(blocks[0], "localhost:8080", "localhost:"+port)) {
		switch {
		case strings.TrimSpace(c) == "":
		case strings.HasPrefix(c, "# "):
			title = strings.TrimPrefix(c, "# ")
		case regexp.MustCompile(`^[A-Z]+=`).MatchString(c):
			prelude = append(prelude, c)
		default:
			var want []string
			for prefix, w := range checks {
				if strings.HasPrefix(title, prefix) {
					want = w
					ran[prefix] = true
				}
			}
			require.NotNil(t, want, "a request of README's block this test does not know, under %q: %s", title, c)
			out, err := sh(strings.Join(append(prelude, c), "\n")).CombinedOutput()
			require.NoError(t, err, "%s\n%s", c, out)
			assert.NotContains(t, string(out), "Fault", "%s: %s", title, out)
			for _, w := range want {
				assert.Contains(t, string(out), w, "%s: %s", title, out)
			}
		}
	}
	assert.Len(t, ran, len(checks), "every binding's request of the block ran")

	// The call line, as written, then with each other binding its comment lists that serve offers
	// by default (json is off unless --protocols lists it, as the README says).
	calls := commands(blocks[1])
	require.Len(t, calls, 1)
	m := regexp.MustCompile(`--binding (\S+)\s+#\s*(.+)$`).FindStringSubmatch(calls[0])
	require.NotNil(t, m, "the call line names its binding and lists the others in a comment: %s", calls[0])
	for _, b := range strings.Split(m[2], "|") {
		b = strings.TrimSpace(b)
		if b == "json" {
			continue
		}
		c := strings.Replace(calls[0], "--binding "+m[1], "--binding "+b, 1)
		out, err := sh(c).CombinedOutput()
		require.NoError(t, err, "%s\n%s", c, out)
		assert.Contains(t, string(out), "<ReadContactResponse ", c)
		assert.Contains(t, string(out), "<Id>42</Id>", c)
	}

	require.NoError(t, serve.Process.Signal(syscall.SIGTERM))
	require.NoError(t, serve.Wait(), "serve stops cleanly on SIGTERM:\n%s", serveLog.String())
}

// freePort returns a port that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", ":0")
	require.NoError(t, err)
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	require.NoError(t, err)
	return port
}
