package explore

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/shard"
)

// SummaryFile and SummaryText are what an exploration found, as data
// (Record) and as text, written under Options.Out beside CoverageFile.
const (
	SummaryFile = "summary.json"
	SummaryText = "summary.txt"
)

// Record is what an exploration found, with nothing that depends on the
// machine (no time, no worker count), so that one seed and world count
// give the same bytes whoever runs them. Each shard of a campaign writes
// one, and Merge joins them into the record that one exploration of the
// same worlds writes.
type Record struct {
	Seed  uint64 `json:"seed"`
	Shard string `json:"shard"` // k/N
	// Asked is the world count asked (-worlds): the shard's first Asked
	// worlds. 0: the wall clock bounded the exploration (-time), so which
	// worlds it checked depends on the machine.
	Asked int64 `json:"asked"`
	// UntilFailure: the exploration stopped at its first failing world.
	UntilFailure bool `json:"until_failure,omitempty"`
	// Lanes are the corpora the worlds were drawn from (Options.Lanes): a
	// shard of N is one lane of N, and so is a merge of N shards.
	Lanes   int `json:"lanes"`
	Worlds  int `json:"worlds"` // checked: Asked, unless a world hung
	Runs    int `json:"runs"`
	Checked int `json:"checked"`
	// Mutants are the worlds drawn by mutating a corpus world, Corpus the
	// worlds that joined a corpus.
	Mutants int `json:"mutants"`
	Corpus  int `json:"corpus"`
	// Known are the kept findings replayed first, in file order.
	Known []KnownState `json:"known"`
	// Failures are the first failure of each property, by world index
	// and then property.
	Failures []Failed `json:"failures"`
	// Hung are the worlds that hung the engine, each ending its shard.
	Hung     []Hang    `json:"hung,omitempty"`
	Coverage *Coverage `json:"coverage"`
}

// KnownState is a kept finding as an exploration replayed it.
type KnownState struct {
	File     string `json:"file"`
	Property string `json:"property"`
	// Failing is how it fails (Finding.String), "" when it is fixed.
	Failing string `json:"failing,omitempty"`
}

// Failed is a property's first failure: the world it failed in, how,
// and the shrunk file written for it.
type Failed struct {
	Property string `json:"property"`
	World    int64  `json:"world"` // its index in the seed
	Tick     int64  `json:"tick"`  // -1: the run as a whole
	Message  string `json:"message"`
	// File is its name under Options.Out; Kept its name under
	// Options.Findings, "" when none was kept.
	File     string `json:"file"`
	Kept     string `json:"kept,omitempty"`
	Tries    int    `json:"tries"`
	CutShort bool   `json:"cut_short,omitempty"`
	// The shrunk world's size.
	NPCs      int   `json:"npcs"`
	Events    int   `json:"events"`
	Locations int   `json:"locations"`
	Ticks     int64 `json:"ticks"`
}

// Hang is a world that hung the engine: no later world of its shard was
// checked.
type Hang struct {
	Shard string `json:"shard"`
	World int64  `json:"world"`
}

// Record is the summary as data. opt is the exploration's: the world
// count it was asked and whether it stopped at its first failure.
func (s Summary) Record(opt Options) Record {
	lanes := max(opt.Lanes, 1)
	if opt.Shards > 1 {
		lanes = opt.Shards
	}
	r := Record{Seed: s.Coverage.Seed, Shard: s.Coverage.Shard, Asked: max(opt.Worlds, 0), UntilFailure: opt.UntilFailure, Lanes: lanes,
		Worlds: s.Worlds, Runs: s.Runs, Checked: s.Checked, Mutants: s.Mutants, Corpus: s.Corpus, Known: []KnownState{}, Failures: []Failed{}, Coverage: s.Coverage}
	for _, k := range s.Known {
		ks := KnownState{File: k.File, Property: k.Property}
		if k.Failing != nil {
			ks.Failing = k.Failing.String()
		}
		r.Known = append(r.Known, ks)
	}
	for _, w := range s.Failures {
		f := Failed{Property: w.Finding.Property, World: w.World.Index, Tick: w.Finding.Tick, Message: w.Finding.Message,
			File: filepath.Base(w.File), Tries: w.Tries, CutShort: w.CutShort, NPCs: w.NPCs, Events: w.Events, Locations: w.Locations, Ticks: w.Ticks}
		if w.Kept != "" {
			f.Kept = filepath.Base(w.Kept)
		}
		r.Failures = append(r.Failures, f)
		if w.Hung {
			r.Hung = append(r.Hung, Hang{Shard: r.Shard, World: w.World.Index})
		}
	}
	sortFailures(r.Failures)
	return r
}

