package explore

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronicle/ladder/sim/trace"
)

// Options configure an exploration.
type Options struct {
	Seed uint64
	// Worlds, when positive, is how many worlds to check (of this shard):
	// the same command then checks the same worlds on any machine, at any
	// load. Otherwise Budget bounds the exploration by the wall clock.
	Worlds int64
	// Budget is how long to generate and check worlds when Worlds is 0;
	// shrinking a failure comes after it.
	Budget time.Duration
	// ShrinkTries bounds the candidate worlds each failure's shrinking
	// runs, so that a finding shrinks to the same file on any machine;
	// ShrinkBudget bounds its wall time as a safety net (a shrink it cuts
	// short says so).
	ShrinkTries  int
	ShrinkBudget time.Duration
	// Round is how many worlds share one corpus (DefaultRound when 0):
	// from the second round on, about half the worlds are drawn by
	// mutating a world of the corpus of the rounds before (corpus.go).
	Round int
	// Lanes splits an unsharded exploration's corpus into that many, world
	// i drawing from lane i mod Lanes: a campaign of N shards explores N
	// lanes (each shard is one, its corpus its own), and one exploration
	// with Lanes N draws the same worlds as the N shards together. 0 or
	// 1: one corpus. A sharded exploration ignores it.
	Lanes int
	// Workers check that many worlds side by side (at least 1). The
	// findings, the coverage and the summary are the same for any number:
	// worlds are judged in index order whichever finishes first.
	Workers int
	// Shard k of N checks worlds k−1, k−1+N, k−1+2N …: N machines with
	// the same seed share one exploration without overlap.
	Shard, Shards int
	Sizes         Sizes
	// Out receives a shrunk fixture per failing property (reports/explore).
	Out string
	// Findings is the directory of kept findings (findings/, committed
	// with the repository): each is replayed before any world is drawn,
	// and each new failure is kept there too, named by its property and
	// the hash of its world, so that no finding is lost when reports/ is
	// cleared. "" keeps none.
	Findings string
	// Scratch holds the runs' artifacts while they are checked.
	Scratch string
	// Progress receives a line every few seconds and the summary.
	Progress io.Writer
	// Fresh runs fixture files in a fresh process and returns each one's
	// dense, trace and checkpoints digests (Outcome.Hash), by path; nil
	// skips the fresh-process property, saying so.
	Fresh func(paths []string) (map[string]string, error)
	// Constrained is Fresh in a process whose environment adds
	// ConstrainedEnv (GOMAXPROCS=1, GOGC=10), for the worlds of
	// PropConstrained's share; nil skips that property, saying so.
	Constrained func(paths []string) (map[string]string, error)
	// Now is the wall clock: it bounds a Budget and paces the progress
	// lines; no world, finding or count depends on it.
	Now func() time.Time
	// UntilFailure stops exploring at the first failing world (it is
	// still shrunk): for measuring how long a fault takes to find.
	UntilFailure bool
	// Command is how to replay, as printed in reports ("go run ./tools/ladder explore").
	Command string
	// Stall gives up a run that finishes no tick for that long
	// (Checker.Stall; 0: never). A world that hangs is written as found,
	// unshrunk — each candidate would hang too, and a hung run's
	// goroutine cannot be stopped — and the exploration ends there.
	Stall time.Duration
	// hook is the checker's (Checker.hook).
	hook trace.Sink
}

// freshBatch is how many worlds, in index order, are run again in one
// fresh process: by count, so the batches are the same on any machine.
const freshBatch = 32

// Summary is what an exploration did.
type Summary struct {
	Worlds, Runs, Checked int
	// Mutants are the worlds drawn by mutating a corpus world; Corpus
	// how many worlds joined the corpus.
	Mutants, Corpus int
	Failures        []Written
	// Known are the kept findings replayed first: those still failing
	// fail the exploration; those that pass are fixed.
	Known []Known
	// Coverage is what the worlds' runs reached of the rule regimes.
	Coverage *Coverage
	Elapsed  time.Duration
}

