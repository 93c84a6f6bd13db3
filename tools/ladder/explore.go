package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/explore"
	"github.com/chronicle/ladder/ladder/report"
)

// exploreCmd generates worlds nobody wrote and checks the explorer's
// properties on each (ladder/explore, docs/explore.md):
//
//	ladder explore [-seed S | -seed-from-commit] [-time 60s | -worlds K] [-workers N] [-shard k/N]
//	                                                     explore; exit 1 if a property failed
//	ladder explore -replay reports/explore/F.yaml        check one written world again
//	ladder explore -promote reports/explore/F.yaml T3.9[-slug]  make it a rung skeleton under fixtures/
//
// Each exploration bounded by -worlds is one shard of a campaign that
// explore-merge can join.
func exploreCmd(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("explore", flag.ContinueOnError)
	fl.SetOutput(stderr)
	seed := fl.Uint64("seed", 0, "the exploration's seed (0: one drawn from the clock, printed so the run replays)")
	fromCommit := fl.Bool("seed-from-commit", false, "derive the seed from the checked-out commit (git rev-parse HEAD), so each commit explores worlds no earlier one did; printed")
	worlds := fl.Int64("worlds", 0, "check this many worlds (of this shard) instead of exploring for -time: the same worlds on any machine")
	budget := fl.Duration("time", 60*time.Second, "how long to explore, when -worlds is not given")
	lanes := fl.Int("lanes", 1, "split the corpus into N lanes, world i drawing from lane i mod N: the same worlds as a campaign of N shards (a shard is one lane)")
	workers := fl.Int("workers", 0, "worlds checked side by side (0: one per core); the findings, coverage and summary are the same for any number")
	shrinkTries := fl.Int("shrink-tries", 1000, "candidate worlds each failure's shrinking may run (the same shrunk file on any machine)")
	shrink := fl.Duration("shrink", 120*time.Second, "the most wall time each failure's shrinking may take (a safety net; a shrink it cuts short says so)")
	shard := fl.String("shard", "", "k/N: explore worlds k−1, k−1+N, … of the seed (a CI matrix of N)")
	out := fl.String("out", "reports/explore", "where shrunk failures, coverage.json, summary.json and summary.txt are written")
	findings := fl.String("findings", "findings", "the kept findings: replayed first, and every new failure kept there too (\"\": none)")
	replay := fl.String("replay", "", "check the world of one fixture file (a written failure) and print what fails")
	promote := fl.String("promote", "", "turn a written failure into a rung skeleton, fixtures/RUNG-SLUG.yaml (SLUG \"explored\" unless given): -promote FILE RUNG[-SLUG]")
	until := fl.Bool("until-failure", false, "stop exploring at the first failure (to measure how soon a fault is found)")
	hash := fl.Bool("hash", false, "run each fixture file named and print its dense, trace and checkpoints digests (the child-process checks)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	switch {
	case *hash:
		return hashRuns(fl.Args(), stdout)
	case *promote != "":
		if fl.NArg() != 1 {
			return errors.New("explore: -promote FILE RUNG[-SLUG] (e.g. -promote reports/explore/F.yaml T3.9-reputation-once)")
		}
		name, data, err := explore.Promote(*promote, fl.Arg(0), "fixtures")
		if err != nil {
			return err
		}
		// O_EXCL: a file made since Promote looked is not overwritten.
		out, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("explore: %w", err)
		}
		if _, err := out.Write(data); err != nil {
			out.Close()
			os.Remove(name)
			return fmt.Errorf("explore: %w", err)
		}
		if err := out.Close(); err != nil {
			os.Remove(name)
			return fmt.Errorf("explore: %w", err)
		}
		rung, _, _ := strings.Cut(fl.Arg(0), "-")
		fmt.Fprintf(stdout, "explore: wrote %s\n  make ladder RUNG=%s   fails the same way until the engine is fixed\n  make goldens RUNG=%s  then gives it its goldens\n", name, rung, rung)
		return nil
	}
	// A run that finishes no tick for LADDER_STALL is given up: a world
	// that hangs the engine is a finding, not an exploration that never
	// ends.
	stall, err := ladder.StallLimit()
	if err != nil {
		return err
	}
	if *replay != "" {
		return replayOne(*replay, stall, stdout)
	}
	// -out is below reports/ by default, which a later make ladder clears
	// only when a run (or this) made it.
	if err := report.Adopt(filepath.Dir(*out)); err != nil {
		return err
	}
	k, n := 1, 1
	if *shard != "" {
		var err error
		if k, n, err = parseShard(*shard); err != nil {
			return err
		}
	}
	from := ""
	switch {
	case *fromCommit:
		s, commit, err := commitSeed()
		if err != nil {
			return err
		}
		*seed, from = s, " (from commit "+commit+")"
	case *seed == 0:
		*seed = uint64(time.Now().UnixNano()%1_000_000_000) + 1
	}
	switch {
	case *workers == 0:
		*workers = runtime.NumCPU()
	case *workers < 0:
		return fmt.Errorf("explore: -workers %d: want at least 1 (0: one per core)", *workers)
	}
	gc := collectSeldom()
	scratch, err := os.MkdirTemp("", "ladder-explore-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	bound, again := fmt.Sprintf("%s", *budget), fmt.Sprintf("-time %s", *budget)
	if *worlds > 0 {
		bound, again = fmt.Sprintf("%d worlds", *worlds), fmt.Sprintf("-worlds %d", *worlds)
	}
	if *lanes > 1 && n == 1 {
		again += fmt.Sprintf(" -lanes %d", *lanes)
	}
	fmt.Fprintf(stdout, "explore: seed %d%s, shard %d/%d, %s, %d workers (replay exactly: go run ./tools/ladder explore -seed %d %s%s)\n",
		*seed, from, k, n, bound, *workers, *seed, again, shardFlag(*shard))
	opt := explore.Options{
		Seed: *seed, Worlds: *worlds, Lanes: *lanes, Budget: *budget, ShrinkTries: *shrinkTries, ShrinkBudget: *shrink, Workers: *workers,
		Shard: k, Shards: n, Sizes: explore.DefaultSizes, Out: *out, Findings: *findings, Scratch: scratch, Progress: stdout,
		Now: time.Now, Command: "go run ./tools/ladder explore", UntilFailure: *until, Stall: stall,
		Constrained: func(paths []string) (map[string]string, error) {
			return freshHashes(self, paths, append(gc, explore.ConstrainedEnv...)...)
		},
		Fresh: func(paths []string) (map[string]string, error) { return freshHashes(self, paths, gc...) },
	}
	sum, err := explore.Explore(opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "explore: seed %d: %d worlds (%d mutants of a corpus of %d), %d runs, %d properties checked in %.0fs, %d failing properties\n",
		*seed, sum.Worlds, sum.Mutants, sum.Corpus, sum.Runs, sum.Checked, sum.Elapsed.Seconds(), len(sum.Failures))
	for _, r := range sum.Failures {
		fmt.Fprintf(stdout, "  %s: found at %.1fs, shrunk to %d NPCs, %d events, %d locations, %d ticks: %s\n",
			r.Finding.Property, r.Found.Seconds(), r.NPCs, r.Events, r.Locations, r.Ticks, r.File)
	}
	if err := writeSummary(*out, sum.Record(opt), stdout); err != nil {
		return err
	}
	failing := len(sum.Failures) + len(sum.StillFailing())
	if failing > 0 {
		return fmt.Errorf("explore: %d properties failed (seed %d), %d of them kept findings that still fail", failing, *seed, len(sum.StillFailing()))
	}
	return nil
}

