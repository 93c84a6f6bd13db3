package history_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/sim/trace"
)

// A tiny synthetic set, written by hand: unit specs never pin a rung's
// real output. Three golden commits move it; a side branch merged with a
// merge commit moves it once more.
const (
	set = "goldens/T9.1-tiny"

	dense1 = "tick,a/at,a/t@1/confidence\n0,home,\n1,road,0.5\n2,road,0.5\n"
	dense2 = "tick,a/at,a/t@1/confidence,b/at\n0,home,,hall\n1,road,0.6,hall\n2,road,0.5,hall\n" // 1's confidence, and b/at added
	dense3 = "tick,a/at,a/t@1/confidence,b/at\n0,home,,hall\n1,road,0.6,hall\n2,road,0.7,hall\n" // 2's confidence
	denseS = "tick,a/at,a/t@1/confidence,b/at\n0,home,,hall\n1,road,0.6,hall\n2,inn,0.7,hall\n"  // on the side branch: 2's place

	// The first trace is spelt in schema version 2, the others in 3, which
	// leaves out what a record implies (a belief's claim, the branch): a
	// conversion of spelling is not a change of any record.
	header2 = `{"branch":{"generation":0,"save_uuid":"u"},"kind":"header","schema":"chronicle.trace","seed_id":"s","version":2}` + "\n"
	header3 = `{"branches":[{"generation":0,"save_uuid":"u"}],"kind":"header","schema":"chronicle.trace","seed_id":"s","version":3}` + "\n"
	rec0    = `{"branch":0,"id":"theft@1","kind":"event","seq":0,"tick":1}` + "\n"
	rec1    = `{"branch":0,"change":"formed","confidence":0.5,"holder":"a","kind":"belief","seq":1,"tick":1,"variant":"theft@1#v0"}` + "\n"
	rec2    = `{"branch":0,"change":"formed","confidence":0.5,"holder":"a","kind":"belief","seq":2,"tick":2,"variant":"theft@1#v0"}` + "\n"
	rec2b   = `{"branch":0,"change":"formed","confidence":0.7,"holder":"a","kind":"belief","seq":2,"tick":2,"variant":"theft@1#v0"}` + "\n"
	trace1  = header2 + `{"branch":{"generation":0,"save_uuid":"u"},"id":"theft@1","kind":"event","seq":0,"tick":1}` + "\n" +
		`{"branch":{"generation":0,"save_uuid":"u"},"change":"formed","claim":"theft@1","confidence":0.5,"holder":"a","kind":"belief","seq":1,"tick":1,"variant":"theft@1#v0"}` + "\n" +
		`{"branch":{"generation":0,"save_uuid":"u"},"change":"formed","claim":"theft@1","confidence":0.5,"holder":"a","kind":"belief","seq":2,"tick":2,"variant":"theft@1#v0"}` + "\n"
	trace2 = header3 + rec0 + rec1 + rec2
	trace3 = header3 + rec0 + rec1 + rec2b
)

