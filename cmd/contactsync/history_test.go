package main

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/service"
)

// The history checker of the multi-instance tests: every call's invocation, completion and outcome are
// recorded, and the calls on each contact are checked for linearizability with porcupine
// (github.com/anishathalye/porcupine) against the sequential model of one contact.
//
// TestCreateContact and TestUpdateContact are deterministic, so a contact has exactly two valid records
// and a sequential history is a walk over three states: absent, created, updated.

// Record states of one contact.
const (
	absent = iota
	created
	updated
)

// stateNames names the record states in failure messages.
var stateNames = []string{absent: "absent", created: "created", updated: "updated"}

// outcome is how a call ended, as the client saw it.
type outcome string

const (
	answeredRecord outcome = "ok"          // answered with a whole valid record
	answeredAbsent outcome = "not-found"   // answered NotFound
	notApplied     outcome = "not-applied" // answered Unavailable (503): the write did not and will not happen
	unknownOutcome outcome = "unknown"     // answered OutcomeUnknown: the write may or may not have happened
	noAnswer       outcome = "no-answer"   // no answer: a killed instance, a client time-out
	notSent        outcome = "not-sent"    // the connection was refused: the request never left the client
)

// histOp is one call of a history, as recorded and as written to the history file.
type histOp struct {
	Client   int           `json:"client"`
	Instance int           `json:"instance"`
	Binding  string        `json:"binding"`
	Op       string        `json:"op"`
	ID       string        `json:"id"`
	Call     time.Duration `json:"call"`   // since the run started, taken just before sending
	Return   time.Duration `json:"return"` // taken just after the answer (or the failure) came
	Outcome  outcome       `json:"outcome"`
	Record   int           `json:"record,omitempty"` // answeredRecord: created or updated
	Detail   string        `json:"detail,omitempty"` // the error, for the failures
	At       time.Time     `json:"at"`               // the wall clock at the call, to find it in the instances' logs
}

func (h histOp) String() string {
	return fmt.Sprintf("%9.1fms..%9.1fms  client %2d  instance %d  %-6s %s(%s) -> %s", ms(h.Call), ms(h.Return),
		h.Client, h.Instance, h.Binding, h.Op, h.ID, h.result())
}

// result is the call's outcome in words: the record answered, or how it failed.
func (h histOp) result() string {
	if h.Outcome == answeredRecord {
		return stateNames[h.Record]
	}
	return string(h.Outcome)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// open reports whether h may have taken effect at any time after its call, or not at all: a write
// without an answer or with an unknown outcome, and under the standard model also one answered
// not-applied. The strict model holds the service to its word that a not-applied write never happens.
func (h histOp) open(strict bool) bool {
	switch h.Outcome {
	case unknownOutcome, noAnswer:
		return true
	case notApplied:
		return !strict
	}
	return false
}

// next returns the states a contact in state st may be in after h, as one sequential execution of h
// would leave it given what h's caller saw; none when that execution cannot give h's answer.
func next(st int, h histOp, strict bool) []int {
	switch {
	case h.Outcome == answeredAbsent:
		// A read, an update or a delete that found nothing: the contact was absent, and still is.
		if st == absent && h.Op != "TestCreateContact" {
			return []int{st}
		}
		return nil
	case h.Outcome == answeredRecord:
		switch h.Op {
		case "TestCreateContact":
			if h.Record == created {
				return []int{created}
			}
		case "TestUpdateContact":
			if st != absent && h.Record == updated {
				return []int{updated}
			}
		case "DeleteContact":
			if st != absent && h.Record == st {
				return []int{absent}
			}
		case "ReadContact":
			if st != absent && h.Record == st {
				return []int{st}
			}
		}
		return nil
	case h.Op == "ReadContact" || !h.open(strict):
		// A read that failed, a write never sent, or (strict model) a write not applied: nothing
		// changed.
		return []int{st}
	}
	// An open write: it took effect, or not (yet).
	return slices.Compact(slices.Sorted(slices.Values([]int{st, effect(st, h.Op)})))
}

// effect is what write op does to a contact in state st when it takes effect.
func effect(st int, op string) int {
	switch op {
	case "TestCreateContact":
		return created
	case "TestUpdateContact":
		if st == absent {
			return absent
		}
		return updated
	case "DeleteContact":
		return absent
	}
	return st
}

// contactModel is the porcupine model of one contact, partitioned by contact id. Under the strict
// model, a write answered not-applied never takes effect; under the standard one it may, like a write
// with no answer. from lists the possible states before the first call: absent for a whole history,
// any for a window cut out of one.
func contactModel(strict bool, from ...int) porcupine.Model {
	model := &porcupine.NondeterministicModel{
		Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
			byID := map[string][]porcupine.Operation{}
			for _, op := range history {
				id := op.Input.(histOp).ID
				byID[id] = append(byID[id], op)
			}
			var parts [][]porcupine.Operation
			for _, id := range slices.Sorted(func(yield func(string) bool) {
				for id := range byID {
					if !yield(id) {
						return
					}
				}
			}) {
				parts = append(parts, byID[id])
			}
			return parts
		},
		Init: func() []any {
			states := make([]any, len(from))
			for i, st := range from {
				states[i] = st
			}
			return states
		},
		Step: func(state, input, _ any) []any {
			var out []any
			for _, st := range next(state.(int), input.(histOp), strict) {
				out = append(out, st)
			}
			return out
		},
		DescribeOperation: func(input, _ any) string {
			h := input.(histOp)
			return fmt.Sprintf("%s via instance %d (%s): %s", h.Op, h.Instance, h.Binding, h.result())
		},
		DescribeState: func(state any) string { return stateNames[state.(int)] },
	}
	return model.ToModel()
}

