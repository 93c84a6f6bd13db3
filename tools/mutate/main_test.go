package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// dirs is a module's package directories as `go list` gives them here.
var dirs = []string{"dense", "ladder", "ladder/fixture", "sim", "sim/claims", "sim/social", "tools/mutate", "views"}

// mutable returns the files of files that no pattern excludes.
func mutable(patterns []string, files ...string) []string {
	var res []*regexp.Regexp
	for _, p := range patterns {
		res = append(res, regexp.MustCompile(p))
	}
	var out []string
outer:
	for _, f := range files {
		for _, re := range res {
			if re.MatchString(f) {
				continue outer
			}
		}
		out = append(out, f)
	}
	return out
}

var files = []string{"dense/csv.go", "ladder/run.go", "ladder/fixture/load.go", "sim/world.go", "sim/claims/store.go", "sim/social/grudge.go", "tools/mutate/main.go", "views/fear.go"}

var _ = Describe("excludeFiles", func() {
	It("leaves every package under sim/ and views/ mutable and nothing else when there is no scope", func() {
		ex, err := excludeFiles(dirs, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(mutable(ex, files...)).To(Equal([]string{"sim/world.go", "sim/claims/store.go", "sim/social/grudge.go", "views/fear.go"}))
	})

	It("leaves only the scoped package mutable, not its parent's or its sibling's files", func() {
		ex, err := excludeFiles(dirs, []string{"sim/social"})
		Expect(err).NotTo(HaveOccurred())
		Expect(mutable(ex, files...)).To(Equal([]string{"sim/social/grudge.go"}))
	})

	It("leaves sim/ itself mutable without its subpackages when scoped to sim", func() {
		ex, err := excludeFiles(dirs, []string{"sim"})
		Expect(err).NotTo(HaveOccurred())
		Expect(mutable(ex, files...)).To(Equal([]string{"sim/world.go"}))
	})

	It("refuses a scope that is no package: the pass would examine nothing", func() {
		_, err := excludeFiles(dirs, []string{"sim/social", "sim/nothere"})
		Expect(err).To(MatchError(ContainSubstring("scope sim/nothere is not a package directory")))
		ex, err := excludeFiles(dirs, []string{"views"})
		Expect(err).NotTo(HaveOccurred())
		Expect(mutable(ex, files...)).To(Equal([]string{"views/fear.go"}))
		_, err = excludeFiles(dirs, []string{"ladder/fixture"})
		Expect(err).To(MatchError("scope ladder/fixture is not under sim/ or views/, whose mutants the score counts"))
		_, err = excludeFiles([]string{"ladder"}, nil)
		Expect(err).To(MatchError(ContainSubstring("no package under sim/")))
	})

	It("leaves several scoped packages mutable", func() {
		ex, err := excludeFiles(dirs, []string{"sim", "sim/social"})
		Expect(err).NotTo(HaveOccurred())
		Expect(mutable(ex, files...)).To(Equal([]string{"sim/world.go", "sim/social/grudge.go"}))
	})

	It("reads a scope however the flag spells it", func() {
		for _, s := range []string{"./sim/social", "sim/social/", "./sim/social/", "sim/social"} {
			Expect(normScope(s)).To(Equal([]string{"sim/social"}), s)
		}
		Expect(normScope("./sim/social, sim/claims,sim/social/")).To(Equal([]string{"sim/claims", "sim/social"}))
		Expect(normScope("")).To(BeEmpty())
	})
})

var _ = Describe("load", func() {
	It("tallies per package from paths relative to the module root, moving listed equivalents out of the score", func() {
		dir := GinkgoT().TempDir()
		file := filepath.Join(dir, "g.json")
		Expect(os.WriteFile(file, []byte(`{"files":[
			{"file_name":"sim/social/grudge.go","mutations":[
				{"type":"CONDITIONALS_BOUNDARY","status":"LIVED","line":38,"column":20},
				{"type":"ARITHMETIC_BASE","status":"KILLED","line":41,"column":12},
				{"type":"ARITHMETIC_BASE","status":"TIMED OUT","line":41,"column":20},
				{"type":"ARITHMETIC_BASE","status":"NOT COVERED","line":46,"column":20}]},
			{"file_name":"ladder/run.go","mutations":[{"type":"ARITHMETIC_BASE","status":"LIVED","line":1,"column":1}]}]}`), 0o644)).To(Succeed())
		// load reads each mutated line's text (the key of equivalent.txt)
		// from the module root, the working directory of `make mutate`.
		Expect(os.MkdirAll(filepath.Join(dir, "sim/social"), 0o755)).To(Succeed())
		src := "package social\nfunc f(off bool, elapsed int) {" + strings.Repeat("\n", 36) + "\tif off || elapsed <= 0 {\n\t}\n}\n"
		Expect(os.WriteFile(filepath.Join(dir, "sim/social/grudge.go"), []byte(src), 0o644)).To(Succeed())
		eq := []equivalent{{file: "sim/social/grudge.go", source: "if off || elapsed <= 0 {", kind: "CONDITIONALS_BOUNDARY", reason: "why"}}
		DeferCleanup(os.Chdir, must(os.Getwd()))
		Expect(os.Chdir(dir)).To(Succeed())
		r, err := load(file, eq, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.packages).To(HaveLen(1), "files outside sim/ are not scored")
		Expect(*r.packages["sim/social"]).To(Equal(tally{Killed: 1, TimedOut: 1, Equivalent: 1, NotCovered: 1}))
		Expect(r.lived).To(HaveLen(1))
		Expect(r.lived[0].Status).To(Equal("TIMED OUT"))
		Expect(r.notCovered).To(HaveLen(1))
		summary := render([]string{"both"}, map[string]*report{"both": r})
		Expect(summary).To(ContainSubstring("| sim/social | 1 | 0 | 1 | 0 | 1 | 1 | 0 | 50.0% |"))
		Expect(summary).To(ContainSubstring("Survivors:\n\n- `sim/social/grudge.go:41:20` ARITHMETIC_BASE TIMED OUT"))
		Expect(summary).To(ContainSubstring("Not covered:\n\n- `sim/social/grudge.go:46:20` ARITHMETIC_BASE NOT COVERED"))
	})

	// inModule writes a report of the given mutations of sim/x/x.go, whose
	// lines are package x, then each of bodies as a function clampA,
	// clampB… of three lines (line 3 is the first body, line 6 the second),
	// and makes its directory the working directory.
	inModule := func(mutations string, bodies ...string) string {
		GinkgoHelper()
		dir := GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, "sim/x"), 0o755)).To(Succeed())
		src := "package x\n"
		for i, b := range bodies {
			src += "func clamp" + string(rune('A'+i)) + "(v float64, n int) int {\n" + b + "\n}\n"
		}
		Expect(os.WriteFile(filepath.Join(dir, "sim/x/x.go"), []byte(src), 0o644)).To(Succeed())
		file := filepath.Join(dir, "g.json")
		Expect(os.WriteFile(file, []byte(`{"files":[{"file_name":"sim/x/x.go","mutations":[`+mutations+`]}]}`), 0o644)).To(Succeed())
		DeferCleanup(os.Chdir, must(os.Getwd()))
		Expect(os.Chdir(dir)).To(Succeed())
		return file
	}
	// Two ARITHMETIC_BASE mutants on one line: the * at column 18 of the
	// tab-indented line (17 of its text) and the - at column 31 (30).
	const clamp = "\treturn min(int(v*float64(n)), n-1)"
	twoOnALine := `{"type":"ARITHMETIC_BASE","status":"LIVED","line":3,"column":18},
		{"type":"ARITHMETIC_BASE","status":"LIVED","line":3,"column":31}`
	entry := func(kind string) []equivalent {
		return []equivalent{{file: "sim/x/x.go", source: strings.TrimSpace(clamp), kind: kind, reason: "why", at: "eq.txt:9"}}
	}
	sameColumnTwice := `{"type":"ARITHMETIC_BASE","status":"LIVED","line":3,"column":31},
		{"type":"ARITHMETIC_BASE","status":"KILLED","line":6,"column":31}`

	It("refuses an entry without a column that names two mutants: it could hide a real survivor", func() {
		_, err := load(inModule(twoOnALine, clamp), entry("ARITHMETIC_BASE"), nil)
		Expect(err).To(MatchError(ContainSubstring("eq.txt:9: names 2 mutants of ARITHMETIC_BASE (line 3 column 17 in clampA, line 3 column 30 in clampA; ")))
		Expect(err).To(MatchError(ContainSubstring("write ARITHMETIC_BASE@<column> for the one that is equivalent")))
	})

	It("with a column, counts only the mutant at that column of the line's text as equivalent", func() {
		e := entry("ARITHMETIC_BASE")
		e[0].column = 30
		r, err := load(inModule(twoOnALine, clamp), e, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.packages["sim/x"]).To(Equal(tally{Lived: 1, Equivalent: 1}))
		Expect(r.lived).To(HaveLen(1))
		Expect(r.lived[0].Column).To(Equal(18), "the * survives as a real survivor")
		Expect(r.stale).To(BeEmpty())
	})

	It("refuses an entry that names the same text in two functions, and tells them apart by function", func() {
		e := entry("ARITHMETIC_BASE")
		e[0].column = 30
		_, err := load(inModule(sameColumnTwice, clamp, clamp), e, nil)
		Expect(err).To(MatchError(ContainSubstring("names 2 mutants of ARITHMETIC_BASE (line 3 column 30 in clampA, line 6 column 30 in clampB; columns count from the start of the line's trimmed text): the text is on more than one line: write sim/x/x.go:<function>")))
		e[0].fn = "clampB"
		r, err := load(inModule(sameColumnTwice, clamp, clamp), e, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.packages["sim/x"]).To(Equal(tally{Killed: 1, Lived: 1}), "the killed copy in clampB is counted killed; the survivor in clampA stays a survivor")
	})

	It("refuses an entry that names two copies of a line in one function: nothing can tell them apart", func() {
		e := entry("ARITHMETIC_BASE")
		e[0].fn = "clampA"
		_, err := load(inModule(`{"type":"ARITHMETIC_BASE","status":"LIVED","line":3,"column":31},
			{"type":"ARITHMETIC_BASE","status":"LIVED","line":4,"column":31}`, clamp+"\n"+clamp), e, nil)
		Expect(err).To(MatchError(ContainSubstring("(line 3 column 30 in clampA, line 4 column 30 in clampA; columns count from the start of the line's trimmed text): the text is on more than one line of one function")))
	})

	It("summarises a dry run: covered mutants, those listed as equivalent, and stale entries", func() {
		e := entry("ARITHMETIC_BASE")
		e[0].column = 30
		e = append(e, equivalent{file: "sim/x/x.go", source: "gone", kind: "ARITHMETIC_BASE", reason: "why", at: "eq.txt:12"})
		r, err := load(inModule(`{"type":"ARITHMETIC_BASE","status":"RUNNABLE","line":3,"column":18},
			{"type":"ARITHMETIC_BASE","status":"RUNNABLE","line":3,"column":31},
			{"type":"INVERT_NEGATIVES","status":"NOT COVERED","line":3,"column":31}`, clamp), e, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(renderDry(r)).To(Equal("dry run: 1 packages, 2 mutants covered (1 of them listed as equivalent), 1 not covered\n" +
			"stale equivalent entry eq.txt:12: `sim/x/x.go | gone | ARITHMETIC_BASE` names no mutant\n"))
		r.stale = nil
		Expect(renderDry(r)).To(HaveSuffix("equivalent list: every entry for a mutated file names exactly one mutant\n"))
	})

	It("lists an entry that names no mutant of a file the pass mutated as stale", func() {
		e := append(entry("CONDITIONALS_BOUNDARY"), equivalent{file: "sim/other/y.go", source: "x", kind: "ARITHMETIC_BASE", reason: "out of scope", at: "eq.txt:10"})
		r, err := load(inModule(twoOnALine, clamp), e, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.stale).To(HaveLen(1), "an entry for a file the pass did not mutate is not stale")
		summary := render([]string{"both"}, map[string]*report{"both": r})
		Expect(summary).To(ContainSubstring("Equivalent entries that named no mutant (the line changed or is gone: update or remove them):\n\n- eq.txt:9: `sim/x/x.go | return min(int(v*float64(n)), n-1) | CONDITIONALS_BOUNDARY`"))
	})

	It("in a pass with part of the suite, counts what the full suite reaches and the part does not as not reached, against the score", func() {
		file := inModule(`{"type":"ARITHMETIC_BASE","status":"KILLED","line":3,"column":18},
			{"type":"ARITHMETIC_BASE","status":"NOT COVERED","line":3,"column":31},
			{"type":"INVERT_NEGATIVES","status":"NOT COVERED","line":3,"column":31},
			{"type":"CONDITIONALS_NEGATION","status":"NOT COVERED","line":6,"column":2}`, clamp, clamp)
		reach := map[place]bool{
			{"sim/x/x.go", "ARITHMETIC_BASE", 3, 18}: true, {"sim/x/x.go", "ARITHMETIC_BASE", 3, 31}: true,
			{"sim/x/x.go", "INVERT_NEGATIVES", 3, 31}: true,
		}
		e := entry("INVERT_NEGATIVES")
		e[0].fn = "clampA"
		r, err := load(file, e, reach)
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.packages["sim/x"]).To(Equal(tally{Killed: 1, NotReached: 1, Equivalent: 1, NotCovered: 1}))
		Expect(r.packages["sim/x"].Score()).To(Equal(0.5))
		summary := render([]string{"ladder"}, map[string]*report{"ladder": r})
		Expect(summary).To(ContainSubstring("*Not reached*: mutants the full suite reaches and the ladder alone does not; they count against the score.\n\n"))
		Expect(summary).To(ContainSubstring("| package | killed | lived | timed out | not reached | beyond the ladder |"))
		Expect(summary).To(ContainSubstring("| **all** | 1 | 0 | 0 | 1 | 0 | 1 | 1 | 0 | **50.0%** | 50.0% |"))
	})

	It("reads an entry for a whole function, which names every mutant in it and no other", func() {
		file := inModule(`{"type":"ARITHMETIC_BASE","status":"LIVED","line":3,"column":18},
			{"type":"INVERT_NEGATIVES","status":"LIVED","line":3,"column":31},
			{"type":"ARITHMETIC_BASE","status":"LIVED","line":6,"column":18}`, clamp, clamp)
		list := filepath.Join(GinkgoT().TempDir(), "list.txt")
		Expect(os.WriteFile(list, []byte("sim/x/x.go:clampA | * | * | no path takes it\n"), 0o644)).To(Succeed())
		whole, err := readList("the list", list)
		Expect(err).NotTo(HaveOccurred())
		r, err := load(file, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.setBeyond(whole)).To(Succeed())
		Expect(*r.packages["sim/x"]).To(Equal(tally{Lived: 1, Beyond: 2}))
		Expect(r.lived[0].Func).To(Equal("clampB"))
		for _, bad := range []string{"sim/x/x.go | * | * | no function", "sim/x/x.go:clampA | * | ARITHMETIC_BASE | half a wildcard"} {
			Expect(os.WriteFile(list, []byte(bad+"\n"), 0o644)).To(Succeed())
			_, err = readList("the list", list)
			Expect(err).To(MatchError(ContainSubstring("a whole function is written `file:function | * | * | reason`")), bad)
		}
	})

	It("in the ladder pass, sets the survivors the beyond-the-ladder list names apart from the score, with their reasons, and reports an entry that names none", func() {
		file := inModule(`{"type":"ARITHMETIC_BASE","status":"KILLED","line":3,"column":18},
			{"type":"ARITHMETIC_BASE","status":"LIVED","line":3,"column":31},
			{"type":"INVERT_NEGATIVES","status":"NOT COVERED","line":3,"column":31},
			{"type":"CONDITIONALS_NEGATION","status":"LIVED","line":6,"column":2}`, clamp, clamp)
		reach := map[place]bool{{"sim/x/x.go", "INVERT_NEGATIVES", 3, 31}: true}
		r, err := load(file, nil, reach)
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.packages["sim/x"]).To(Equal(tally{Killed: 1, Lived: 2, NotReached: 1}))
		list := entry("INVERT_NEGATIVES")
		list[0].fn, list[0].reason = "clampA", "only a spec asks"
		also := entry("ARITHMETIC_BASE")
		also[0].fn, also[0].column, also[0].reason, also[0].at = "clampA", 30, "only cost moves", "beyond.txt:4"
		never := equivalent{file: "sim/x/x.go", source: "return 7", kind: "ARITHMETIC_BASE", reason: "gone", at: "beyond.txt:9"}
		Expect(r.setBeyond(append(append(list, also...), never))).To(Succeed())
		Expect(*r.packages["sim/x"]).To(Equal(tally{Killed: 1, Lived: 1, Beyond: 2}))
		Expect(r.packages["sim/x"].Score()).To(Equal(0.5))
		Expect(r.packages["sim/x"].WithBeyond()).To(Equal(0.25))
		Expect(r.lived).To(HaveLen(1))
		Expect(r.notReached).To(BeEmpty())
		summary := render([]string{"ladder"}, map[string]*report{"ladder": r})
		Expect(summary).To(ContainSubstring("| **all** | 1 | 1 | 0 | 0 | 2 | 0 | 0 | 0 | **50.0%** | 25.0% |"))
		Expect(summary).To(ContainSubstring("— only cost moves\n"))
		Expect(summary).To(ContainSubstring("— only a spec asks\n"))
		Expect(summary).To(ContainSubstring("Beyond-the-ladder entries that named no survivor (the ladder kills it now, or the line changed: update or remove them):\n\n- beyond.txt:9: `sim/x/x.go | return 7 | ARITHMETIC_BASE`"))
	})

	It("reads what the full suite reaches, and refuses a report in which it reaches nothing", func() {
		path := filepath.Join(GinkgoT().TempDir(), "reach.json")
		Expect(os.WriteFile(path, []byte(`{"files":[{"file_name":"sim/x/x.go","mutations":[
			{"type":"ARITHMETIC_BASE","status":"RUNNABLE","line":3,"column":18},
			{"type":"ARITHMETIC_BASE","status":"KILLED","line":4,"column":18},
			{"type":"ARITHMETIC_BASE","status":"NOT COVERED","line":5,"column":18},
			{"type":"ARITHMETIC_BASE","status":"NOT VIABLE","line":6,"column":18}]}]}`), 0o644)).To(Succeed())
		reach, err := loadReach(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(reach).To(Equal(map[place]bool{{"sim/x/x.go", "ARITHMETIC_BASE", 3, 18}: true, {"sim/x/x.go", "ARITHMETIC_BASE", 4, 18}: true}))
		Expect(os.WriteFile(path, []byte(`{"files":[{"file_name":"sim/x/x.go","mutations":[{"type":"ARITHMETIC_BASE","status":"NOT COVERED","line":5,"column":18}]}]}`), 0o644)).To(Succeed())
		_, err = loadReach(path)
		Expect(err).To(MatchError(ContainSubstring("the full suite reaches no mutant")))
	})

	It("fails a report that holds no mutant of sim/", func() {
		report := filepath.Join(GinkgoT().TempDir(), "g.json")
		Expect(os.WriteFile(report, []byte(`{"files":[]}`), 0o644)).To(Succeed())
		_, err := load(report, nil, nil)
		Expect(err).To(MatchError(ContainSubstring("examined nothing")))
	})
})