// sortFailures orders failures by world index, then property: the order
// in which one exploration judges them, which a merge of shards can
// rebuild (the order they were found in cannot: a fresh-process failure
// is only found when its batch runs).
func sortFailures(fs []Failed) {
	slices.SortFunc(fs, func(a, b Failed) int {
		return cmp.Or(cmp.Compare(a.World, b.World), strings.Compare(a.Property, b.Property))
	})
}

// StillFailing counts the kept findings that fail today.
func (r Record) StillFailing() int {
	n := 0
	for _, k := range r.Known {
		if k.Failing != "" {
			n++
		}
	}
	return n
}

// Text is summary.txt: the record as lines to read.
func (r Record) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, shard %s, %d lanes: %d worlds (%d mutants of a corpus of %d), %d runs, %d properties checked, %d failing properties\n",
		r.Seed, r.Shard, r.Lanes, r.Worlds, r.Mutants, r.Corpus, r.Runs, r.Checked, len(r.Failures))
	for _, k := range r.Known {
		state := "fixed"
		if k.Failing != "" {
			state = "still fails: " + k.Failing
		}
		fmt.Fprintf(&b, "kept %s (%s): %s\n", k.File, k.Property, state)
	}
	for _, f := range r.Failures {
		x := &Finding{Property: f.Property, Tick: f.Tick, Message: f.Message}
		fmt.Fprintf(&b, "new %s at %s: %s, shrunk in %d tries to %d NPCs, %d events, %d locations, %d ticks: %s\n",
			f.Property, World{Seed: r.Seed, Index: f.World}, x, f.Tries, f.NPCs, f.Events, f.Locations, f.Ticks, f.File)
	}
	for _, h := range r.Hung {
		fmt.Fprintf(&b, "hung at %s (shard %s): no later world of that shard was checked\n", World{Seed: r.Seed, Index: h.World}, h.Shard)
	}
	b.WriteString(strings.TrimPrefix(r.Coverage.Line(), "explore: ") + "\n")
	return b.String()
}

// WriteSummary writes the record under dir as CoverageFile, SummaryFile
// and SummaryText.
func WriteSummary(dir string, r Record) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("explore: summary: %w", err)
	}
	if _, err := r.Coverage.Write(dir); err != nil {
		return fmt.Errorf("explore: coverage: %w", err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("explore: summary: %w", err)
	}
	if err := writeAtomic(filepath.Join(dir, SummaryFile), append(b, '\n')); err != nil {
		return fmt.Errorf("explore: summary: %w", err)
	}
	if err := writeAtomic(filepath.Join(dir, SummaryText), []byte(r.Text())); err != nil {
		return fmt.Errorf("explore: summary: %w", err)
	}
	return nil
}

// ReadSummary reads the record an exploration wrote under dir.
func ReadSummary(dir string) (Record, error) {
	var r Record
	b, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		return r, fmt.Errorf("explore: %w (not the -out of an exploration?)", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("explore: %s: %w", filepath.Join(dir, SummaryFile), err)
	}
	if r.Coverage == nil {
		return r, fmt.Errorf("explore: %s holds no coverage", filepath.Join(dir, SummaryFile))
	}
	return r, nil
}

// Merge joins the outputs of a campaign's shards (dirs: each the -out of
// `explore -seed S -worlds K -shard k/N`, k = 1..N once each) into what
// one exploration of the same worlds, `explore -seed S -worlds K·N`,
// writes under out and findings: shard k's j-th world is that
// exploration's world (k−1)+j·N, so the counts add up, each property's
// first failure is the lowest-indexed across the shards (its shrunk file
// copied, and kept under findings unless findings is ""), the kept
// findings are the union of the shards', and each regime's first world
// is the lowest. A world that hung ended its shard only: the merged
// record says so (Record.Hung), and is then no longer one exploration's.
func Merge(dirs []string, out, findings string) (Record, error) {
	if len(dirs) == 0 {
		return Record{}, errors.New("explore merge: no shards")
	}
	recs := make([]Record, len(dirs))
	for i, d := range dirs {
		var err error
		if recs[i], err = ReadSummary(d); err != nil {
			return Record{}, fmt.Errorf("explore merge: shard %s: %w", d, err)
		}
	}
	m, from, err := mergeRecords(dirs, recs)
	if err != nil {
		return Record{}, err
	}
	if findings == "" {
		for i := range m.Failures {
			m.Failures[i].Kept = ""
		}
	}
	for i, f := range m.Failures {
		src := filepath.Join(dirs[from[i]], f.File)
		data, err := os.ReadFile(src)
		if err != nil {
			return Record{}, fmt.Errorf("explore merge: the first failure of %s: %w", f.Property, err)
		}
		if err := writeRelocated(data, filepath.Join(out, f.File)); err != nil {
			return Record{}, fmt.Errorf("explore merge: %s: %w", src, err)
		}
		if f.Kept != "" {
			if err := writeRelocated(data, filepath.Join(findings, f.Kept)); err != nil {
				return Record{}, fmt.Errorf("explore merge: keeping %s: %w", src, err)
			}
		}
	}
	return m, WriteSummary(out, m)
}

