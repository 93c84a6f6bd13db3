package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/regen"
)

// repo is the repository root, absolute so specs may change directory:
// the suite starts in tools/ladder.
var repo = func() string {
	p, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return p
}()

// invoke runs the command in-process and returns its stdout.
func invoke(args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	err := run(args, &stdout, &stderr)
	return stdout.String(), err
}

func copyFile(from, to string) {
	GinkgoHelper()
	b, err := os.ReadFile(from)
	Expect(err).NotTo(HaveOccurred())
	Expect(os.MkdirAll(filepath.Dir(to), 0o755)).To(Succeed())
	Expect(os.WriteFile(to, b, 0o644)).To(Succeed())
}

// runsOf returns the runs of a committed fixture (its file name without
// .yaml): the rung first, then its cases in file order. Specs that drive
// the tools over a real rung expect every run of it from this list, so a
// case added to the rung changes what they expect, not whether they pass.
func runsOf(name string) []*fixture.Fixture {
	GinkgoHelper()
	fs, err := fixture.Load(filepath.Join(repo, "fixtures", name+".yaml"))
	Expect(err).NotTo(HaveOccurred())
	return fs
}

// checked is what `check` prints for a valid fixture at path whose runs
// are runs: ok, then what the rung costs, and each case that costs
// otherwise.
func checked(path string, runs []*fixture.Fixture) string {
	s := fmt.Sprintf("%s: ok (%s, %d case(s) besides the rung)\n", path, runs[0].Rung, len(runs)-1)
	for _, f := range runs {
		if f.Case == "" || f.Cost != runs[0].Cost {
			s += fmt.Sprintf("  %s costs %s\n", f.Name(), f.Cost)
		}
	}
	return s
}

// loaded loads a fixture file the spec wrote.
func loaded(path string) []*fixture.Fixture {
	GinkgoHelper()
	fs, err := fixture.Load(path)
	Expect(err).NotTo(HaveOccurred())
	return fs
}

// tempRoot makes a repository-like root holding the specs' own T0.1
// (testdata/T0.1-witness.yaml, not the ladder's rung: the specs pin its
// numbers) and, with goldens, its goldens rendered there, and makes it
// the working directory for the spec, as the Makefile runs the tool from
// the repository root.
func tempRoot(goldens bool) string {
	GinkgoHelper()
	root := GinkgoT().TempDir()
	path := filepath.Join(root, "fixtures", "T0.1-witness.yaml")
	copyFile(filepath.Join(repo, "tools", "ladder", "testdata", "T0.1-witness.yaml"), path)
	if goldens {
		renderGoldens(root, loaded(path))
	}
	return root
}

// renderGoldens runs each fixture and keeps its golden files under root,
// as make goldens would (a run writes more than its goldens).
func renderGoldens(root string, fs []*fixture.Fixture) {
	GinkgoHelper()
	out := GinkgoT().TempDir()
	Expect(regen.Render(fs, out)).To(Succeed())
	for _, f := range fs {
		dir := filepath.FromSlash(f.GoldenDir())
		for _, name := range ladder.Artifacts(f) {
			copyFile(filepath.Join(out, dir, name), filepath.Join(root, dir, name))
		}
	}
}

func chdir(dir string) {
	GinkgoHelper()
	wd, err := os.Getwd()
	Expect(err).NotTo(HaveOccurred())
	Expect(os.Chdir(dir)).To(Succeed())
	DeferCleanup(os.Chdir, wd)
}

var _ = Describe("run", func() {
	It("explains its usage when given no command", func() {
		_, err := invoke()
		Expect(err).To(MatchError("usage: ladder <" + strings.Join(names(), "|") + "> [flags] (ladder help: what each does)"))
		Expect(err.Error()).To(ContainSubstring("|why-not|"))
	})

	It("refuses an unknown command, listing the known ones", func() {
		out, err := invoke("frobnicate", "-x")
		Expect(err).To(MatchError(`unknown command "frobnicate" (commands: ` + strings.Join(names(), ", ") + ")"))
		Expect(out).To(BeEmpty())
	})
})