// writeSummary prints the coverage line and writes coverage.json,
// summary.json and summary.txt under out (explore.WriteSummary): what
// the exploration found, with nothing that depends on the machine, so
// that one seed and world count give the same bytes whoever runs them.
func writeSummary(out string, r explore.Record, stdout io.Writer) error {
	fmt.Fprintln(stdout, r.Coverage.Line())
	if err := explore.WriteSummary(out, r); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "explore: coverage of every regime, with the first world to reach it: %s\n", filepath.Join(out, explore.CoverageFile))
	beside(r.Coverage, filepath.Join(filepath.Dir(filepath.Clean(out)), coverage.ReportFile), stdout)
	fmt.Fprintf(stdout, "explore: what it found, as data for explore-merge: %s\n", filepath.Join(out, explore.SummaryFile))
	return nil
}

// exploreMerge joins the outputs of a campaign's shards into what one
// exploration of the same worlds writes (explore.Merge, docs/explore.md
// "Campaigns"):
//
//	ladder explore-merge [-out reports/explore] [-findings findings] DIR...
//	                     each DIR the -out of explore -seed S -worlds K -shard k/N, k = 1..N;
//	                     exit 1 if a property failed or a kept finding still fails
func exploreMerge(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("explore-merge", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "reports/explore", "where the merged summary, coverage and the shrunk failures are written")
	findings := fl.String("findings", "findings", "where each property's first failure is kept, as one exploration keeps it (\"\": none)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
		return errors.New("usage: ladder explore-merge [-out DIR] [-findings DIR] <shard -out dir>...")
	}
	if err := report.Adopt(filepath.Dir(*out)); err != nil {
		return err
	}
	r, err := explore.Merge(fl.Args(), *out, *findings)
	if err != nil {
		return err
	}
	n := int64(fl.NArg())
	fmt.Fprintf(stdout, "explore-merge: %d shards of seed %d, %d worlds each: one exploration of %d worlds in %d lanes (replay exactly: go run ./tools/ladder explore -seed %d -worlds %d -lanes %d)\n",
		n, r.Seed, r.Asked/n, r.Asked, n, r.Seed, r.Asked, n)
	fmt.Fprint(stdout, r.Text())
	for _, f := range r.Failures {
		// World i is shard (i mod N)+1's (i div N)-th world: its shard
		// explored again up to it finds it first.
		fmt.Fprintf(stdout, "  %s: replay: go run ./tools/ladder explore -replay %s\n    or explore its shard up to it: go run ./tools/ladder explore -seed %d -worlds %d -shard %d/%d\n",
			f.Property, filepath.Join(*out, f.File), r.Seed, f.World/n+1, f.World%n+1, n)
	}
	fmt.Fprintf(stdout, "explore-merge: wrote %s, %s and %s\n", filepath.Join(*out, explore.SummaryFile), filepath.Join(*out, explore.SummaryText), filepath.Join(*out, explore.CoverageFile))
	if failing := len(r.Failures) + r.StillFailing(); failing > 0 {
		return fmt.Errorf("explore-merge: %d properties failed (seed %d), %d of them kept findings that still fail", failing, r.Seed, r.StillFailing())
	}
	return nil
}

