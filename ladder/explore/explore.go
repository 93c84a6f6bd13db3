package explore

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chronicle/ladder/sim/trace"
)

// Options configure an exploration.
type Options struct {
	Seed uint64
	// Budget is how long to generate and check worlds; shrinking a
	// failure comes after it, bounded by ShrinkBudget.
	Budget, ShrinkBudget time.Duration
	// Shard k of N checks worlds k−1, k−1+N, k−1+2N …: N machines with
	// the same seed share one exploration without overlap.
	Shard, Shards int
	Sizes         Sizes
	// Out receives a shrunk fixture per failing property (reports/explore).
	Out string
	// Scratch holds the runs' artifacts while they are checked.
	Scratch string
	// Progress receives a line every few seconds and the summary.
	Progress io.Writer
	// Fresh runs fixture files in a fresh process and returns each one's
	// dense and trace digests (Outcome.Hash), by path; nil skips the
	// fresh-process property, saying so.
	Fresh func(paths []string) (map[string]string, error)
	// Now is the wall clock: it only bounds the budget and paces the
	// progress lines; no world depends on it.
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

// Summary is what an exploration did.
type Summary struct {
	Worlds, Runs, Checked int
	Failures              []Written
	Elapsed               time.Duration
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
	FreshProcessed int
}

// Explore runs worlds until the budget is spent, checking every property
// of each, and shrinks and writes the first failure of each property.
func Explore(opt Options) (Summary, error) {
	if opt.Shards < 1 {
		opt.Shard, opt.Shards = 1, 1
	}
	if opt.Shard < 1 || opt.Shard > opt.Shards {
		return Summary{}, fmt.Errorf("explore: shard %d/%d: want 1 ≤ k ≤ N", opt.Shard, opt.Shards)
	}
	start := opt.Now()
	c := &Checker{Scratch: filepath.Join(opt.Scratch, "runs"), Stall: opt.Stall, hook: opt.hook}
	var sum Summary
	failed := map[string]bool{}
	lastLine := start
	type pending struct {
		path, hash string
		cs         *Case
	}
	var fresh []pending
	freshDone := 0
	flushFresh := func() {
		if opt.Fresh == nil || len(fresh) == 0 {
			return
		}
		paths := make([]string, len(fresh))
		for i, p := range fresh {
			paths[i] = p.path
		}
		got, err := opt.Fresh(paths)
		for _, p := range fresh {
			h, ok := got[p.path]
			var x *Finding
			switch {
			case err != nil:
				x = &Finding{Property: PropFresh, Tick: -1, Message: fmt.Sprintf("the fresh process failed: %v", err)}
			case !ok || h != p.hash:
				x = &Finding{Property: PropFresh, Tick: -1, Message: fmt.Sprintf("a fresh process wrote dense and trace digests %q, this process %q", h, p.hash)}
			}
			freshDone++
			if x != nil && !failed[x.Property] {
				failed[x.Property] = true
				sum.Failures = append(sum.Failures, report(opt, c, p.cs, x, opt.Now().Sub(start)))
			}
		}
		fresh = fresh[:0]
	}
	for i := int64(opt.Shard - 1); opt.Now().Sub(start) < opt.Budget; i += int64(opt.Shards) {
		w := World{Seed: opt.Seed, Index: i}
		cs, err := Load(w, Generate(w, opt.Sizes))
		if err != nil {
			return sum, fmt.Errorf("explore: a generator or loader bug: %w", err)
		}
		out := c.Check(cs)
		sum.Worlds++
		sum.Runs += out.Runs
		sum.Checked += out.Checked
		if out.Hung {
			x := out.Findings[len(out.Findings)-1]
			fmt.Fprintf(opt.Progress, "explore: %s: %s — not shrunk: every candidate would hang too, and a hung run cannot be stopped; the exploration ends here\n", w, x)
			sum.Failures = append(sum.Failures, written(opt, cs, Shrunk{Case: cs, Finding: x}, x, opt.Now().Sub(start), 0))
			break
		}
		for _, x := range out.Findings {
			if failed[x.Property] {
				continue
			}
			failed[x.Property] = true
			fmt.Fprintf(opt.Progress, "explore: %s: %s — shrinking\n", w, x)
			sum.Failures = append(sum.Failures, report(opt, c, cs, x, opt.Now().Sub(start)))
		}
		if opt.UntilFailure && len(sum.Failures) > 0 {
			break
		}
		if opt.Fresh != nil && out.Hash != "" && len(out.Findings) == 0 {
			path := filepath.Join(opt.Scratch, "fresh", FileName(cs.Loaded))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil && os.WriteFile(path, cs.YAML, 0o644) == nil {
				fresh = append(fresh, pending{path, out.Hash, cs})
			}
		}
		if now := opt.Now(); now.Sub(lastLine) >= 5*time.Second {
			flushFresh()
			lastLine = now
			el := now.Sub(start).Seconds()
			fmt.Fprintf(opt.Progress, "explore: %.0fs: %d worlds (%.1f/s), %d runs, %d properties checked, %d fresh-process checks, %d failing properties\n",
				el, sum.Worlds, float64(sum.Worlds)/el, sum.Runs, sum.Checked, freshDone, len(sum.Failures))
		}
	}
	flushFresh()
	sum.Checked += freshDone
	sum.Elapsed = opt.Now().Sub(start)
	if opt.Fresh == nil {
		fmt.Fprintf(opt.Progress, "explore: WARNING: %s not checked (no fresh process to run worlds in)\n", PropFresh)
	}
	return sum, nil
}

// report shrinks a failure and writes it under opt.Out.
func report(opt Options, c *Checker, cs *Case, x *Finding, found time.Duration) Written {
	t0 := opt.Now()
	var s Shrunk
	if x.Property == PropFresh {
		s = Shrunk{Case: cs, Finding: x} // each candidate would need a process of its own
	} else {
		s = Shrink(c, cs, x, opt.ShrinkBudget, opt.Now)
	}
	return written(opt, cs, s, x, found, opt.Now().Sub(t0))
}

// written writes a failure, shrunk (s) from the world cs in took, under
// opt.Out, and says so.
func written(opt Options, cs *Case, s Shrunk, x *Finding, found, took time.Duration) Written {
	orig := fmt.Sprintf("%d NPCs, %d events, %d locations, %d ticks", len(cs.Loaded.Cast), len(cs.Loaded.Injections), len(cs.Loaded.Locations), cs.Loaded.Ticks)
	f := s.Case.Loaded
	r := Written{Finding: s.Finding, World: cs.World, Found: found, Shrunk: took, NPCs: len(f.Cast), Events: len(f.Injections),
		Locations: len(f.Locations), Ticks: f.Ticks, Original: orig, Tries: s.Tries}
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
	fmt.Fprintf(opt.Progress, "explore: FAIL %s\n  shrunk in %.1fs (%d tries) from %s to %d NPCs, %d events, %d locations, %d ticks\n  %s\n  replay: %s -replay %s\n",
		s.Finding, r.Shrunk.Seconds(), s.Tries, orig, r.NPCs, r.Events, r.Locations, r.Ticks, r.File, opt.Command, r.File)
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
