// Package storetest is the conformance suite for store.Store: every backend's tests call Run, so all
// backends are held to the same contract (the one documented on store.Store) and the server can treat
// them interchangeably. The suite is black-box: it uses only the store package's exported API.
package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/server/store"
)

// Run runs the conformance suite against the backend that open creates, as subtests of t.
//
// open is called once per subtest and must return a new, empty store usable for the whole subtest
// (failing t if it cannot). Run closes each store when its subtest ends and fails the subtest if
// Close fails, so open need not arrange that itself.
//
// A contact without roles may come back with a nil or an empty RoleIDs; the suite treats both alike,
// as contact documents. Only valid UTF-8 without NUL bytes is stored, because that is what the
// SOAP layer can carry and what every SQL backend accepts.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	for _, tc := range []struct {
		name string
		test func(t *testing.T, s cstore)
	}{
		{"ScanEmpty", testScanEmpty},
		{"ScanOrderAndContent", testScanOrderAndContent},
		{"ScanStopsAtError", testScanStopsAtError},
		{"ScanIsOneSnapshot", testScanSnapshot},
		{"WriteBatchUpsert", testWriteBatchUpsert},
		{"WriteBatchInsertOnly", testWriteBatchInsertOnly},
		{"WriteBatchEmpty", testWriteBatchEmpty},
		{"WriteBatchLarge", testWriteBatchLarge},
		{"Count", testCount},
		{"ArbitraryDocuments", testArbitraryDocuments},
		{"IndexFollowsWrites", testIndexFollowsWrites},
		{"ListByIndexPages", testListByIndexPages},
		{"ListByIndexStableUnderWrites", testListByIndexStable},
		{"PutGetRoundTrip", testPutGetRoundTrip},
		{"PutReplaces", testPutReplaces},
		{"GetUnknown", testGetUnknown},
		{"Update", testUpdate},
		{"UpdateUnknown", testUpdateUnknown},
		{"UpdateChangeError", testUpdateChangeError},
		{"Delete", testDelete},
		{"DeleteUnknown", testDeleteUnknown},
		{"NoAliasing", testNoAliasing},
		{"Ping", testPing},
		{"ProbeWrite", testProbeWrite},
		{"ConcurrentUpdatesLoseNothing", testConcurrentUpdates},
		{"ConcurrentMixNeverTorn", testConcurrentMix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			require.NotNil(t, s, "open returned a nil store")
			t.Cleanup(func() { assert.NoError(t, s.Close(), "Close") })
			tc.test(t, cstore{t: t, Store: s})
		})
	}
}

// full returns a contact with every field set, distinct per id.
func full(id string) contact {
	return contact{
		ID:           id,
		AccountID:    "account-" + id,
		FirstName:    "First " + id,
		LastName:     "Last " + id,
		PhoneMobile:  "+1 555 0100 " + id,
		PhoneWork:    "+1 555 0199 " + id,
		EmailAddress: id + "@example.com",
		RoleIDs:      []string{"role-a-" + id, "role-b-" + id},
	}
}

// normalized returns c with an empty RoleIDs turned into nil, since the two are equivalent.
func normalized(c contact) contact {
	if len(c.RoleIDs) == 0 {
		c.RoleIDs = nil
	}
	return c
}

// requireContact fails t unless got equals want, treating nil and empty RoleIDs alike.
func requireContact(t *testing.T, want, got contact, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, normalized(want), normalized(got), msgAndArgs...)
}

// requireStored fails t unless the store holds want under want.ID.
func requireStored(t *testing.T, s cstore, want contact) {
	t.Helper()
	got, err := s.get(t.Context(), want.ID)
	require.NoError(t, err, "Get(%q)", want.ID)
	requireContact(t, want, got, "Get(%q)", want.ID)
}

// requireNotFound fails t unless err reports store.ErrNotFound.
func requireNotFound(t *testing.T, err error, op string) {
	t.Helper()
	require.Error(t, err, "%s of an unknown id succeeded", op)
	require.ErrorIs(t, err, store.ErrNotFound, "%s of an unknown id", op)
}