// Written is one failing property, shrunk and written.
type Written struct {
	Finding        *Finding
	World          World
	File           string
	Found, Shrunk  time.Duration // when it was found, how long shrinking took
	NPCs, Events   int
	Locations      int
	Ticks          int64
	Original       string // the unshrunk world's size
	Tries          int
	CutShort       bool   // shrinking stopped at ShrinkBudget, not when no cut helped
	Kept           string // its copy under Options.Findings, "" when none was kept
	FreshProcessed int
	// Hung: the world hung the engine, so it is written as found and the
	// exploration ended at it.
	Hung bool
}

// checked is one world's outcome, for the judge.
type checked struct {
	k   int64 // its place in the shard's sequence
	cs  *Case
	out Outcome
	err error
}

// Explore checks worlds until the count or the time is spent, checking
// every property of each on Workers goroutines, and shrinks and writes
// the first failure (by world index) of each property.
func Explore(opt Options) (Summary, error) {
	if opt.Shards < 1 {
		opt.Shard, opt.Shards = 1, 1
	}
	if opt.Shard < 1 || opt.Shard > opt.Shards {
		return Summary{}, fmt.Errorf("explore: shard %d/%d: want 1 ≤ k ≤ N", opt.Shard, opt.Shards)
	}
	opt.Workers = max(opt.Workers, 1)
	start := opt.Now()
	checkers := make([]*Checker, opt.Workers)
	for i := range checkers {
		checkers[i] = &Checker{Scratch: filepath.Join(opt.Scratch, "runs", strconv.Itoa(i)), Stall: opt.Stall, Sampled: true, hook: opt.hook}
	}
	// The kept findings first: what failed before must be fixed before
	// anything new counts.
	known, err := replayKnown(opt, checkers[0])
	if err != nil {
		return Summary{}, err
	}
	// Workers take the shard's worlds in turn and hand back what they
	// found; the judge below takes the outcomes in index order, so what
	// it decides never depends on which worker finished first.
	var next atomic.Int64
	var stop atomic.Bool
	if opt.Round < 1 {
		opt.Round = DefaultRound
	}
	// The lanes this process draws: one corpus per lane, and world k of
	// the sequence in lane k mod lanes at its lane's place k div lanes. A
	// shard is one lane of its campaign.
	lanes := int64(max(opt.Lanes, 1))
	if opt.Shards > 1 {
		lanes = 1
	}
	guides := make([]*corpus, lanes)
	for l := range guides {
		guides[l] = newCorpus(int64(opt.Round))
	}
	stopGuides := func() {
		for _, g := range guides {
			g.stop()
		}
	}
	results := make(chan checked, 2*opt.Workers)
	var wg sync.WaitGroup
	for _, c := range checkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				k := next.Add(1) - 1
				if (opt.Worlds > 0 && k >= opt.Worlds) || (opt.Worlds <= 0 && opt.Now().Sub(start) >= opt.Budget) {
					return
				}
				w := World{Seed: opt.Seed, Index: int64(opt.Shard-1) + k*int64(opt.Shards)}
				cs, ok, err := guides[k%lanes].draw(k/lanes, w, opt.Sizes)
				if !ok {
					return // the exploration stopped while this world waited for its round
				}
				r := checked{k: k, cs: cs, err: err}
				if err == nil {
					r.out = c.Check(cs)
				}
				if err == nil && cs.Parent != nil && r.out.Refused {
					// A mutation can move an event past its party's death,
					// which the loader cannot see and the engine refuses:
					// not a world, so the world is drawn fresh instead.
					r.cs, r.err = Load(w, Generate(w, opt.Sizes))
					if r.err == nil {
						r.out = c.Check(r.cs)
					}
				}
				results <- r
				if err != nil || r.out.Hung {
					return // a hung run's goroutine cannot be stopped: this worker is done
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	j := &judge{opt: opt, start: start, c: checkers[0], failed: map[string]bool{}, lastLine: start, cov: newCoverage(opt), guides: guides}
	for _, k := range known {
		if k.Failing != nil {
			j.failed[k.Property] = true // kept already: no second file for it
		}
	}
	j.sum.Known = known
	j.children = childChecks(opt)
	waiting := map[int64]checked{}
	want := int64(0)
	for r := range results {
		waiting[r.k] = r
		for {
			r, ok := waiting[want]
			if !ok || j.done {
				break
			}
			delete(waiting, want)
			want++
			j.take(r)
		}
		if j.done || j.err != nil {
			stop.Store(true)
			stopGuides()
		}
	}
	stopGuides()
	j.flushFresh()
	if j.err != nil {
		return j.sum, j.err
	}
	for _, f := range j.found {
		j.sum.Failures = append(j.sum.Failures, report(opt, j.c, f.cs, f.x, f.at))
	}
	j.sum.Checked += j.freshDone
	j.sum.Coverage = j.cov
	for _, g := range guides {
		j.sum.Corpus += len(g.entries)
	}
	j.sum.Elapsed = opt.Now().Sub(start)
	if opt.Fresh == nil {
		fmt.Fprintf(opt.Progress, "explore: WARNING: %s not checked (no fresh process to run worlds in)\n", PropFresh)
	}
	if opt.Constrained == nil {
		fmt.Fprintf(opt.Progress, "explore: WARNING: %s not checked (no constrained process to run worlds in)\n", PropConstrained)
	}
	return j.sum, nil
}

// judge takes the worlds' outcomes in index order and decides what the
// exploration found: the first failure of each property, the counts,
// the coverage, the child-process batches.
type judge struct {
	opt       Options
	start     time.Time
	c         *Checker // shrinks, after the exploration
	sum       Summary
	failed    map[string]bool
	found     []failure
	children  []*childCheck // the child-process properties (childChecks)
	freshIn   int           // worlds taken since the last batch
	freshDone int
	lastLine  time.Time
	cov       *Coverage
	guides    []*corpus // by lane
	done      bool      // a hung world, or the first failure under UntilFailure
	err       error
}

// failure is a property's first failure, to shrink once the exploration
// is over.
type failure struct {
	cs *Case
	x  *Finding
	at time.Duration
}

type pendingFresh struct {
	path, hash string
	cs         *Case
}

func (j *judge) take(r checked) {
	opt := j.opt
	if r.err != nil {
		j.err = fmt.Errorf("explore: a generator or loader bug: %w", r.err)
		j.done = true
		return
	}
	w, out := r.cs.World, r.out
	lanes := int64(len(j.guides))
	j.guides[r.k%lanes].judge(r.k/lanes, r.cs, out.Regimes)
	if r.cs.Parent != nil {
		j.sum.Mutants++
	}
	j.sum.Worlds++
	j.sum.Runs += out.Runs
	j.sum.Checked += out.Checked
	j.cov.add(r.cs, out.Regimes)
	if out.Hung {
		x := out.Findings[len(out.Findings)-1]
		fmt.Fprintf(opt.Progress, "explore: %s: %s — not shrunk: every candidate would hang too, and a hung run cannot be stopped; the exploration ends here\n", w, x)
		hung := written(opt, r.cs, Shrunk{Case: r.cs, Finding: x}, x, opt.Now().Sub(j.start), 0)
		hung.Hung = true
		j.sum.Failures = append(j.sum.Failures, hung)
		j.done = true
		return
	}
	for _, x := range out.Findings {
		if j.failed[x.Property] {
			continue
		}
		j.failed[x.Property] = true
		fmt.Fprintf(opt.Progress, "explore: %s: %s — shrinking once the exploration ends\n", w, x)
		j.found = append(j.found, failure{r.cs, x, opt.Now().Sub(j.start)})
	}
	if opt.UntilFailure && len(j.found) > 0 {
		j.done = true
	}
	if out.Hash != "" && len(out.Findings) == 0 {
		writePending(opt, j.children, r.cs, out.Hash)
	}
	if j.freshIn++; j.freshIn >= freshBatch {
		j.flushFresh()
	}
	if now := opt.Now(); now.Sub(j.lastLine) >= 5*time.Second {
		j.lastLine = now
		el := now.Sub(j.start).Seconds()
		fmt.Fprintf(opt.Progress, "explore: %.0fs: %d worlds (%.1f/s), %d runs, %d properties checked, %d fresh-process checks, %d failing properties, %d regimes reached\n",
			el, j.sum.Worlds, float64(j.sum.Worlds)/el, j.sum.Runs, j.sum.Checked, j.freshDone, len(j.found), j.cov.reached())
	}
}

// flushFresh runs the pending worlds in child processes, a batch per
// child-process property, and compares their digests with this
// process's.
func (j *judge) flushFresh() {
	j.freshIn = 0
	for _, ch := range j.children {
		ch.flush(func(cs *Case, x *Finding) {
			j.freshDone++
			if x != nil && !j.failed[x.Property] {
				j.failed[x.Property] = true
				fmt.Fprintf(j.opt.Progress, "explore: %s: %s\n", cs.World, x)
				j.found = append(j.found, failure{cs, x, j.opt.Now().Sub(j.start)})
			}
		})
	}
}

// report shrinks a failure and writes it under opt.Out.
func report(opt Options, c *Checker, cs *Case, x *Finding, found time.Duration) Written {
	t0 := opt.Now()
	var s Shrunk
	if opt.childRun(x.Property) != nil {
		s = Shrunk{Case: cs, Finding: x} // each candidate would need a process of its own
	} else {
		s = Shrink(c, cs, x, opt.ShrinkTries, opt.ShrinkBudget, opt.Now)
	}
	return written(opt, cs, s, x, found, opt.Now().Sub(t0))
}

// written writes a failure, shrunk (s) from the world cs in took, under
// opt.Out, and says so.
func written(opt Options, cs *Case, s Shrunk, x *Finding, found, took time.Duration) Written {
	orig := fmt.Sprintf("%d NPCs, %d events, %d locations, %d ticks", len(cs.Loaded.Cast), len(cs.Loaded.Injections), len(cs.Loaded.Locations), cs.Loaded.Ticks)
	f := s.Case.Loaded
	r := Written{Finding: s.Finding, World: cs.World, Found: found, Shrunk: took, NPCs: len(f.Cast), Events: len(f.Injections),
		Locations: len(f.Locations), Ticks: f.Ticks, Original: orig, Tries: s.Tries, CutShort: s.CutShort}
	name := fmt.Sprintf("%s-%s-%d-%d.yaml", f.Rung, x.Property, cs.World.Seed, cs.World.Index)
	r.File = filepath.Join(opt.Out, name)
	data, err := Write(s.Case, s.Finding, r, opt.Command)
	if err == nil {
		err = os.MkdirAll(opt.Out, 0o755)
	}
	if err == nil {
		err = writeAtomic(r.File, data)
	}
	if err != nil {
		fmt.Fprintf(opt.Progress, "explore: could not write %s: %v\n", r.File, err)
	}
	if opt.Findings != "" && data != nil {
		kept, err := keep(opt, s, x, data)
		if err != nil {
			fmt.Fprintf(opt.Progress, "explore: could not keep %s: %v\n", kept, err)
		}
		r.Kept = kept
	}
	cut := ""
	if s.CutShort {
		cut = ", cut short by the time budget (another machine may shrink it further)"
	}
	fmt.Fprintf(opt.Progress, "explore: FAIL %s\n  shrunk in %.1fs (%d tries%s) from %s to %d NPCs, %d events, %d locations, %d ticks\n  %s\n  replay: %s -replay %s\n",
		s.Finding, r.Shrunk.Seconds(), s.Tries, cut, orig, r.NPCs, r.Events, r.Locations, r.Ticks, r.File, opt.Command, r.File)
	if r.Kept != "" {
		fmt.Fprintf(opt.Progress, "  kept as %s: commit it with the fix, or promote it to a rung\n", r.Kept)
	}
	return r
}

// writeAtomic writes through a temporary file renamed into place.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Failing lists the properties of a summary that failed, sorted.
func (s Summary) Failing() []string {
	var out []string
	for _, r := range s.Failures {
		out = append(out, r.Finding.Property)
	}
	slices.Sort(out)
	return out
}