var _ = Describe("funcLines", func() {
	It("names the function or method (by receiver type, pointer or generic) each line lies in", func() {
		path := filepath.Join(GinkgoT().TempDir(), "f.go")
		src := "package x\n\nvar v = 1\n\nfunc (s *Store) EndPhase() {\n\t_ = s\n}\n\nfunc (l List[T]) Len() int {\n\treturn 0\n}\n\nfunc plain() {}\n"
		Expect(os.WriteFile(path, []byte(src), 0o644)).To(Succeed())
		fn, err := funcLines(path)
		Expect(err).NotTo(HaveOccurred())
		Expect([]string{fn(3), fn(5), fn(6), fn(7), fn(8), fn(10), fn(13)}).To(Equal([]string{"", "Store.EndPhase", "Store.EndPhase", "Store.EndPhase", "", "List.Len", "plain"}))
	})

	It("refuses a file that does not parse", func() {
		path := filepath.Join(GinkgoT().TempDir(), "f.go")
		Expect(os.WriteFile(path, []byte("package x\nfunc {"), 0o644)).To(Succeed())
		_, err := funcLines(path)
		Expect(err).To(MatchError(ContainSubstring("f.go:2:")))
	})
})

var _ = Describe("readEquivalents", func() {
	write := func(text string) string {
		GinkgoHelper()
		path := filepath.Join(GinkgoT().TempDir(), "eq.txt")
		Expect(os.WriteFile(path, []byte(text), 0o644)).To(Succeed())
		return path
	}

	It("reads entries with and without a column, skipping comments and blank lines", func() {
		path := write("# comment\n\nsim/a.go | if n < 0 { | CONDITIONALS_BOUNDARY | why\nsim/a.go:Store.Get | return n-1 | ARITHMETIC_BASE@9 | because\n")
		eq, err := readEquivalents(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(eq).To(Equal([]equivalent{
			{file: "sim/a.go", source: "if n < 0 {", kind: "CONDITIONALS_BOUNDARY", reason: "why", at: path + ":3"},
			{file: "sim/a.go", fn: "Store.Get", source: "return n-1", kind: "ARITHMETIC_BASE", column: 9, reason: "because", at: path + ":4"},
		}))
	})

	DescribeTable("refuses a malformed entry at its line",
		func(text, want string) {
			path := write("# comment\n" + text + "\n")
			_, err := readEquivalents(path)
			Expect(err).To(MatchError(path + ":2: " + want))
		},
		Entry("no reason", "sim/a.go | x | ARITHMETIC_BASE | ", "want `file[:function] | source | TYPE[@column] | reason`"),
		Entry("three fields", "sim/a.go | x | ARITHMETIC_BASE", "want `file[:function] | source | TYPE[@column] | reason`"),
		Entry("a column that is no number", "sim/a.go | n-1 | ARITHMETIC_BASE@x | why", `column "x" is not a position in the line's text (1 to 3)`),
		Entry("a column past the text", "sim/a.go | n-1 | ARITHMETIC_BASE@4 | why", `column "4" is not a position in the line's text (1 to 3)`),
	)

	It("refuses a missing list rather than scoring every equivalent mutant as a survivor", func() {
		_, err := readEquivalents(filepath.Join(GinkgoT().TempDir(), "none.txt"))
		Expect(err).To(MatchError(ContainSubstring("the equivalent list: open ")))
	})
})

func must[T any](v T, err error) T {
	Expect(err).NotTo(HaveOccurred())
	return v
}

// The wrapper is run on a fake module: a test "binary" that records its
// arguments and fails when told to, in the package directories go test
// would run it in.
var _ = Describe("exec.sh", func() {
	var root, bin, wrapper string

	BeforeEach(func() {
		root = GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(root, "go.mod"), []byte("module fake\n"), 0o644)).To(Succeed())
		for _, d := range []string{"ladder", "ladder/fixture", "sim", "sim/social", "sim/roles", "views"} {
			Expect(os.MkdirAll(filepath.Join(root, d), 0o755)).To(Succeed())
		}
		bin = filepath.Join(root, "fake.test")
		Expect(os.WriteFile(bin, []byte("#!/bin/sh\necho \"$@\" >> \"$PWD/ran\"\n[ -z \"${FAKE_FAIL:-}\" ]\n"), 0o755)).To(Succeed())
		wrapper = must(filepath.Abs("exec.sh"))
	})

	run := func(pkg, scope, suite string, args ...string) (int, string) {
		cmd := exec.Command(wrapper, append([]string{bin}, args...)...)
		cmd.Dir = filepath.Join(root, pkg)
		cmd.Env = append(os.Environ(), "MUTATE_SCOPE="+scope, "MUTATE_SUITE="+suite)
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			Expect(err).NotTo(HaveOccurred())
		}
		ran, _ := os.ReadFile(filepath.Join(cmd.Dir, "ran"))
		return code, strings.TrimSpace(string(ran))
	}

	DescribeTable("runs in the coverage run only the specs a mutant faces",
		func(pkg, scope string, runs bool, suite ...string) {
			code, ran := run(pkg, scope, append(suite, "both")[0], "-test.coverprofile=/tmp/x")
			Expect(code).To(Equal(0))
			if runs {
				Expect(ran).To(Equal("-test.coverprofile=/tmp/x"))
			} else {
				Expect(ran).To(BeEmpty())
			}
		},
		Entry("the scoped package", "sim/social", "sim/social", true),
		Entry("the ladder", "ladder", "sim/social", true),
		Entry("not another package of sim/", "sim/roles", "sim/social", false),
		Entry("not sim/ itself under a scope below it", "sim", "sim/social", false),
		Entry("every package of sim/ without a scope", "sim/roles", "", true),
		Entry("sim/ itself without a scope", "sim", "", true),
		Entry("views/ without a scope", "views", "", true),
		Entry("views/ when scoped", "views", "views", true),
		Entry("nothing outside the engine and the ladder", "ladder/fixture", "", false),
		Entry("each of several scoped packages", "sim/social", "sim/claims sim/social", true),
		Entry("not a package beside several scoped ones", "sim/roles", "sim/claims sim/social", false),
		Entry("not a package whose name a scoped one extends", "sim/social", "sim/social2", false),
		Entry("in the ladder pass, the ladder", "ladder", "", true, "ladder"),
		Entry("in the ladder pass, not the scoped package's specs", "sim/social", "sim/social", false, "ladder"),
		Entry("in the ladder pass, no package of sim/", "sim/roles", "", false, "ladder"),
		Entry("in the unit pass, not the ladder", "ladder", "", false, "unit"),
		Entry("in the unit pass, the scoped package", "sim/social", "sim/social", true, "unit"),
	)

	It("stops the package's specs at the first failure and reports a failure as a kill", func() {
		code, ran := run("sim/social", "sim/social", "unit", "-test.failfast=true")
		Expect(code).To(Equal(0))
		Expect(ran).To(Equal("-ginkgo.fail-fast -test.failfast=true"))
		GinkgoT().Setenv("FAKE_FAIL", "1")
		code, _ = run("sim/social", "sim/social", "unit")
		Expect(code).To(Equal(1))
	})

	Describe("with a ladder", func() {
		// The fake ladder records the reports directory it was given and
		// the flags it was run with, and fails when told to.
		BeforeEach(func() {
			Expect(os.WriteFile(filepath.Join(root, "ladder", "ladder_test.go"), []byte(`package ladder

import (
	"flag"
	"os"
	"testing"
)

var failFast = flag.Bool("ginkgo.fail-fast", false, "")

func TestLadder(t *testing.T) {
	if !*failFast {
		t.Fatal("not fail-fast")
	}
	if err := os.WriteFile("../ladder-ran", []byte(os.Getenv("LADDER_REPORTS")), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("FAKE_LADDER_FAIL") != "" {
		t.Fatal("rung failed")
	}
}
`), 0o644)).To(Succeed())
			GinkgoT().Setenv("LADDER_REPORTS", "/shared/by/every/worker")
		})

		It("runs it fail-fast from the copy's root, with the copy's own reports directory, after the package's specs", func() {
			code, ran := run("sim/social", "sim/social", "both")
			Expect(code).To(Equal(0))
			Expect(ran).To(Equal("-ginkgo.fail-fast"))
			Expect(os.ReadFile(filepath.Join(root, "ladder-ran"))).To(BeEquivalentTo(filepath.Join(root, "reports")))
		})

		It("reports a failing rung as a kill", func() {
			GinkgoT().Setenv("FAKE_LADDER_FAIL", "1")
			code, _ := run("sim/social", "sim/social", "both")
			Expect(code).To(Equal(1))
		})

		It("does not run the package's specs in the ladder pass", func() {
			GinkgoT().Setenv("FAKE_FAIL", "1")
			code, ran := run("sim/social", "sim/social", "ladder")
			Expect(ran).To(BeEmpty())
			Expect(code).To(Equal(0))
			Expect(filepath.Join(root, "ladder-ran")).To(BeAnExistingFile())
		})
	})
})