func testPutGetRoundTrip(t *testing.T, s cstore) {
	manyRoles := make([]string, 200)
	for i := range manyRoles {
		// Descending and not zero-padded, so a backend that sorts in any way is caught.
		manyRoles[i] = fmt.Sprintf("role-%d", len(manyRoles)-i)
	}
	tricky := `<tag attr="v">&amp; 'quoted' "double"</tag> ]]> <![CDATA[x]]>`
	for _, tc := range []struct {
		name string
		c    contact
	}{
		{"AllFields", full("c1")},
		{"EmptyStrings", contact{ID: "c2"}},
		{"NilRoles", contact{ID: "c3", FirstName: "Ann", RoleIDs: nil}},
		{"EmptyRoles", contact{ID: "c4", FirstName: "Ann", RoleIDs: []string{}}},
		{"OneRole", contact{ID: "c5", RoleIDs: []string{"only"}}},
		{"ManyRolesOrderKept", contact{ID: "c6", RoleIDs: manyRoles}},
		{"Unicode", contact{
			ID:           "ünïcødé-🙂-ид",
			AccountID:    "账户-١٢٣",
			FirstName:    "Zoë 👩‍👩‍👧‍👦",
			LastName:     "O'Brien-Łukasiewicz 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
			PhoneMobile:  "＋４９ ３０ １２３",
			PhoneWork:    "\u200b\u202eRTL override\u202c e\u0301 (combining)",
			EmailAddress: "δοκιμή@παράδειγμα.δοκιμή",
			RoleIDs:      []string{"rôle-🚀", "роль", "役割", `"quoted", [bracketed]`},
		}},
		{"MarkupCharacters", contact{
			ID:           `id<>&"'`,
			AccountID:    tricky,
			FirstName:    "<",
			LastName:     ">",
			PhoneMobile:  "&",
			PhoneWork:    `"`,
			EmailAddress: "'",
			RoleIDs:      []string{"<", ">", "&", `"`, "'", tricky, `\`, `\u003c`},
		}},
		{"WhitespaceKept", contact{
			ID:           " spaced id ",
			FirstName:    "  leading and trailing  ",
			LastName:     "tab\there",
			PhoneMobile:  "line\nbreak\r\n",
			EmailAddress: " ",
			RoleIDs:      []string{" ", "", "  x  "},
		}},
		{"LongValues", contact{
			ID:        strings.Repeat("i", 1000),
			FirstName: strings.Repeat("名", 10000),
			RoleIDs:   []string{strings.Repeat("r", 5000)},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, s.put(t.Context(), tc.c))
			got, err := s.get(t.Context(), tc.c.ID)
			require.NoError(t, err)
			requireContact(t, tc.c, got)
			// Byte-exactness, spelled out, so a failure names the field.
			assert.Equal(t, []byte(tc.c.FirstName), []byte(got.FirstName), "FirstName bytes")
			assert.Equal(t, len(tc.c.RoleIDs), len(got.RoleIDs), "number of RoleIDs")
		})
	}
}

func testPutReplaces(t *testing.T, s cstore) {
	ctx := t.Context()
	first := full("c1")
	first.RoleIDs = []string{"r1", "r2", "r3"}
	other := full("c2")
	require.NoError(t, s.put(ctx, first))
	require.NoError(t, s.put(ctx, other))

	second := contact{ID: "c1", FirstName: "Replaced", RoleIDs: []string{"r9"}}
	require.NoError(t, s.put(ctx, second))
	requireStored(t, s, second) // Every field replaced, not merged.
	requireStored(t, s, other)

	third := contact{ID: "c1", FirstName: "No roles"}
	require.NoError(t, s.put(ctx, third))
	requireStored(t, s, third)
}

func testGetUnknown(t *testing.T, s cstore) {
	require.NoError(t, s.put(t.Context(), full("known")))
	for _, id := range []string{"unknown", "", "KNOWN", "known ", "know"} {
		_, err := s.get(t.Context(), id)
		requireNotFound(t, err, fmt.Sprintf("Get(%q)", id))
	}
}

func testUpdate(t *testing.T, s cstore) {
	ctx := t.Context()
	before := full("c1")
	require.NoError(t, s.put(ctx, before))
	require.NoError(t, s.put(ctx, full("c2")))

	calls := 0
	got, err := s.update(ctx, "c1", func(c contact) (contact, error) {
		calls++
		requireContact(t, before, c, "change received")
		c.FirstName = "Changed 🙂"
		c.RoleIDs = append(slices.Clone(c.RoleIDs), "added")
		return c, nil
	})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, calls, 1, "change was not called")

	want := before
	want.FirstName = "Changed 🙂"
	want.RoleIDs = append(slices.Clone(before.RoleIDs), "added")
	requireContact(t, want, got, "Update's result")
	requireStored(t, s, want)
	requireStored(t, s, full("c2"))

	// Clearing the roles is an update like any other.
	got, err = s.update(ctx, "c1", func(c contact) (contact, error) {
		c.RoleIDs = nil
		return c, nil
	})
	require.NoError(t, err)
	want.RoleIDs = nil
	requireContact(t, want, got)
	requireStored(t, s, want)
}

func testUpdateUnknown(t *testing.T, s cstore) {
	require.NoError(t, s.put(t.Context(), full("known")))
	called := false
	_, err := s.update(t.Context(), "unknown", func(c contact) (contact, error) {
		called = true
		return c, nil
	})
	requireNotFound(t, err, "Update")
	assert.False(t, called, "change was called for an unknown id")
	_, err = s.get(t.Context(), "unknown")
	requireNotFound(t, err, "Get after Update")
}

func testUpdateChangeError(t *testing.T, s cstore) {
	before := full("c1")
	require.NoError(t, s.put(t.Context(), before))
	errRefused := errors.New("change refused")
	_, err := s.update(t.Context(), "c1", func(c contact) (contact, error) {
		// Return a modified record as well: it must still not be stored.
		c.FirstName = "must not be stored"
		c.RoleIDs = append(c.RoleIDs, "must not be stored")
		return c, errRefused
	})
	require.ErrorIs(t, err, errRefused)
	requireStored(t, s, before)
}

func testDelete(t *testing.T, s cstore) {
	ctx := t.Context()
	c := full("c1")
	require.NoError(t, s.put(ctx, c))
	require.NoError(t, s.put(ctx, full("c2")))

	removed, err := s.delete(ctx, "c1")
	require.NoError(t, err)
	requireContact(t, c, removed, "Delete's result")
	_, err = s.get(ctx, "c1")
	requireNotFound(t, err, "Get after Delete")
	_, err = s.delete(ctx, "c1")
	requireNotFound(t, err, "second Delete")
	requireStored(t, s, full("c2"))

	// The id can be used again.
	require.NoError(t, s.put(ctx, c))
	requireStored(t, s, c)
}

func testDeleteUnknown(t *testing.T, s cstore) {
	require.NoError(t, s.put(t.Context(), full("known")))
	_, err := s.delete(t.Context(), "unknown")
	requireNotFound(t, err, "Delete")
	requireStored(t, s, full("known"))
}

// testNoAliasing checks that the store shares no Doc backing array with its callers: changing a
// document's bytes after Put, one returned by Get, Update, Delete, ListByIndex or Scan, or the one
// change received (even in place) changes nothing stored.
func testNoAliasing(t *testing.T, s cstore) {
	ctx := t.Context()
	want := full("c1")
	mutate := func(r store.Record) {
		for i := range r.Doc {
			r.Doc[i] = ' '
		}
	}

	r := record(want)
	require.NoError(t, s.Put(ctx, r))
	mutate(r)
	requireStored(t, s, want)

	got, err := s.Get(ctx, "c1")
	require.NoError(t, err)
	mutate(got)
	requireStored(t, s, want)

	errRefused := errors.New("refused")
	_, err = s.Update(ctx, "c1", func(r store.Record) (store.Record, error) {
		mutate(r)
		return r, errRefused
	})
	require.ErrorIs(t, err, errRefused)
	requireStored(t, s, want)

	var changed store.Record
	got, err = s.Update(ctx, "c1", func(r store.Record) (store.Record, error) {
		changed = r
		return record(want), nil
	})
	require.NoError(t, err)
	mutate(got)
	mutate(changed)
	requireStored(t, s, want)

	list, err := s.ListByIndex(ctx, want.AccountID, "", 10)
	require.NoError(t, err)
	require.Len(t, list, 1)
	mutate(list[0])
	require.NoError(t, s.Scan(ctx, func(r store.Record) error { mutate(r); return nil }))
	requireStored(t, s, want)

	got, err = s.Delete(ctx, "c1")
	require.NoError(t, err)
	mutate(got)
	require.NoError(t, s.put(ctx, want))
	requireStored(t, s, want)
}

func testPing(t *testing.T, s cstore) {
	require.NoError(t, s.Ping(t.Context()))
	require.NoError(t, s.put(t.Context(), full("c1")))
	require.NoError(t, s.Ping(t.Context()))
}

// testProbeWrite: every backend probes its own writability (Store.ProbeWrite, which /readyz uses to
// bring an instance back once its disk has room again); a healthy store passes the probe, again and
// again and alongside writes, and the probe changes no contact.
func testProbeWrite(t *testing.T, s cstore) {
	p := s.Store
	require.NoError(t, p.ProbeWrite(t.Context()))
	require.NoError(t, s.put(t.Context(), full("c1")))
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() { assert.NoError(t, p.ProbeWrite(t.Context())) })
		wg.Go(func() { assert.NoError(t, s.put(t.Context(), full(fmt.Sprint("p", i)))) })
	}
	wg.Wait()
	requireStored(t, s, full("c1"))
	_, err := s.get(t.Context(), "1")
	requireNotFound(t, err, "Get after probes")
}

// testConcurrentUpdates has many goroutines each append distinct role ids to one contact through
// Update; a lost update would drop some of them, a retried-and-doubled one would repeat some.
func testConcurrentUpdates(t *testing.T, s cstore) {
	const workers, perWorker = 8, 50
	ctx := t.Context()
	base := full("shared")
	base.RoleIDs = []string{"initial"}
	require.NoError(t, s.put(ctx, base))

	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				role := fmt.Sprintf("w%d-%d", w, i)
				got, err := s.update(ctx, "shared", func(c contact) (contact, error) {
					c.RoleIDs = append(slices.Clone(c.RoleIDs), role)
					return c, nil
				})
				if err != nil {
					errs <- fmt.Errorf("calling Update to add %s: %w", role, err)
					continue
				}
				if !slices.Contains(got.RoleIDs, role) {
					errs <- fmt.Errorf("calling Update to add %s returned roles without it", role)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}

	got, err := s.get(ctx, "shared")
	require.NoError(t, err)
	require.Len(t, got.RoleIDs, 1+workers*perWorker, "roles after all updates")
	assert.Equal(t, "initial", got.RoleIDs[0])
	seen := make(map[string]int)
	for _, r := range got.RoleIDs {
		seen[r]++
	}
	for w := range workers {
		last := -1
		for i := range perWorker {
			role := fmt.Sprintf("w%d-%d", w, i)
			assert.Equal(t, 1, seen[role], "occurrences of %s", role)
			// One worker's updates are sequential, so they must appear in its order.
			at := slices.Index(got.RoleIDs, role)
			assert.Greater(t, at, last, "%s is out of order", role)
			last = at
		}
	}
	got.RoleIDs = base.RoleIDs
	requireContact(t, base, got, "fields other than RoleIDs changed")
}

// version is the complete record the concurrent mix writes as version v of id: every field, and the
// number and content of the roles, depend on v, so a record mixing two writes is recognizable.
func version(id string, v int) contact {
	tag := fmt.Sprintf("%s/v%d", id, v)
	roles := make([]string, v%7)
	for i := range roles {
		roles[i] = fmt.Sprintf("%s/role%d", tag, i)
	}
	return contact{
		ID:           id,
		AccountID:    "acct " + tag,
		FirstName:    "first " + tag,
		LastName:     "last " + tag,
		PhoneMobile:  "mobile " + tag,
		PhoneWork:    "work " + tag,
		EmailAddress: "mail " + tag,
		RoleIDs:      roles,
	}
}

// whole reports whether c is exactly one of the versions version(c.ID, v) for 0 <= v < limit.
func whole(c contact, limit int) bool {
	digits, ok := strings.CutPrefix(c.FirstName, "first "+c.ID+"/v")
	if !ok {
		return false
	}
	v, err := strconv.Atoi(digits)
	if err != nil || v < 0 || v >= limit {
		return false
	}
	want := version(c.ID, v)
	return c.AccountID == want.AccountID && c.FirstName == want.FirstName && c.LastName == want.LastName &&
		c.PhoneMobile == want.PhoneMobile && c.PhoneWork == want.PhoneWork &&
		c.EmailAddress == want.EmailAddress && slices.Equal(normalized(c).RoleIDs, normalized(want).RoleIDs)
}

// testConcurrentMix runs writers, readers and deleters on a few ids at once and checks that every
// record any of them sees is one complete version, never a mix of two writes.
func testConcurrentMix(t *testing.T, s cstore) {
	const (
		ids      = 3
		writers  = 4
		readers  = 4
		deleters = 2
		rounds   = 60
	)
	ctx := t.Context()
	limit := writers * rounds
	idOf := func(i int) string { return fmt.Sprintf("mix-%d", i%ids) }

	var wg sync.WaitGroup
	problems := make(chan string, 64)
	report := func(format string, args ...any) {
		select {
		case problems <- fmt.Sprintf(format, args...):
		default: // Enough problems recorded already.
		}
	}
	check := func(op string, c contact, err error) {
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			report("%s: %v", op, err)
		case !whole(c, limit):
			report("%s returned a torn record: %+v", op, c)
		}
	}
	for w := range writers {
		wg.Go(func() {
			for r := range rounds {
				v := w*rounds + r
				if err := s.put(ctx, version(idOf(v), v)); err != nil {
					report("Put: %v", err)
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	var others sync.WaitGroup
	for r := range readers {
		others.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				id := idOf(r + i)
				c, err := s.get(ctx, id)
				check("Get("+id+")", c, err)
			}
		})
	}
	for d := range deleters {
		others.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				id := idOf(d + i)
				c, err := s.delete(ctx, id)
				check("Delete("+id+")", c, err)
			}
		})
	}
	others.Wait()
	close(problems)
	for p := range problems {
		assert.Fail(t, p)
	}

	// Whatever survived is whole too.
	for i := range ids {
		c, err := s.get(ctx, idOf(i))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		require.NoError(t, err)
		assert.True(t, whole(c, limit), "final Get returned a torn record: %+v", c)
	}
}
