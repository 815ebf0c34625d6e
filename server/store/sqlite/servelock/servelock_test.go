package servelock_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store/sqlite/servelock"
)

// helperEnv makes the test binary a process that takes the lock of the database it names, says
// "locked" and waits to be killed: a second process, as a second serve would be.
const helperEnv = "SERVELOCK_TEST_HOLD"

func TestMain(m *testing.M) {
	if db := os.Getenv(helperEnv); db != "" {
		l, err := servelock.Acquire(db)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Stdout.WriteString("locked " + l.Path() + "\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// holdInAnotherProcess starts a process holding db's lock and returns it once it holds it.
func holdInAnotherProcess(t *testing.T, db string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+db)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(line, "locked "), line)
	return cmd
}

func TestSecondHolderIsRefusedNamingTheFirst(t *testing.T) {
	db := filepath.Join(t.TempDir(), "contacts.db")
	holder := holdInAnotherProcess(t, db)

	_, err := servelock.Acquire(db)
	var held *servelock.HeldError
	require.ErrorAs(t, err, &held)
	assert.Equal(t, holder.Process.Pid, held.Holder.PID)
	assert.Equal(t, db+servelock.Suffix, held.Lock)
	host, _ := os.Hostname()
	assert.Equal(t, host, held.Holder.Host)
	assert.WithinDuration(t, time.Now(), held.Holder.Started, time.Minute)
	assert.Contains(t, err.Error(), db)
	assert.Regexp(t, regexp.MustCompile(`pid \d+ on host `), err.Error())

	// The same file reached through a symbolic link to its directory is the same database.
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(filepath.Dir(db), link))
	_, err = servelock.Acquire(filepath.Join(link, "contacts.db"))
	require.ErrorAs(t, err, &held)
}

func TestLockOfAKilledHolderIsTakenOver(t *testing.T) {
	db := filepath.Join(t.TempDir(), "contacts.db")
	holder := holdInAnotherProcess(t, db)
	require.NoError(t, holder.Process.Kill())
	_ = holder.Wait()
	_, err := os.Stat(db + servelock.Suffix)
	require.NoError(t, err, "a killed holder leaves its lock file")

	l, err := servelock.Acquire(db)
	require.NoError(t, err, "the kernel released the killed holder's lock")
	require.NoError(t, l.Release())
}

func TestReleaseRemovesTheFileAndFreesTheLock(t *testing.T) {
	db := filepath.Join(t.TempDir(), "contacts.db")
	l, err := servelock.Acquire(db)
	require.NoError(t, err)

	// Within one process too: the lock is on the open file, not the process.
	_, err = servelock.Acquire(db)
	var held *servelock.HeldError
	require.ErrorAs(t, err, &held)
	assert.Equal(t, os.Getpid(), held.Holder.PID)

	require.NoError(t, l.Release())
	_, err = os.Stat(db + servelock.Suffix)
	assert.True(t, errors.Is(err, os.ErrNotExist), "the lock file is removed: %v", err)
	require.NoError(t, l.Release(), "a second release does nothing")

	again, err := servelock.Acquire(db)
	require.NoError(t, err)
	require.NoError(t, again.Release())
}

func TestMissingDirectoryIsAnError(t *testing.T) {
	_, err := servelock.Acquire(filepath.Join(t.TempDir(), "no", "such", "contacts.db"))
	require.Error(t, err)
	assert.True(t, errors.Is(err, os.ErrNotExist), "%v", err)
}

// TestBuildsForEveryReleaseTarget compiles the package for each platform `make release` builds, so the
// lock is known to exist on all of them; the package is small, so this costs seconds, where building
// the whole binary for six platforms would take minutes.
func TestBuildsForEveryReleaseTarget(t *testing.T) {
	makefile, err := os.ReadFile("../../../../Makefile")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^RELEASE_TARGETS = (.+)$`).FindSubmatch(makefile)
	require.NotNil(t, m, "the Makefile sets RELEASE_TARGETS")
	targets := strings.Fields(string(m[1]))
	require.NotEmpty(t, targets)
	for _, target := range targets {
		goos, goarch, ok := strings.Cut(target, "/")
		require.True(t, ok, target)
		cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "%s: %s", target, out)
	}
}
