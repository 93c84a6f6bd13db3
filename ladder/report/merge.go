package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/confine"
	"github.com/chronicle/ladder/ladder/verdict"
	"github.com/onsi/ginkgo/v2/types"
)

// Merge joins the reports of shards — directories each holding junit.xml,
// ladder.json (Ginkgo's) and failures.json, and a directory per run
// (MergeRuns) — into out, as if one run had made them: a spec that ran in one shard is taken from it, one that ran
// in none is listed once as it was (skipped), and one that ran in two is
// an error, since the shards are meant to split the specs, not repeat them.
//
// out is a reports directory like any run's: Merge takes it (Lock, which
// refuses a symlink, or a directory with files that is not a reports
// directory), clears it and returns its lock, which the caller holds while
// it writes more there (the page, the coverage). Before that, it refuses
// a shard that holds a symlink (a crafted artifact would have it copied
// and read through later) and an out that is one of the shards.
func Merge(out string, shards []string) (*os.File, error) {
	if err := checkShards(out, shards); err != nil {
		return nil, err
	}
	lock, err := Lock(out)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	err = Clear(out)
	if err == nil {
		err = merge(out, shards)
	}
	if err != nil {
		lock.Close()
		return nil, err
	}
	return lock, nil
}

// checkShards refuses shards Merge must not read: one holding a symlink
// or anything but directories and regular files, and one that is out
// itself, which taking out would clear.
func checkShards(out string, shards []string) error {
	if len(shards) == 0 {
		return fmt.Errorf("merge: no shard reports given")
	}
	outInfo, outErr := os.Stat(out)
	for _, dir := range shards {
		if err := confine.Tree(dir); err != nil {
			return fmt.Errorf("merge: shard %s: %w", dir, err)
		}
		if info, err := os.Stat(dir); err == nil && outErr == nil && os.SameFile(info, outInfo) {
			return fmt.Errorf("merge: -out %s is the shard %s: merging into it would clear it first; give -out a directory of its own", out, dir)
		}
	}
	return nil
}

// merge writes the merged reports into out, which Merge holds and has
// cleared.
func merge(out string, shards []string) error {
	var (
		junits []JUnit
		ginkgo [][]types.Report
		fails  Failures
	)
	for _, dir := range shards {
		b, err := os.ReadFile(filepath.Join(dir, JUnitFile))
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		j, err := ParseJUnit(b)
		if err != nil {
			return fmt.Errorf("merge %s: %w", dir, err)
		}
		junits = append(junits, j)

		b, err = os.ReadFile(filepath.Join(dir, GinkgoFile))
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		var rs []types.Report
		if err := json.Unmarshal(b, &rs); err != nil {
			return fmt.Errorf("merge %s/%s: %w", dir, GinkgoFile, err)
		}
		ginkgo = append(ginkgo, rs)

		b, err = os.ReadFile(filepath.Join(dir, FailuresFile))
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		var f Failures
		if err := json.Unmarshal(b, &f); err != nil {
			return fmt.Errorf("merge %s/%s: %w", dir, FailuresFile, err)
		}
		fails.Failures = append(fails.Failures, f.Failures...)
	}
	j, err := MergeJUnit(junits, shards)
	if err != nil {
		return err
	}
	g, err := MergeGinkgo(ginkgo, shards)
	if err != nil {
		return err
	}
	fails.sort()
	if fails.Failures == nil {
		fails.Failures = []verdict.Problem{}
	}
	jb, err := j.Marshal()
	if err != nil {
		return err
	}
	gb, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	fb, err := fails.Marshal()
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{JUnitFile, jb}, {GinkgoFile, gb}, {FailuresFile, fb}} {
		if err := artifact.Write(filepath.Join(out, f.name), f.data); err != nil {
			return err
		}
	}
	return MergeRuns(out, shards)
}