// commitSeed derives an exploration seed from the checked-out commit:
// its first 32 bits, so that each commit looks at worlds no earlier
// commit saw, and anyone can replay them with the printed seed.
func commitSeed() (uint64, string, error) {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return 0, "", fmt.Errorf("explore: -seed-from-commit: git rev-parse HEAD: %w (not a git checkout? give -seed instead)", err)
	}
	commit := strings.TrimSpace(string(out))
	if len(commit) < 8 {
		return 0, "", fmt.Errorf("explore: -seed-from-commit: git rev-parse HEAD printed %q", commit)
	}
	s, err := strconv.ParseUint(commit[:8], 16, 64)
	if err != nil {
		return 0, "", fmt.Errorf("explore: -seed-from-commit: %q is not a commit hash: %w", commit, err)
	}
	return s + 1, commit[:12], nil
}

func shardFlag(s string) string {
	if s == "" {
		return ""
	}
	return " -shard " + s
}

func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("explore: shard %q: want k/N with 1 ≤ k ≤ N", s)
	}
	return k, n, nil
}

// replayOne checks a written world's properties and prints each failure.
func replayOne(path string, stall time.Duration, stdout io.Writer) error {
	cs, prop, err := explore.Read(path)
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "ladder-explore-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	out := (&explore.Checker{Scratch: scratch, Stall: stall}).Check(cs)
	for _, x := range out.Findings {
		fmt.Fprintf(stdout, "%s: FAIL %s\n", path, x)
	}
	if len(out.Findings) > 0 {
		return fmt.Errorf("explore: %s: %d properties fail", path, len(out.Findings))
	}
	if prop != "" {
		fmt.Fprintf(stdout, "%s: every property holds (the report named %s)\n", path, prop)
	} else {
		fmt.Fprintf(stdout, "%s: every property holds\n", path)
	}
	return nil
}