var _ = Describe("the command table", func() {
	It("lists every command in help, one line each", func() {
		out, err := invoke("help")
		Expect(err).NotTo(HaveOccurred())
		for _, c := range commands {
			Expect(out).To(MatchRegexp(`(?m)^  `+regexp.QuoteMeta(c.Name)+` +`+regexp.QuoteMeta(c.Summary)+`$`), c.Name)
		}
	})

	It("gives each command's flags from its own flag set, and none for a command that parses none", func() {
		for _, c := range commands {
			out, err := invoke("help", c.Name)
			Expect(err).NotTo(HaveOccurred(), c.Name)
			Expect(out).To(HavePrefix("usage: go run ./tools/ladder "+c.Name+" "+c.Usage+"\n"), c.Name)
			if c.Flags {
				Expect(out).To(MatchRegexp(`(?m)^flags:\n  -`), "%s says it parses flags: its -h must print them and run nothing", c.Name)
			} else {
				Expect(out).NotTo(ContainSubstring("flags:"), c.Name)
			}
		}
		_, err := invoke("help", "frobnicate")
		Expect(err).To(MatchError(ContainSubstring(`help: unknown command "frobnicate"`)))
	})

	It("is what docs/cli.md says, generated: regenerate with go run ./tools/ladder help -markdown -o docs/cli.md", func() {
		// Flag defaults read LADDER_REPORTS: the committed text is made
		// without it.
		GinkgoT().Setenv("LADDER_REPORTS", "")
		var want bytes.Buffer
		Expect(writeMarkdown(&want)).To(Succeed())
		got, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got) == want.String()).To(BeTrue(), "docs/cli.md is stale: run go run ./tools/ladder help -markdown -o docs/cli.md and commit it")
	})
})

var _ = Describe("check", func() {
	It("reports a valid fixture as ok, with its rung and case count", func() {
		dir := GinkgoT().TempDir()
		path := filepath.Join(dir, "T0.1-witness.yaml")
		src := strings.Replace(failing, "EXPECTATION", "{at: 2, belief: {holder: witness, claim: theft@1, confidence: 0.9}}", 1)
		Expect(os.WriteFile(path, []byte(src), 0o644)).To(Succeed())
		out, err := invoke("check", path)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(checked(path, loaded(path))))
		Expect(out).To(HavePrefix(path + ": ok (T0.1, 0 case(s) besides the rung)\n  T0.1 costs "))
		Expect(os.WriteFile(path, []byte(src+"cases:\n  a: {summary: one}\n  b: {summary: two}\n"), 0o644)).To(Succeed())
		out, err = invoke("check", path)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(checked(path, loaded(path))))
		Expect(out).To(HavePrefix(path + ": ok (T0.1, 2 case(s) besides the rung)\n"))
	})

	It("prints a sweep's cost: towns, seeds and town-runs, and no trace", func() {
		path := filepath.Join(repo, "fixtures", "T2.8-spread-at-scale.yaml")
		out, err := invoke("check", path)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(checked(path, runsOf("T2.8-spread-at-scale"))))
		Expect(out).To(MatchRegexp(`\n  T2\.8 costs [0-9,]+ NPCs \([0-9,]+ towns of [0-9,]+\) × [0-9,]+ ticks × [0-9,]+ seeds = [0-9,]+ NPC-ticks; ` +
			`[0-9,]+ co-present pair-ticks; [0-9,]+ town-runs \([0-9,]+ seeds × [0-9,]+ towns\); no trace \(a sweep writes aggregates\)\n$`))
	})

	It("counts a rung's cases", func() {
		path := filepath.Join(repo, "fixtures", "T2.3-conflicting-variants.yaml")
		out, err := invoke("check", path)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(MatchRegexp(`^` + regexpQuote(path) + `: ok \(T2\.3, [1-9][0-9]* case\(s\) besides the rung\)\n(  T2\.3\S* costs .*\n)+$`))
	})

	It("prints every error of an invalid fixture at file:line:col and fails", func() {
		dir := GinkgoT().TempDir()
		valid := filepath.Join(repo, "fixtures", "T0.1-witness.yaml")
		src, err := os.ReadFile(valid)
		Expect(err).NotTo(HaveOccurred())
		broken := strings.Replace(strings.Replace(string(src), "tier: 0\n", "tier: 1\n", 1), "title:", "titel:", 1)
		path := filepath.Join(dir, "T0.1-witness.yaml")
		Expect(os.WriteFile(path, []byte(broken), 0o644)).To(Succeed())

		out, err := invoke("check", path, valid)
		Expect(err).To(MatchError("check: some fixtures are invalid"))
		Expect(out).To(Equal(path + `:1:1: missing required key "title"` + "\n" +
			path + ":2:1: titel: unknown key (allowed: rung, title, tier, seed_id, ticks, summary, branch, defines, rules, locations, cast, relationships, events, pins, expect, checkpoints, cases, items, extends, same_run, kin, counterfactual_of, roles, sweep, budget)\n" +
			path + `:3:7: tier: tier "1" does not match rung T0.1 (tier 0)` + "\n" +
			checked(valid, runsOf("T0.1-witness"))))
	})

	It("reports a file it cannot read", func() {
		out, err := invoke("check", filepath.Join(GinkgoT().TempDir(), "T0.1-missing.yaml"))
		Expect(err).To(MatchError("check: some fixtures are invalid"))
		Expect(out).To(HavePrefix("load fixture: open "))
	})

	It("needs fixtures/ when no file is named", Serial, func() {
		chdir(GinkgoT().TempDir())
		_, err := invoke("check")
		Expect(err).To(MatchError("no fixtures under fixtures/"))
	})

	It("checks every fixture under fixtures/ when no file is named", Serial, func() {
		chdir(tempRoot(false))
		path := filepath.Join("fixtures", "T0.1-witness.yaml")
		out, err := invoke("check")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(checked(path, loaded(path))))
	})
})