// writeRelocated writes a written failure at path, naming path.
func writeRelocated(data []byte, path string) error {
	data, err := Relocate(data, path)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o755)
	}
	if err == nil {
		err = writeAtomic(path, data)
	}
	return err
}

// mergeRecords joins the shards' records, refusing what one exploration
// could not have written, and says for each merged failure which shard
// it came from.
func mergeRecords(dirs []string, recs []Record) (Record, []int, error) {
	first := recs[0]
	n := 0
	seen := map[int]string{}
	for i, r := range recs {
		spec, err := shard.ParseSpec(r.Shard)
		if err != nil {
			return Record{}, nil, fmt.Errorf("explore merge: %s: %w", dirs[i], err)
		}
		switch {
		case r.Asked <= 0:
			return Record{}, nil, fmt.Errorf("explore merge: %s was bounded by the clock (-time), not by -worlds: which worlds it checked depends on the machine", dirs[i])
		case r.UntilFailure:
			return Record{}, nil, fmt.Errorf("explore merge: %s stopped at its first failure (-until-failure): its worlds after it were never checked", dirs[i])
		case r.Seed != first.Seed:
			return Record{}, nil, fmt.Errorf("explore merge: %s explored seed %d, %s seed %d", dirs[0], first.Seed, dirs[i], r.Seed)
		case r.Asked != first.Asked:
			return Record{}, nil, fmt.Errorf("explore merge: %s checked -worlds %d, %s -worlds %d", dirs[0], first.Asked, dirs[i], r.Asked)
		case i > 0 && spec.N != n:
			return Record{}, nil, fmt.Errorf("explore merge: %s is a shard of %d, %s of %d", dirs[0], n, dirs[i], spec.N)
		case seen[spec.K] != "":
			return Record{}, nil, fmt.Errorf("explore merge: %s and %s are both shard %s", seen[spec.K], dirs[i], r.Shard)
		case r.Lanes != spec.N:
			return Record{}, nil, fmt.Errorf("explore merge: %s drew its worlds from %d lanes, not the %d of a shard of %d (written by an older explore?)", dirs[i], r.Lanes, spec.N, spec.N)
		}
		n = spec.N
		seen[spec.K] = dirs[i]
	}
	for k := 1; k <= n; k++ {
		if seen[k] == "" {
			return Record{}, nil, fmt.Errorf("explore merge: shard %d/%d is missing (%d of %d given)", k, n, len(recs), n)
		}
	}
	m := Record{Seed: first.Seed, Shard: "1/1", Asked: first.Asked * int64(n), Lanes: n, Known: []KnownState{}, Failures: []Failed{}}
	var covs []*Coverage
	known := map[string]KnownState{}
	type won struct {
		shard int
		f     Failed
	}
	winner := map[string]won{} // property → its first failure, across the shards
	for i, r := range recs {
		m.Worlds += r.Worlds
		m.Runs += r.Runs
		m.Checked += r.Checked
		m.Mutants += r.Mutants
		m.Corpus += r.Corpus
		m.Hung = append(m.Hung, r.Hung...)
		covs = append(covs, r.Coverage)
		for _, k := range r.Known {
			if had, ok := known[k.File]; ok && had != k {
				return Record{}, nil, fmt.Errorf("explore merge: the shards replayed kept finding %s differently (%q and %q): shards of different trees?", k.File, had.Failing, k.Failing)
			}
			known[k.File] = k
		}
		for _, f := range r.Failures {
			if w, ok := winner[f.Property]; !ok || f.World < w.f.World {
				winner[f.Property] = won{i, f}
			}
		}
	}
	for _, file := range slices.Sorted(maps.Keys(known)) {
		m.Known = append(m.Known, known[file])
	}
	for _, prop := range slices.Sorted(maps.Keys(winner)) {
		m.Failures = append(m.Failures, winner[prop].f)
	}
	sortFailures(m.Failures)
	from := make([]int, len(m.Failures))
	for i, f := range m.Failures {
		from[i] = winner[f.Property].shard
	}
	slices.SortFunc(m.Hung, func(a, b Hang) int { return cmp.Compare(a.World, b.World) })
	cov, err := mergeCoverage(covs)
	if err != nil {
		return Record{}, nil, fmt.Errorf("explore merge: %w", err)
	}
	m.Coverage = cov
	return m, from, nil
}
