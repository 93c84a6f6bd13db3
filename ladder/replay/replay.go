package replay

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/digest"
	"github.com/chronicle/ladder/sim/events"
)

// What a Mismatch is about.
const (
	Malformed = "malformed"      // a line that is not a record's canonical line
	Chain     = "chain"          // the records do not form one hash chain
	Fixture   = "fixture"        // the checkpoints were made from another fixture or seed
	Record    = "record"         // the replay appended a record different from the logged one
	Extra     = "extra record"   // the replay appended a record the log does not hold
	Missing   = "missing record" // a logged record the replay never appended
	Digest    = "state digest"   // the replayed state's digest differs from the recorded one
	Head      = "log head"       // the log head differs from the recorded one
)

// Mismatch is the first place a replay parts from what was recorded: a
// line of the log, a record, a tick. Fields that do not apply are -1 (0
// for Line).
type Mismatch struct {
	What   string
	Line   int   // events.jsonl line, counting from 1
	Seq    int64 // the record
	ID     string
	Tick   int64 // the replay's tick
	Detail string
}

// Error names the record first, then the line and the tick.
func (m *Mismatch) Error() string {
	var where []string
	if m.Seq >= 0 {
		r := "record seq " + strconv.FormatInt(m.Seq, 10)
		if m.ID != "" {
			r += " (" + m.ID + ")"
		}
		where = append(where, r)
	}
	if m.Line > 0 {
		where = append(where, "events.jsonl line "+strconv.Itoa(m.Line))
	}
	if m.Tick >= 0 {
		where = append(where, "tick "+strconv.FormatInt(m.Tick, 10))
	}
	return fmt.Sprintf("%s: %s: %s", m.What, strings.Join(where, ", "), m.Detail)
}

// Report is what a verification checked.
type Report struct {
	Records int   // logged records the replay reproduced
	Ticks   int64 // ticks replayed
	Digests int   // state digests compared: every sample's and the end's
}