// MergeRuns copies every run's directory of every shard — reports/<rung>/
// with its cases' directories inside, holding the run's artifacts and,
// when they differ from the goldens, its pending change — into out, so
// that `ladder review`, `accept` and the triage page see the merged run
// as one (LADDER_REPORTS=out). A shard runs a rung with all its cases, so
// a directory found in two shards means the shards overlapped: an error
// naming both, before anything is copied.
func MergeRuns(out string, shards []string) error {
	from := map[string]string{} // run directory → the shard it comes from
	var names []string
	for _, dir := range shards {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("merge runs: %w", err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			if prev, ok := from[e.Name()]; ok {
				return fmt.Errorf("merge runs: %s ran in two shards (%s and %s)", e.Name(), prev, dir)
			}
			from[e.Name()] = dir
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	for _, name := range names {
		dst := filepath.Join(out, name)
		if err := os.RemoveAll(dst); err != nil {
			return fmt.Errorf("merge runs: %w", err)
		}
		if err := os.CopyFS(dst, os.DirFS(filepath.Join(from[name], name))); err != nil {
			return fmt.Errorf("merge runs: copy %s from %s: %w", name, from[name], err)
		}
	}
	return nil
}

// MergeJUnit joins JUnit documents: suites by name, testcases sorted,
// counts recomputed. A testcase (name, file, line) in two documents is an
// error naming both.
func MergeJUnit(docs []JUnit, names []string) (JUnit, error) {
	out := JUnit{XMLName: docs[0].XMLName, Name: docs[0].Name}
	index := map[string]int{}
	seen := map[string]int{}
	for d, doc := range docs {
		for _, s := range doc.Suites {
			i, ok := index[s.Name]
			if !ok {
				i = len(out.Suites)
				index[s.Name] = i
				out.Suites = append(out.Suites, JUnitSuite{Name: s.Name})
			}
			for _, c := range s.Cases {
				id := fmt.Sprintf("%s\x00%s:%d", c.Name, c.File, c.Line)
				if prev, ok := seen[id]; ok {
					return JUnit{}, fmt.Errorf("merge: %q ran in two shards (%s and %s)", c.Name, names[prev], names[d])
				}
				seen[id] = d
				out.Suites[i].Cases = append(out.Suites[i].Cases, c)
			}
		}
	}
	for i := range out.Suites {
		s := &out.Suites[i]
		slices.SortFunc(s.Cases, func(a, b JUnitCase) int { return strings.Compare(a.Name, b.Name) })
		for _, c := range s.Cases {
			s.Tests++
			s.Time += c.Time
			switch {
			case c.Failure != nil:
				s.Failures++
			case c.Error != nil:
				s.Errors++
			case c.Skipped != nil:
				s.Skipped++
			}
		}
	}
	sortSuites(out.Suites)
	out.total()
	return out, nil
}

// MergeGinkgo joins Ginkgo JSON reports suite by suite (by description):
// every spec once — from the shard that ran it — the suite succeeding only
// if every shard's did, run times summed. Suite-level nodes (a
// ReportAfterSuite) ran in every shard; the first shard's is kept.
func MergeGinkgo(shards [][]types.Report, names []string) ([]types.Report, error) {
	var out []types.Report
	index := map[string]int{}
	type spec struct {
		shard int
		ran   bool
		at    int // index in the merged suite's SpecReports
	}
	specs := map[string]*spec{}
	for d, reports := range shards {
		for _, r := range reports {
			i, ok := index[r.SuiteDescription]
			if !ok {
				i = len(out)
				index[r.SuiteDescription] = i
				base := r
				base.SpecReports = nil
				base.RunTime = 0
				base.SuiteSucceeded = true
				out = append(out, base)
			}
			m := &out[i]
			m.SuiteSucceeded = m.SuiteSucceeded && r.SuiteSucceeded
			m.RunTime += r.RunTime
			for _, s := range r.SpecReports {
				id := r.SuiteDescription + "\x00" + s.LeafNodeType.String() + "\x00" + s.FullText() + "\x00" + s.LeafNodeLocation.String()
				ran := Ran(s)
				prev, seen := specs[id]
				switch {
				case !seen:
					specs[id] = &spec{shard: d, ran: ran, at: len(m.SpecReports)}
					m.SpecReports = append(m.SpecReports, s)
				case s.LeafNodeType != types.NodeTypeIt:
					// a suite-level node: every shard ran its own
				case ran && prev.ran:
					return nil, fmt.Errorf("merge: %q ran in two shards (%s and %s)", s.FullText(), names[prev.shard], names[d])
				case ran:
					m.SpecReports[prev.at] = s
					prev.shard, prev.ran = d, true
				}
			}
		}
	}
	return out, nil
}