// hashRuns runs fixture files and prints "path digest" lines: the child
// half of the fresh-process check.
func hashRuns(paths []string, stdout io.Writer) error {
	scratch, err := os.MkdirTemp("", "ladder-explore-hash-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	for _, p := range paths {
		h, err := explore.HashRun(p, filepath.Join(scratch, "run"))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\t%s\n", p, h)
	}
	return nil
}

// exploreGOGC is the explorer's garbage-collection target. Its worlds are
// small and many, each run allocating afresh: at Go's default of 100 the
// collector was a fifth of an exploration's CPU (200 worlds of seed 1:
// 47.3 CPU-seconds at 100, 36.6 at 400, for 650 MB of peak memory
// against 280). When the collector runs cannot change what a run writes
// — the config-gomaxprocs-1-gogc-10 relation holds that on every fourth
// world — so this moves only the cost.
const exploreGOGC = 400

// collectSeldom sets this process's collection target to exploreGOGC and
// returns the environment its children add to collect as seldom, unless
// the person set GOGC, which then holds for both.
func collectSeldom() []string {
	if _, set := os.LookupEnv("GOGC"); set {
		return nil
	}
	debug.SetGCPercent(exploreGOGC)
	return []string{fmt.Sprintf("GOGC=%d", exploreGOGC)}
}

// freshHashes runs hashRuns in a new process of this executable, its
// environment this one's with env added (a later entry wins).
func freshHashes(self string, paths []string, env ...string) (map[string]string, error) {
	cmd := exec.Command(self, append([]string{"explore", "-hash"}, paths...)...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: %s", err, strings.TrimSpace(errb.String()))
	}
	got := map[string]string{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if p, h, ok := strings.Cut(sc.Text(), "\t"); ok {
			got[p] = h
		}
	}
	return got, sc.Err()
}

// beside sets the exploration's coverage beside the ladder's (the
// coverage.json the last make ladder wrote, when there is one): the
// regimes exploration reached that no rung reaches, and those a rung
// reaches that exploration did not.
func beside(cov *explore.Coverage, ladderReport string, stdout io.Writer) {
	rep, err := coverage.Read(ladderReport)
	if err != nil {
		return // no make ladder ran here: nothing to set it beside
	}
	if !rep.Complete {
		// A partial make ladder (RUNG=…) reached only its runs' regimes:
		// set beside it, most regimes would read "no rung reaches them".
		fmt.Fprintf(stdout, "explore: not set beside %s: the last make ladder ran %d of %d runs; after a full make ladder this line names the regimes exploration alone reaches\n",
			ladderReport, len(rep.Runs), len(rep.Expected))
		return
	}
	byRungs := map[string]bool{}
	for _, row := range rep.Regimes {
		byRungs[row.Name()] = len(row.Runs) > 0
	}
	var alone, missed []string
	for _, g := range cov.Regimes {
		name := fmt.Sprintf("rule %d %s: %s", g.Number, g.Rule, g.Regime)
		switch {
		case g.Worlds > 0 && !byRungs[name]:
			alone = append(alone, name)
		case g.Worlds == 0 && byRungs[name]:
			missed = append(missed, name)
		}
	}
	fmt.Fprintf(stdout, "explore: beside %s: %d regimes reached by exploration alone (no rung reaches them)%s; %d that a rung reaches and no explored world did%s\n",
		ladderReport, len(alone), listed(alone), len(missed), listed(missed))
}

func listed(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, "; ")
}