// entry is a history entry as Encode writes it.
func entry(e history.Entry) string {
	GinkgoHelper()
	b, err := e.Encode()
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var (
	created = history.Entry{State: history.New, By: "goldens", Fixture: "fixtures/T9.1-tiny.yaml", FixtureHash: "1111111111111111", CodeHash: "aaaaaaaaaaaaaaaa"}
	second  = history.Entry{State: history.Changed, By: "accept", Fixture: "fixtures/T9.1-tiny.yaml", FixtureHash: "1111111111111111", CodeHash: "bbbbbbbbbbbbbbbb",
		Reason: "retelling is surer", Drift: "value drift", Cells: 4,
		First: &history.First{Artifact: "dense.csv", Tick: 1, Column: "a/t@1/confidence", Before: "0.5", After: "0.6"}}
	third = history.Entry{State: history.Changed, By: "goldens", Fixture: "fixtures/T9.1-tiny.yaml", FixtureHash: "1111111111111111", CodeHash: "cccccccccccccccc",
		Reason: "the second tick's belief firms up", Drift: "value drift", Cells: 1, Records: 1,
		First: &history.First{Artifact: "trace.jsonl", Tick: 2, Line: 4, Kind: "belief", Key: `"a/theft@1 formed"`, Field: "confidence", Before: "0.5", After: "0.7"}}
	side = history.Entry{State: history.Changed, By: "accept", Fixture: "fixtures/T9.1-tiny.yaml", FixtureHash: "1111111111111111", CodeHash: "dddddddddddddddd",
		Reason: "a goes to the inn", Drift: "value drift", Cells: 1,
		First: &history.First{Artifact: "dense.csv", Tick: 2, Column: "a/at", Before: "road", After: "inn"}}
)

// scratch is a git repository holding the tiny set's history; hash names
// each commit by its subject.
type scratch struct {
	dir  string
	hash map[string]string
}

func (s *scratch) git(args ...string) string {
	GinkgoHelper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=spec", "-c", "user.email=spec@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = s.dir
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// commit writes files (path under the set → content) and commits them.
func (s *scratch) commit(subject string, files map[string]string) {
	GinkgoHelper()
	for name, content := range files {
		p := filepath.Join(s.dir, filepath.FromSlash(set), name)
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
	}
	s.git("add", "-A")
	s.git("commit", "-q", "-m", subject)
	s.hash[subject] = s.git("rev-parse", "HEAD")
}

func newScratch() *scratch {
	GinkgoHelper()
	s := &scratch{dir: GinkgoT().TempDir(), hash: map[string]string{}}
	s.git("init", "-q")
	s.commit("one: the set is new", map[string]string{"dense.csv": dense1, "trace.jsonl": trace1, history.File: entry(created)})
	s.commit("two: surer retellings", map[string]string{"dense.csv": dense2, "trace.jsonl": trace2, history.File: entry(created) + entry(second)})
	Expect(os.WriteFile(filepath.Join(s.dir, "README"), []byte("not a golden\n"), 0o644)).To(Succeed())
	s.git("add", "-A")
	s.git("commit", "-q", "-m", "an unrelated commit")
	s.commit("three: the second tick firms up", map[string]string{"dense.csv": dense3, "trace.jsonl": trace3,
		history.File: entry(created) + entry(second) + entry(third)})
	s.git("checkout", "-q", "-b", "side")
	s.commit("side: a goes to the inn", map[string]string{"dense.csv": denseS, history.File: entry(created) + entry(second) + entry(third) + entry(side)})
	s.git("checkout", "-q", "main")
	s.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	return s
}

var _ = Describe("Blame", func() {
	var s *scratch
	BeforeEach(func() { s = newScratch() })

	cell := func(tick int64, column string) *history.Blamed {
		GinkgoHelper()
		b, err := history.Blame(s.dir, history.Target{Dir: set, Tick: tick, Column: column, Seq: -1})
		Expect(err).NotTo(HaveOccurred())
		return b
	}

	It("names the commit that changed a cell, its value before, and the entry it appended with the reason", func() {
		b := cell(2, "a/t@1/confidence")
		Expect(b.Path).To(Equal(set + "/dense.csv"))
		Expect(b.Commit.Hash).To(Equal(s.hash["three: the second tick firms up"]))
		Expect(b.Commit.Subject).To(Equal("three: the second tick firms up"))
		Expect(b.Value).To(Equal("0.7"))
		Expect(b.Before).To(Equal("0.5"))
		Expect(b.Created || b.Added).To(BeFalse())
		Expect(b.Entries).To(Equal([]history.Entry{third}))
		Expect(b.Entries[0].Reason).To(Equal("the second tick's belief firms up"))

		b = cell(1, "a/t@1/confidence")
		Expect(b.Commit.Hash).To(Equal(s.hash["two: surer retellings"]), "an older change, under a later one of another cell")
		Expect(b.Before).To(Equal("0.5"))
		Expect(b.Entries).To(Equal([]history.Entry{second}))
	})

	It("names the commit that created the file for a cell unchanged since, with its entry", func() {
		b := cell(0, "a/at")
		Expect(b.Created).To(BeTrue())
		Expect(b.Commit.Hash).To(Equal(s.hash["one: the set is new"]))
		Expect(b.Value).To(Equal("home"))
		Expect(b.HasHistory).To(BeTrue())
		Expect(b.Entries).To(Equal([]history.Entry{created}))
		Expect(cell(0, "a/t@1/confidence").Commit.Hash).To(Equal(s.hash["one: the set is new"]), "an empty cell is a value too")
	})

	It("says a column that did not exist before a commit was added there", func() {
		b := cell(1, "b/at")
		Expect(b.Added).To(BeTrue())
		Expect(b.Missing).To(Equal("column"))
		Expect(b.Commit.Hash).To(Equal(s.hash["two: surer retellings"]))
	})

	It("follows a change merged from a branch to the branch's commit, not the merge", func() {
		b := cell(2, "a/at")
		Expect(b.Commit.Hash).To(Equal(s.hash["side: a goes to the inn"]))
		Expect(b.Before).To(Equal("road"))
		Expect(b.Entries).To(Equal([]history.Entry{side}))
	})

	It("names the commit that changed a record, found by seq or by line, with the fields that moved", func() {
		for _, t := range []history.Target{{Dir: set, Tick: -1, Seq: 2}, {Dir: set, Tick: 2, Seq: -1, Line: 4}} {
			b, err := history.Blame(s.dir, t)
			Expect(err).NotTo(HaveOccurred())
			Expect(b.Path).To(Equal(set + "/trace.jsonl"))
			Expect(b.Commit.Hash).To(Equal(s.hash["three: the second tick firms up"]))
			Expect(b.Value).To(Equal(strings.TrimSpace(rec2b)))
			Expect(b.Line).To(Equal(4))
			Expect(b.Tick).To(Equal(int64(2)))
			Expect(b.Fields).To(Equal([]trace.FieldChange{{Path: "confidence", Golden: "0.5", Actual: "0.7"}}))
			Expect(b.Entries).To(Equal([]history.Entry{third}))
		}
	})

	It("reads a record respelt in another schema version as the same record: unchanged since created", func() {
		b, err := history.Blame(s.dir, history.Target{Dir: set, Tick: -1, Seq: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Created).To(BeTrue())
		Expect(b.Commit.Hash).To(Equal(s.hash["one: the set is new"]))
	})

	It("says when a commit appended no entry, and when the set had no history then", func() {
		s.commit("four: a hand edit", map[string]string{"dense.csv": strings.Replace(denseS, "0,home", "0,barn", 1)})
		b := cell(0, "a/at")
		Expect(b.Commit.Hash).To(Equal(s.hash["four: a hand edit"]))
		Expect(b.HasHistory).To(BeTrue())
		Expect(b.Entries).To(BeEmpty())

		Expect(os.Remove(filepath.Join(s.dir, set, history.File))).To(Succeed())
		s.commit("five: no history", map[string]string{"dense.csv": strings.Replace(denseS, "0,home", "0,attic", 1)})
		b = cell(0, "a/at")
		Expect(b.HasHistory).To(BeFalse())
		Expect(b.Entries).To(BeEmpty())
	})

	DescribeTable("refuses what HEAD does not hold, saying what it does",
		func(t history.Target, message string) {
			t.Dir = set
			_, err := history.Blame(s.dir, t)
			Expect(err).To(MatchError(message))
		},
		Entry("an unknown column, with the close one", history.Target{Tick: 1, Column: "a/t@1/confidense", Seq: -1},
			`goldens/T9.1-tiny/dense.csv has no column "a/t@1/confidense" (did you mean "a/t@1/confidence"?)`),
		Entry("a tick beyond the run", history.Target{Tick: 9, Column: "a/at", Seq: -1},
			"goldens/T9.1-tiny/dense.csv has no row for tick 9: the run's ticks are 0-2"),
		Entry("a seq beyond the trace", history.Target{Tick: -1, Seq: 7},
			"goldens/T9.1-tiny/trace.jsonl has no record with seq 7: its records' seqs end at 2"),
		Entry("a line beyond the trace", history.Target{Tick: -1, Seq: -1, Line: 9},
			"goldens/T9.1-tiny/trace.jsonl has no line 9: it has 4 lines"),
		Entry("a record at another tick than asked", history.Target{Tick: 1, Seq: 2},
			"goldens/T9.1-tiny/trace.jsonl: its record with seq 2 is at tick 2, not 1"),
	)

	It("refuses a set whose file was never committed", func() {
		_, err := history.Blame(s.dir, history.Target{Dir: "goldens/T9.2-none", Tick: 0, Column: "a/at", Seq: -1})
		Expect(err).To(MatchError("goldens/T9.2-none/dense.csv has no committed version: blame reads the goldens as committed"))
	})

	It("refuses a directory that is not a git repository", func() {
		_, err := history.Blame(GinkgoT().TempDir(), history.Target{Dir: set, Tick: 0, Column: "a/at", Seq: -1})
		Expect(err).To(MatchError(HavePrefix("not a git repository: blame reads the committed goldens' history from git (git rev-parse --git-dir: ")))
	})
})