func (r Report) String() string {
	return fmt.Sprintf("%s replayed over %d ticks; %s and the log head match", count(r.Records, "record"), r.Ticks, count(r.Digests, "state digest"))
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// ReadLog reads an exported log (events.jsonl): one canonical line per
// record, each ending in a newline, forming one hash chain from the first
// record on. The error is a *Mismatch naming the first line or record
// that is not so.
func ReadLog(data []byte) ([]events.Record, error) {
	var recs []events.Record
	for line := 1; len(data) > 0; line++ {
		seq := int64(line - 1)
		end := bytes.IndexByte(data, '\n')
		if end < 0 {
			return nil, &Mismatch{What: Malformed, Line: line, Seq: seq, Tick: -1, Detail: "the last line has no newline: the log is cut short"}
		}
		r, err := events.ParseJSON(data[:end])
		if err != nil {
			return nil, &Mismatch{What: Malformed, Line: line, Seq: seq, Tick: -1, Detail: err.Error()}
		}
		recs = append(recs, r)
		data = data[end+1:]
	}
	if err := events.Verify(recs); err != nil {
		var ce *events.ChainError
		if !errors.As(err, &ce) {
			return nil, err
		}
		return nil, &Mismatch{What: Chain, Line: ce.Index + 1, Seq: ce.Seq, ID: recs[ce.Index].Event.ID, Tick: -1, Detail: ce.Reason}
	}
	return recs, nil
}

// Verify replays f from tick 0 and checks it against what a run recorded:
// at every tick, that the engine appends exactly the logged records (the
// same ids, kinds, ticks, attributes, witnesses, branch and hashes), in
// order; at every checkpoint sample and at the end, that the state digest
// is the recorded one; and at the end, that no logged record is left
// over and that the log head is the recorded one. The error is a
// *Mismatch naming the first record or tick where they part, or an error
// saying why the replay could not run.
func Verify(f *fixture.Fixture, log []events.Record, cp checkpoint.File) (Report, error) {
	var rep Report
	switch {
	case cp.FixtureHash != f.Hash:
		return rep, &Mismatch{What: Fixture, Seq: -1, Tick: -1, Detail: fmt.Sprintf("the checkpoints were made from another version of %s (fixture_hash %s, the fixture is %s now): rerun it", f.File, cp.FixtureHash, f.Hash)}
	case cp.SeedID != f.SeedID:
		return rep, &Mismatch{What: Fixture, Seq: -1, Tick: -1, Detail: fmt.Sprintf("the checkpoints are of seed %q, the fixture's is %q", cp.SeedID, f.SeedID)}
	case cp.Outcome.StateDigest == "":
		return rep, &Mismatch{What: Digest, Seq: -1, Tick: -1, Detail: "the checkpoints record no final state digest (written before digests were): rerun or regenerate them"}
	}
	sampled := map[int64]string{}
	for _, s := range cp.Samples {
		if s.StateDigest == "" {
			return rep, &Mismatch{What: Digest, Seq: -1, Tick: s.Tick, Detail: "the checkpoints record no state digest at this sample"}
		}
		sampled[s.Tick] = s.StateDigest
	}
	w, err := ladder.Build(f, nil)
	if err != nil {
		return rep, err
	}
	done := 0
	for t := int64(0); t < f.Ticks; t++ {
		if err := w.Step(); err != nil {
			return rep, fmt.Errorf("the replay stopped at tick %d: %w", t, err)
		}
		rep.Ticks++
		for _, r := range w.Log().Since(done) {
			if done >= len(log) {
				return rep, &Mismatch{What: Extra, Seq: r.Seq, ID: r.Event.ID, Tick: t,
					Detail: fmt.Sprintf("the replay appended %s (a %s at tick %d) beyond the %d logged records", r.Event.ID, r.Event.Kind, r.Event.Tick, len(log))}
			}
			if field, logged, replayed, ok := sameRecord(log[done], r); !ok {
				return rep, &Mismatch{What: Record, Line: done + 1, Seq: r.Seq, ID: log[done].Event.ID, Tick: t,
					Detail: fmt.Sprintf("%s: logged %s, replayed %s", field, logged, replayed)}
			}
			done++
		}
		if want, ok := sampled[t]; ok {
			if err := sameDigest(w, t, want); err != nil {
				return rep, err
			}
			rep.Digests++
		}
	}
	rep.Records = done
	end := f.Ticks - 1
	if done < len(log) {
		r := log[done]
		return rep, &Mismatch{What: Missing, Line: done + 1, Seq: r.Seq, ID: r.Event.ID, Tick: end,
			Detail: fmt.Sprintf("logged %s (a %s at tick %d), which the replay never appended", r.Event.ID, r.Event.Kind, r.Event.Tick)}
	}
	if err := sameDigest(w, end, cp.Outcome.StateDigest); err != nil {
		return rep, err
	}
	rep.Digests++
	if h := w.Log().Head(); h != cp.Outcome.LogHead {
		return rep, &Mismatch{What: Head, Seq: -1, Tick: end, Detail: fmt.Sprintf("recorded %s, replayed %s", cp.Outcome.LogHead, h)}
	}
	return rep, nil
}

// sameDigest compares the replayed state's digest at tick t with want.
func sameDigest(w digest.State, t int64, want string) error {
	got, err := digest.Of(w)
	if err != nil {
		return fmt.Errorf("the replay's state at tick %d has no digest: %w", t, err)
	}
	if got != want {
		return &Mismatch{What: Digest, Seq: -1, Tick: t, Detail: fmt.Sprintf("recorded %s, replayed %s (`go run ./tools/ladder state` prints the canonical state to compare)", want, got)}
	}
	return nil
}

// sameRecord compares a logged record with a replayed one, field by
// field in the order of the encoding, and names the first that differs.
func sameRecord(logged, replayed events.Record) (field, l, r string, ok bool) {
	q := strconv.Quote
	a, b := logged.Event, replayed.Event
	switch {
	case logged.Seq != replayed.Seq:
		return "seq", fmt.Sprint(logged.Seq), fmt.Sprint(replayed.Seq), false
	case logged.Branch != replayed.Branch:
		return "branch", fmt.Sprintf("%+v", logged.Branch), fmt.Sprintf("%+v", replayed.Branch), false
	case a.ID != b.ID:
		return "event.id", q(a.ID), q(b.ID), false
	case a.Kind != b.Kind:
		return "event.kind", q(a.Kind), q(b.Kind), false
	case a.Tick != b.Tick:
		return "event.tick", fmt.Sprint(a.Tick), fmt.Sprint(b.Tick), false
	}
	keys := slices.Sorted(maps.Keys(a.Attrs))
	for k := range b.Attrs {
		if _, in := a.Attrs[k]; !in {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		x, xok := a.Attrs[k]
		y, yok := b.Attrs[k]
		if x != y || xok != yok {
			return "event.attrs." + k, present(x, xok), present(y, yok), false
		}
	}
	switch {
	case !slices.Equal(a.Witnesses, b.Witnesses):
		return "event.witnesses", fmt.Sprint(a.Witnesses), fmt.Sprint(b.Witnesses), false
	case logged.Prev != replayed.Prev:
		return "prev", logged.Prev, replayed.Prev, false
	case logged.Hash != replayed.Hash:
		return "hash", logged.Hash, replayed.Hash, false
	}
	return "", "", "", true
}

func present(v string, ok bool) string {
	if !ok {
		return "absent"
	}
	return strconv.Quote(v)
}