// operations turns a history into porcupine's form: a call that stays open returns at the end of time,
// so it may be placed after anything called after it.
func operations(hist []histOp, strict bool) []porcupine.Operation {
	ops := make([]porcupine.Operation, len(hist))
	for i, h := range hist {
		ret := int64(h.Return)
		if h.open(strict) {
			ret = math.MaxInt64
		}
		ops[i] = porcupine.Operation{ClientId: h.Client, Input: h, Call: int64(h.Call), Return: ret}
	}
	return ops
}

// checkTimeout bounds one porcupine check. A linearizable history of this test is checked in well
// under a second; only a search for an anomaly among many open calls can take long.
const checkTimeout = 2 * time.Minute

// linearizable checks hist (any number of contacts) under the standard or strict model from the
// states from, returning porcupine's verdict and what it found (for the visualization).
func linearizable(hist []histOp, strict bool, from ...int) (porcupine.CheckResult, porcupine.LinearizationInfo) {
	if len(from) == 0 {
		from = []int{absent}
	}
	return porcupine.CheckOperationsVerbose(contactModel(strict, from...), operations(hist, strict), checkTimeout)
}

// smallestAnomaly narrows a history of one contact that is not linearizable down to a short stretch
// that is not either, for the failure message: first the earliest time T such that the history cut at
// T (calls made after T dropped, calls still running at T made open) fails, then the latest time S
// such that the calls of that history from S on fail from any state (calls running at S made open).
// Both searches keep only cuts that fail, so what it returns is an anomaly of its own.
func smallestAnomaly(hist []histOp, strict bool) []histOp {
	fails := func(h []histOp, from ...int) bool {
		res, _ := linearizable(h, strict, from...)
		return res != porcupine.Ok
	}
	cutAt := func(t time.Duration) []histOp {
		var out []histOp
		for _, h := range hist {
			if h.Call > t {
				continue
			}
			if h.Return > t && !h.open(strict) {
				h.Outcome, h.Return = noAnswer, t
			}
			out = append(out, h)
		}
		return out
	}
	var ends []time.Duration
	for _, h := range hist {
		ends = append(ends, h.Return)
	}
	slices.Sort(ends)
	ends = slices.Compact(ends)
	// The earliest failing cut: the whole history fails, so the search has an answer.
	i, _ := slices.BinarySearchFunc(ends, true, func(t time.Duration, _ bool) int {
		if fails(cutAt(t)) {
			return 1
		}
		return -1
	})
	prefix := hist
	if i < len(ends) {
		prefix = cutAt(ends[i])
	}
	from := func(s time.Duration) []histOp {
		var out []histOp
		for _, h := range prefix {
			switch {
			case h.Call >= s:
				out = append(out, h)
			case h.Return >= s && !h.open(strict):
				h.Outcome = noAnswer
				out = append(out, h)
			case h.open(strict):
				out = append(out, h)
			}
		}
		return out
	}
	var starts []time.Duration
	for _, h := range prefix {
		starts = append(starts, h.Call)
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	// The latest start that still fails from any state; the earliest start is the prefix itself,
	// which fails from absent but need not from any state, hence the check of the result.
	j, _ := slices.BinarySearchFunc(starts, true, func(s time.Duration, _ bool) int {
		if fails(from(s), absent, created, updated) {
			return -1
		}
		return 1
	})
	if j > 0 && fails(from(starts[j-1]), absent, created, updated) {
		prefix = from(starts[j-1])
	}
	return slices.SortedFunc(slices.Values(prefix), func(a, b histOp) int { return cmp.Compare(a.Call, b.Call) })
}

// recordOf tells which valid record of id c is: created, updated, or absent for a torn or foreign one.
func recordOf(id string, c *gen.Contact) int {
	if c == nil {
		return absent
	}
	base := service.TestContact(id)
	switch {
	case reflect.DeepEqual(c, base):
		return created
	case reflect.DeepEqual(c, service.TestUpdate(base)):
		return updated
	}
	return absent
}

// contactOf returns the contact a contact operation's response carries, or nil for any other response.
func contactOf(resp any) *gen.Contact {
	switch r := resp.(type) {
	case *gen.TestCreateContactResponse:
		return r.TestCreateContactResult
	case *gen.TestUpdateContactResponse:
		return r.TestUpdateContactResult
	case *gen.ReadContactResponse:
		return r.ReadContactResult
	case *gen.DeleteContactResponse:
		return r.DeleteContactResult
	}
	return nil
}

// TestHistoryChecker holds the checker to known histories of one contact under both models: the
// orders real time allows are accepted, a stale read, a lost update and a write answered not-applied
// that lands later are caught (the last only by the strict model), and the anomaly reported is the
// short stretch that shows it.
func TestHistoryChecker(t *testing.T) {
	at := func(op string, call, ret int, out outcome, record int) histOp {
		return histOp{Op: op, ID: "k", Call: time.Duration(call) * time.Millisecond, Return: time.Duration(ret) * time.Millisecond,
			Outcome: out, Record: record}
	}
	for _, tc := range []struct {
		name             string
		hist             []histOp
		standard, strict bool
		anomaly          int // calls in the smallest anomaly, when the strict model fails
	}{
		{"concurrent calls in a possible order", []histOp{
			at("TestCreateContact", 0, 10, answeredRecord, created),
			at("ReadContact", 5, 15, answeredAbsent, 0), // overlaps the create: may come first
			at("TestUpdateContact", 20, 30, answeredRecord, updated),
			at("DeleteContact", 25, 40, answeredRecord, updated),
			at("ReadContact", 41, 50, answeredAbsent, 0),
		}, true, true, 0},
		{"a read after the create returned misses it", []histOp{
			at("TestCreateContact", 0, 10, answeredRecord, created),
			at("ReadContact", 11, 15, answeredAbsent, 0),
		}, false, false, 2},
		{"a lost update", []histOp{
			at("TestCreateContact", 0, 10, answeredRecord, created),
			at("TestUpdateContact", 20, 30, answeredRecord, updated),
			at("ReadContact", 31, 40, answeredRecord, created),
		}, false, false, 2},
		{"a write with no answer may land at any later time", []histOp{
			at("TestCreateContact", 0, 10, answeredRecord, created),
			at("DeleteContact", 5, 6, noAnswer, 0),
			at("ReadContact", 20, 30, answeredRecord, created),
			at("ReadContact", 40, 50, answeredAbsent, 0),
		}, true, true, 0},
		{"a write with an unknown outcome may never land", []histOp{
			at("DeleteContact", 0, 5, unknownOutcome, 0),
			at("TestCreateContact", 10, 20, answeredRecord, created),
			at("ReadContact", 30, 40, answeredRecord, created),
		}, true, true, 0},
		{"a delete answered not-applied lands after a later create", []histOp{
			at("TestCreateContact", 0, 10, answeredRecord, created),
			at("ReadContact", 12, 14, answeredRecord, created),
			at("DeleteContact", 20, 520, notApplied, 0),
			at("TestCreateContact", 600, 610, answeredRecord, created),
			at("ReadContact", 700, 710, answeredAbsent, 0),
		}, true, false, 2},
		{"a failed read says nothing", []histOp{
			at("ReadContact", 0, 10, notApplied, 0),
			at("ReadContact", 20, 30, noAnswer, 0),
			at("ReadContact", 40, 50, answeredAbsent, 0),
		}, true, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := linearizable(tc.hist, false)
			assert.Equal(t, tc.standard, res == porcupine.Ok, "standard model")
			res, _ = linearizable(tc.hist, true)
			assert.Equal(t, tc.strict, res == porcupine.Ok, "strict model")
			if !tc.strict {
				anomaly := smallestAnomaly(tc.hist, true)
				require.Len(t, anomaly, tc.anomaly, "%v", anomaly)
				res, _ := linearizable(anomaly, true, absent, created, updated)
				assert.NotEqual(t, porcupine.Ok, res, "the anomaly reported fails on its own")
			}
		})
	}
}