var _ = Describe("explain", Serial, func() {
	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			chdir(tempRoot(false))
			out, err := invoke(append([]string{"explain"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no flags", "explain: -rung, -holder and -claim are required"),
		Entry("no claim", "explain: -rung, -holder and -claim are required", "-rung", "T0.1", "-holder", "witness"),
		Entry("no holder", "explain: -rung, -holder and -claim are required", "-rung", "T0.1", "-claim", "theft@2"),
		Entry("no rung", "explain: -rung, -holder and -claim are required", "-holder", "witness", "-claim", "theft@2"),
		Entry("an unknown flag", "flag provided but not defined: -tick", "-tick", "3"),
		Entry("a tick that is not a number", `invalid value "soon" for flag -at: parse error`, "-at", "soon"),
		Entry("a tick past the run", "explain: tick 24 is outside T0.1's run [0, 24)", "-rung", "T0.1", "-at", "24", "-holder", "witness", "-claim", "theft@2", "-rerun"),
		Entry("an unknown rung", `no fixture for rung "T9.9"`, "-rung", "T9.9", "-holder", "witness", "-claim", "theft@2"),
		Entry("an unknown case", `rung T0.1 has no case "quiet"`, "-rung", "T0.1/quiet", "-holder", "witness", "-claim", "theft@2"),
		Entry("a holder without the belief", "explain: merchant holds no belief in theft@2 at tick 23", "-rung", "T0.1", "-holder", "merchant", "-claim", "theft@2", "-rerun"),
		Entry("a belief not formed yet", "explain: witness holds no belief in theft@2 at tick 1", "-rung", "T0.1", "-at", "1", "-holder", "witness", "-claim", "theft@2", "-rerun"),
		Entry("no run to read", "reports/T0.1/dense.csv: no such file: `make ladder RUNG=T0.1` writes it, or read the goldens with -golden: open reports/T0.1/dense.csv: no such file or directory",
			"-rung", "T0.1", "-holder", "witness", "-claim", "theft@2"),
		Entry("-rerun with a place to read", "explain: -rerun runs the fixture again and reads no files: drop -reports, -golden or -golden-at",
			"-rung", "T0.1", "-holder", "witness", "-claim", "theft@2", "-rerun", "-golden"),
	)

	// goldenRoot is a root holding T0.1's fixture and its committed
	// goldens' trace and dense file: what -golden reads.
	goldenRoot := func() {
		GinkgoHelper()
		socialRoot("T0.1-witness.yaml")
		root, _ := os.Getwd()
		for _, name := range []string{artifact.TraceFile, artifact.DenseFile} {
			copyFile(filepath.Join(repo, "goldens", "T0.1-witness", name), filepath.Join(root, "goldens", "T0.1-witness", name))
		}
	}

	DescribeTable("refuses, reading the run's files, what the run does not answer",
		func(want string, args ...string) {
			goldenRoot()
			out, err := invoke(append([]string{"explain", "-rung", "T0.1", "-golden"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("a tick past the run", "explain: tick 24 is outside the run in goldens/T0.1-witness, which covers ticks 0 to 23", "-at", "24", "-holder", "witness", "-claim", "theft@2"),
		Entry("a holder without the belief", "explain: merchant holds no belief in theft@2 at tick 23", "-holder", "merchant", "-claim", "theft@2"),
		Entry("a belief not formed yet", "explain: witness holds no belief in theft@2 at tick 1", "-at", "1", "-holder", "witness", "-claim", "theft@2"),
	)

	It("prints a belief's provenance as of a tick, from the goldens and from a re-run", func() {
		goldenRoot()
		f := fixtureRun("T0.1-witness", "T0.1")
		at := firstRecord(f, "belief formed by the witness", func(r traceRecord) bool {
			return r.S("kind") == "belief" && r.S("holder") == "witness" && r.S("claim") == "theft@2"
		}).Tick()
		for _, src := range []string{"-golden", "-rerun"} {
			out, err := invoke("explain", "-rung", "T0.1", "-at", fmt.Sprint(at), "-holder", "witness", "-claim", "theft@2", src)
			Expect(err).NotTo(HaveOccurred(), src)
			Expect(out).To(Equal(wantExplain(f, "witness", "theft@2", at)), src)
		}
	})

	It("defaults to the last tick", func() {
		goldenRoot()
		f := fixtureRun("T0.1-witness", "T0.1")
		for _, src := range []string{"-golden", "-rerun"} {
			out, err := invoke("explain", "-rung", "T0.1", "-holder", "witness", "-claim", "theft@2", src)
			Expect(err).NotTo(HaveOccurred(), src)
			Expect(out).To(Equal(wantExplain(f, "witness", "theft@2", f.Ticks-1)), src)
		}
	})
})

var _ = Describe("compare", func() {
	const (
		header  = `{"branch":{"generation":0,"save_uuid":"u"},"keyframe_every":24,"kind":"header","schema":"chronicle.trace","seed_id":"s","version":1}` + "\n"
		headerB = `{"branch":{"generation":7,"save_uuid":"u"},"keyframe_every":24,"kind":"header","schema":"chronicle.trace","seed_id":"s","version":1}` + "\n"
		enc1    = `{"fired":true,"kind":"encounter","roll":{"key":"encounter@1/m/[a,b]","natural":0.1,"pinned":false,"threshold":0.5,"value":0.1},"seq":0,"tick":1}` + "\n"
		formed  = `{"change":"formed","claim":"t@1","holder":"b","kind":"belief","seq":1,"tick":1,"variant":"t@1#v0"}` + "\n"
		enc2a   = `{"fired":false,"kind":"encounter","roll":{"key":"encounter@2/m/[a,b]","natural":0.7,"pinned":false,"threshold":0.5,"value":0.7},"seq":2,"tick":2}` + "\n"
		enc2b   = `{"fired":true,"kind":"encounter","roll":{"key":"encounter@2/m/[a,b]","natural":0.7,"pinned":true,"threshold":0.5,"value":0.3},"seq":2,"tick":2}` + "\n"
		mutA    = `{"fired":false,"kind":"rule","roll":{"key":"mutation@2/m/[a,b]","natural":0.25,"pinned":false,"threshold":0.1,"value":0.25},"rule":"mutation-policy","seq":3,"subject":"b<-a/t","tick":2}` + "\n"
		mutB    = `{"fired":false,"kind":"rule","roll":{"key":"mutation@2/m/[b,a]","natural":0.5,"pinned":false,"threshold":0.1,"value":0.5},"rule":"mutation-policy","seq":3,"subject":"a<-b/t","tick":2}` + "\n"
	)
	var a, b string

	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		a, b = filepath.Join(dir, "a", "trace.jsonl"), filepath.Join(dir, "b", "trace.jsonl")
		Expect(os.MkdirAll(filepath.Dir(a), 0o755)).To(Succeed())
		Expect(os.MkdirAll(filepath.Dir(b), 0o755)).To(Succeed())
		Expect(os.WriteFile(a, []byte(header+enc1+formed+enc2a+mutA), 0o644)).To(Succeed())
		Expect(os.WriteFile(b, []byte(headerB+enc1+enc2b+mutB), 0o644)).To(Succeed())
	})

	It("counts each kind of drift, then names the first divergent roll, belief set and dense cell, then lists the rolls", func() {
		Expect(os.WriteFile(filepath.Join(filepath.Dir(a), "dense.csv"), []byte("tick,b/t@1/confidence\n1,0.9\n2,0.9\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(filepath.Dir(b), "dense.csv"), []byte("tick,b/t@1/confidence\n1,0.9\n2,0.8\n"), 0o644)).To(Succeed())
		out, err := invoke("compare", a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(
			"run " + a + ": seed s, branch (u, 0), records to tick 2, 4 records, 3 rolls\n" +
				"run " + b + ": seed s, branch (u, 7), records to tick 2, 3 records, 3 rolls\n" +
				"rolls: 2 keys rolled by both: 1 the same, 1 value drift, 0 threshold drift (1 outcomes differ); 1 only in " + a + ", 1 only in " + b + "\n" +
				"verdict: value drift (1 key rolled by both with different values: only a pin or a bug does that); control-flow drift (2 keys rolled by one run only)\n" +
				"first divergent roll: tick 2, value drift, encounter@2/m/[a,b]\n" +
				"first divergent belief set: tick 1, b holds [t@1#v0] in " + a + " and nothing in " + b + "\n" +
				"first divergent dense cell: tick 2, column \"b/t@1/confidence\": " + a + " 0.9, " + b + " 0.8\n" +
				"value drift (1):\n" +
				"  encounter@2/m/[a,b] (tick 2 at m, participants a, b)\n" +
				"    " + a + ": 0.7, threshold 0.5, rolled by encounter at line 4\n" +
				"    " + b + ": 0.3 (pinned, natural 0.7), threshold 0.5, rolled by encounter at line 3\n" +
				"only in " + a + " (1):\n" +
				"  mutation@2/m/[a,b] (tick 2 at m, participants a, b): 0.25, threshold 0.1, rolled by rule mutation-policy at line 5\n" +
				"only in " + b + " (1):\n" +
				"  mutation@2/m/[b,a] (tick 2 at m, participants b, a): 0.5, threshold 0.1, rolled by rule mutation-policy at line 4\n"))
	})

	It("says when two runs roll the same dice, and that the dense files were not compared without them", func() {
		out, err := invoke("compare", a, a)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(
			"run " + a + ": seed s, branch (u, 0), records to tick 2, 4 records, 3 rolls\n" +
				"run " + a + ": seed s, branch (u, 0), records to tick 2, 4 records, 3 rolls\n" +
				"rolls: 3 keys rolled by both: 3 the same, 0 value drift, 0 threshold drift (0 outcomes differ); 0 only in " + a + ", 0 only in " + a + "\n" +
				"verdict: same rolls: every key was rolled by both runs, with the same value and threshold\n" +
				"first divergent roll: none\n" +
				"first divergent belief set: none\n" +
				"first divergent dense cell: not compared: " + a + " has no dense file\n"))
	})

	It("lists at most -n rolls of a class, and every one with -all, flags before or after the runs", func() {
		var many strings.Builder
		many.WriteString(header)
		for t := 3; t <= 9; t++ {
			tick := strconv.Itoa(t)
			many.WriteString(`{"kind":"encounter","roll":{"key":"encounter@` + tick + `/m/[a,b]","pinned":false,"threshold":0.5,"value":0.5},"seq":` + strconv.Itoa(t-3) + `,"tick":` + tick + "}\n")
		}
		c := filepath.Join(filepath.Dir(a), "c.jsonl")
		Expect(os.WriteFile(c, []byte(many.String()), 0o644)).To(Succeed())
		out, err := invoke("compare", c, a, "-n", "2")
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		Expect(lines[2]).To(HavePrefix("note: two different runs on one branch (u, 0): "))
		Expect(lines[3]).To(Equal("rolls: 0 keys rolled by both: 0 the same, 0 value drift, 0 threshold drift (0 outcomes differ); 7 only in " + c + ", 3 only in " + a))
		Expect(lines[7]).To(Equal("first divergent dense cell: not compared: " + c + " has no dense file"))
		Expect(lines[8:]).To(Equal([]string{
			"only in " + c + " (7):",
			"  encounter@3/m/[a,b] (tick 3 at m, participants a, b): 0.5, threshold 0.5, rolled by encounter at line 2",
			"  encounter@4/m/[a,b] (tick 4 at m, participants a, b): 0.5, threshold 0.5, rolled by encounter at line 3",
			"  … and 5 more",
			"only in " + a + " (3):",
			"  encounter@1/m/[a,b] (tick 1 at m, participants a, b): 0.1, threshold 0.5, rolled by encounter at line 2",
			"  encounter@2/m/[a,b] (tick 2 at m, participants a, b): 0.7, threshold 0.5, rolled by encounter at line 4",
			"  … and 1 more",
		}))
		out, err = invoke("compare", "-all", c, a)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).NotTo(ContainSubstring("more"))
		Expect(strings.Count(out, "\n  encounter@")).To(Equal(9))
	})

	DescribeTable("exits 1 after the report when a -require flag's drift is there",
		func(flag, want string) {
			out, err := invoke("compare", flag, a, b)
			Expect(out).To(ContainSubstring("verdict: "))
			Expect(err).To(MatchError(want))
			_, err = invoke("compare", flag, a, a)
			Expect(err).NotTo(HaveOccurred())
		},
		Entry("value drift", "-require-same-values", "compare: -require-same-values: value drift in 1 of 2 shared keys, first encounter@2/m/[a,b] at tick 2"),
		Entry("control-flow drift", "-require-same-keys", "compare: -require-same-keys: control-flow drift in 2 keys rolled by one run only, first mutation@2/m/[a,b] at tick 2"),
		Entry("anything", "-require-same-rolls", "compare: -require-same-rolls: the runs' rolls differ, first at tick 2 (encounter@2/m/[a,b])"),
	)

	It("runs a rung given by name and compares it with a trace file", Serial, func() {
		chdir(tempRoot(true))
		golden := filepath.Join("goldens", "T0.1-witness", "trace.jsonl")
		out, err := invoke("compare", "T0.1", golden)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("verdict: same rolls"))
		Expect(out).To(ContainSubstring("first divergent dense cell: none (the dense files are identical)"))
	})

	It("compares a fresh run with its committed goldens", Serial, func() {
		chdir(tempRoot(true))
		out, err := invoke("compare", "-against-golden", "T0.1", "-require-same-rolls")
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.SplitN(out, "\n", 3)[:2]).To(Equal([]string{
			"run goldens/T0.1-witness/trace.jsonl: seed ladder-T0.1, branch (6d6fe33b-286a-89cf-9c9a-1e09df2a5a5f, 0), records to tick 2, 6 records, 0 rolls",
			"run T0.1: seed ladder-T0.1, branch (6d6fe33b-286a-89cf-9c9a-1e09df2a5a5f, 0), records to tick 2, 6 records, 0 rolls",
		}))
		Expect(out).To(ContainSubstring("first divergent dense cell: none (the dense files are identical)"))
	})

	DescribeTable("refuses wrong arguments",
		func(args []string, want string) {
			_, err := invoke(append([]string{"compare"}, args...)...)
			Expect(err).To(MatchError(want))
		},
		Entry("none", []string{}, usageCompare),
		Entry("one", []string{"a.jsonl"}, usageCompare),
		Entry("three", []string{"a.jsonl", "b.jsonl", "c.jsonl"}, usageCompare),
		Entry("a run beside -against-golden", []string{"-against-golden", "T0.1", "a.jsonl"}, usageCompare),
		Entry("a trace that does not exist", []string{"does-not-exist.jsonl", "b.jsonl"}, "open does-not-exist.jsonl: no such file or directory"),
	)

	It("refuses a trace line that is not JSON, naming the file and line", func() {
		bad := filepath.Join(filepath.Dir(a), "bad.jsonl")
		Expect(os.WriteFile(bad, []byte(header+"not json\n"), 0o644)).To(Succeed())
		_, err := invoke("compare", a, bad)
		Expect(err).To(MatchError(HavePrefix(bad + ": trace line 2: ")))
	})

	It("refuses two runs of different seeds: no roll of one can pair with the other", func() {
		other := filepath.Join(filepath.Dir(a), "other.jsonl")
		Expect(os.WriteFile(other, []byte(strings.Replace(header, `"seed_id":"s"`, `"seed_id":"t"`, 1)), 0o644)).To(Succeed())
		_, err := invoke("compare", a, other)
		Expect(err).To(MatchError(a + ` has seed "s" and ` + other + ` seed "t": rolls of different seeds share no value, so the runs cannot be aligned`))
	})
})

const usageCompare = "usage: ladder compare [flags] <rung[/case] | trace.jsonl> <rung[/case] | trace.jsonl>, or ladder compare [flags] -against-golden <rung[/case]>"

// regexpQuote escapes a path for a regular expression.
func regexpQuote(s string) string {
	r := strings.NewReplacer(`.`, `\.`, `(`, `\(`, `)`, `\)`, `[`, `\[`, `]`, `\]`, `+`, `\+`, `*`, `\*`, `?`, `\?`)
	return r.Replace(s)
}

var _ = Describe("curve", Serial, func() {
	BeforeEach(func() { socialRoot("T0.1-witness.yaml") })

	It("prints a claim's believer curve as a curve: expectation", func() {
		out, err := invoke("curve", "-rerun", "-rung", "T0.1", "-claim", "theft@2")
		Expect(err).NotTo(HaveOccurred())
		var steps []string
		for i, p := range wantCurve(fixtureRun("T0.1-witness", "T0.1"), "theft@2") {
			if i == 0 || !strings.HasSuffix(steps[len(steps)-1], fmt.Sprintf(": %d", p.believers)) {
				steps = append(steps, fmt.Sprintf("%d: %d", p.tick, p.believers))
			}
		}
		Expect(len(steps)).To(BeNumerically(">", 1), "the golden's believer count never changes: the spec examines no step")
		Expect(out).To(Equal("curve:\n  claim: theft@2\n  believers: {" + strings.Join(steps, ", ") + "}\n"))
	})

	It("prints one row per tick as CSV", func() {
		out, err := invoke("curve", "-rerun", "-rung", "T0.1", "-claim", "theft@2", "-format", "csv")
		Expect(err).NotTo(HaveOccurred())
		want := []string{"tick,believers,holders"}
		for _, p := range wantCurve(fixtureRun("T0.1-witness", "T0.1"), "theft@2") {
			want = append(want, fmt.Sprintf("%d,%d,%d", p.tick, p.believers, p.holders))
		}
		Expect(strings.Split(strings.TrimSuffix(out, "\n"), "\n")).To(Equal(want))
	})

	DescribeTable("refuses wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"curve", "-rerun"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no claim", "curve: -rung and -claim are required", "-rung", "T0.1"),
		Entry("no rung", "curve: -rung and -claim are required", "-claim", "theft@2"),
		Entry("an unknown claim", `T0.1: no claim "theft@3" in the run (claims are event ids)`, "-rung", "T0.1", "-claim", "theft@3"),
		Entry("an unknown format", `curve: unknown format "xml" (yaml or csv)`, "-rung", "T0.1", "-claim", "theft@2", "-format", "xml"),
	)
})
