package page

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/chronicle/ladder/ladder/artifact"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/claims"
)

// Engine is what the page takes from the engine at the end of a run,
// because the trace does not carry it: every variant with its predecessor
// and slot diff, every supersession, and every belief's evidence with the
// tick it arrived. Evidence is append-only in the store, so the evidence a
// belief had at tick t is exactly its end-of-run evidence up to t.
type Engine struct {
	Claims  []Claim  // sorted by id
	Beliefs []Belief // sorted by holder, then claim
}

// Claim is one claim's lineage.
type Claim struct {
	ID, Kind      string
	Tick          int64
	Variants      []Variant      // in minting order, v0 first
	Supersessions []Supersession // in the order they happened
}

// Variant is one immutable version of a claim.
type Variant struct {
	ID, Predecessor string
	Diff            []claims.Change // relative to the predecessor
	Slots           claims.Slots
	Reason, By      string // why it exists ("event", "mutation:memory", …) and who produced it
	Tick            int64
}

// Supersession is one holder's contest between two variants.
type Supersession struct {
	Holder, Loser, Winner, Via string
	Tick                       int64
	Kept                       bool // the holder's own variant won
}

// Belief is one holder's evidence for one claim, oldest first.
type Belief struct {
	Holder, Claim string
	Evidence      []claims.Evidence
}

// Capture reads the page's engine data from a world at the end of its run.
// The ladder's runner calls it once per run.
func Capture(w *sim.World) *Engine {
	s := w.Store()
	e := &Engine{}
	sups := s.Supersessions()
	for _, id := range s.ClaimIDs() {
		c, _ := s.Claim(id)
		out := Claim{ID: id, Kind: c.Kind, Tick: c.Tick}
		for _, v := range s.Variants(id) {
			out.Variants = append(out.Variants, Variant{
				ID: v.ID, Predecessor: v.Predecessor, Diff: v.Diff, Slots: v.Slots,
				Reason: v.Origin.Reason, By: v.Origin.Holder, Tick: v.Origin.Tick,
			})
		}
		for _, x := range sups {
			if x.Claim == id {
				out.Supersessions = append(out.Supersessions, Supersession{
					Holder: x.Holder, Loser: x.Loser, Winner: x.Winner, Via: x.Via, Tick: x.Tick, Kept: x.Kept,
				})
			}
		}
		e.Claims = append(e.Claims, out)
	}
	for _, h := range w.NPCs() {
		for _, c := range s.Held(h) {
			b, _ := s.Belief(h, c)
			e.Beliefs = append(e.Beliefs, Belief{Holder: h, Claim: c, Evidence: slices.Clone(b.Evidence)})
		}
	}
	return e
}

// EngineFile is the file a run's Engine data is kept in, beside its
// dense.csv and trace.jsonl under reports/<rung>/: the suite writes it
// after each run, so the page is built from what the run wrote, never
// from a second run.
const EngineFile = "engine.json"

// WriteEngine writes a run's engine data as JSON, atomically (a
// temporary file renamed into place). Numbers are written in Go's
// shortest round-trip form, so ReadEngine gives back the same values.
func WriteEngine(path string, e *Engine) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("engine data: %w", err)
	}
	if err := artifact.Write(path, append(b, '\n')); err != nil {
		return fmt.Errorf("engine data: %w", err)
	}
	return nil
}

// ReadEngine reads what WriteEngine wrote. A field it does not know is an
// error: the file is written by this code, and a mismatch means it is
// not the file it looks like.
func ReadEngine(path string) (*Engine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := json.NewDecoder(bufio.NewReader(f))
	d.DisallowUnknownFields()
	var e Engine
	if err := d.Decode(&e); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &e, nil
}
