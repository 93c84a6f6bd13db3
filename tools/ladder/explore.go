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
	"strconv"
	"strings"
	"time"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/explore"
)

// exploreCmd generates worlds nobody wrote and checks the explorer's
// properties on each (ladder/explore, docs/explore.md):
//
//	ladder explore [-seed S] [-time 60s] [-shard k/N]   explore; exit 1 if a property failed
//	ladder explore -replay reports/explore/F.yaml        check one written world again
//	ladder explore -promote reports/explore/F.yaml T3.9  make it a rung skeleton under fixtures/
func exploreCmd(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("explore", flag.ContinueOnError)
	fl.SetOutput(stderr)
	seed := fl.Uint64("seed", 0, "the exploration's seed (0: one drawn from the clock, printed so the run replays)")
	budget := fl.Duration("time", 60*time.Second, "how long to explore")
	shrink := fl.Duration("shrink", 120*time.Second, "how long to shrink each failure, after the exploration")
	shard := fl.String("shard", "", "k/N: explore worlds k−1, k−1+N, … of the seed (a CI matrix of N)")
	out := fl.String("out", "reports/explore", "where shrunk failures are written")
	replay := fl.String("replay", "", "check the world of one fixture file (a written failure) and print what fails")
	promote := fl.String("promote", "", "turn a written failure into a rung skeleton: -promote FILE RUNG")
	until := fl.Bool("until-failure", false, "stop exploring at the first failure (to measure how soon a fault is found)")
	hash := fl.Bool("hash", false, "run each fixture file named and print its dense and trace digests (the fresh-process check)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	switch {
	case *hash:
		return hashRuns(fl.Args(), stdout)
	case *promote != "":
		if fl.NArg() != 1 {
			return errors.New("explore: -promote FILE RUNG (e.g. -promote reports/explore/F.yaml T3.9)")
		}
		name, data, err := explore.Promote(*promote, fl.Arg(0))
		if err != nil {
			return err
		}
		if _, err := os.Stat(name); err == nil {
			return fmt.Errorf("explore: %s exists already", name)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "explore: wrote %s\n  make ladder RUNG=%s   fails the same way until the engine is fixed\n  make goldens RUNG=%s  then gives it its goldens\n", name, fl.Arg(0), fl.Arg(0))
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
	k, n := 1, 1
	if *shard != "" {
		var err error
		if k, n, err = parseShard(*shard); err != nil {
			return err
		}
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano()%1_000_000_000) + 1
	}
	scratch, err := os.MkdirTemp("", "ladder-explore-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "explore: seed %d, shard %d/%d, %s (replay exactly: go run ./tools/ladder explore -seed %d -time %s%s)\n",
		*seed, k, n, *budget, *seed, *budget, shardFlag(*shard))
	sum, err := explore.Explore(explore.Options{
		Seed: *seed, Budget: *budget, ShrinkBudget: *shrink, Shard: k, Shards: n, Sizes: explore.DefaultSizes,
		Out: *out, Scratch: scratch, Progress: stdout, Now: time.Now, Command: "go run ./tools/ladder explore",
		UntilFailure: *until, Stall: stall,
		Fresh: func(paths []string) (map[string]string, error) { return freshHashes(self, paths) },
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "explore: seed %d: %d worlds, %d runs, %d properties checked in %.0fs, %d failing properties\n",
		*seed, sum.Worlds, sum.Runs, sum.Checked, sum.Elapsed.Seconds(), len(sum.Failures))
	if len(sum.Failures) > 0 {
		for _, r := range sum.Failures {
			fmt.Fprintf(stdout, "  %s: found at %.1fs, shrunk to %d NPCs, %d events, %d locations, %d ticks: %s\n",
				r.Finding.Property, r.Found.Seconds(), r.NPCs, r.Events, r.Locations, r.Ticks, r.File)
		}
		return fmt.Errorf("explore: %d properties failed (seed %d)", len(sum.Failures), *seed)
	}
	return nil
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

// freshHashes runs hashRuns in a new process of this executable.
func freshHashes(self string, paths []string) (map[string]string, error) {
	cmd := exec.Command(self, append([]string{"explore", "-hash"}, paths...)...)
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
