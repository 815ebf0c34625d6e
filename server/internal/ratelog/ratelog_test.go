package ratelog_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/internal/ratelog"
	"github.com/contactsync/contactsync/server/internal/testsupport"
)

func TestLogsOncePerIntervalWithCount(t *testing.T) {
	var out bytes.Buffer
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	l := ratelog.New(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: dropTime})), 10*time.Second)
	l.SetClock(func() time.Time { return now })
	ctx := context.Background()

	steps := []struct {
		advance time.Duration
		key     string
		logged  bool
	}{
		{0, "full", true},
		{time.Second, "full", false},
		{time.Second, "full", false},
		{0, "readonly", true}, // another key has its own interval
		{8 * time.Second, "full", true},
		{time.Second, "full", false},
		{10 * time.Second, "full", true},
	}
	for i, s := range steps {
		now = now.Add(s.advance)
		assert.Equal(t, s.logged, l.Log(ctx, slog.LevelError, s.key, "store cannot write", "cause", s.key), "step %d", i)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 4)
	assert.Equal(t, `level=ERROR msg="store cannot write" cause=full`, lines[0])
	assert.Equal(t, `level=ERROR msg="store cannot write" cause=readonly`, lines[1])
	assert.Equal(t, `level=ERROR msg="store cannot write" cause=full repeated=2`, lines[2])
	assert.Equal(t, `level=ERROR msg="store cannot write" cause=full repeated=1`, lines[3])

	now = now.Add(time.Second)
	l.Log(ctx, slog.LevelError, "full", "store cannot write")
	l.Log(ctx, slog.LevelError, "full", "store cannot write")
	assert.Equal(t, 2, l.Pending("full"))
	assert.Equal(t, 0, l.Pending("full"), "Pending resets")
	assert.Equal(t, 0, l.Pending("unknown"))
}

func TestKeysAreBounded(t *testing.T) {
	var out bytes.Buffer
	l := ratelog.New(slog.New(slog.NewTextHandler(&out, nil)), time.Hour)
	for i := range 10000 {
		assert.True(t, l.Log(context.Background(), slog.LevelWarn, fmt.Sprint("k", i), "m"), "a new key is logged")
	}
	assert.Equal(t, 10000, strings.Count(out.String(), "\n"))
}

func dropTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// TestConcurrentUse: many goroutines logging one event at once write one line; the rest are counted.
func TestConcurrentUse(t *testing.T) {
	var out testsupport.SyncBuffer
	l := ratelog.New(slog.New(slog.NewTextHandler(&out, nil)), time.Hour)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { l.Log(context.Background(), slog.LevelError, "k", "m") })
	}
	wg.Wait()
	assert.Equal(t, 1, strings.Count(out.String(), "\n"))
	assert.Equal(t, 49, l.Pending("k"))
}
