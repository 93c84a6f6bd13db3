package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
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

// tempRoot makes a repository-like root holding the T0.1 fixture (and,
// with goldens, its committed goldens) and makes it the working directory
// for the spec, as the Makefile runs the tool from the repository root.
func tempRoot(goldens bool) string {
	GinkgoHelper()
	root := GinkgoT().TempDir()
	copyFile(filepath.Join(repo, "fixtures", "T0.1-witness.yaml"), filepath.Join(root, "fixtures", "T0.1-witness.yaml"))
	if goldens {
		for _, name := range []string{"dense.csv", "trace.jsonl", "checkpoints.json"} {
			copyFile(filepath.Join(repo, "goldens", "T0.1-witness", name), filepath.Join(root, "goldens", "T0.1-witness", name))
		}
	}
	return root
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
		Expect(err).To(MatchError("usage: ladder <check|goldens|render|explain|compare|curve|rules|diff|review|accept|reject|diff-golden|textconv|shard|costs|merge-reports> [flags]"))
	})

	It("refuses an unknown command, listing the known ones", func() {
		out, err := invoke("frobnicate", "-x")
		Expect(err).To(MatchError(`unknown command "frobnicate" (commands: check, goldens, render, explain, compare, curve, rules, diff, review, accept, reject, diff-golden, textconv, shard, costs, merge-reports)`))
		Expect(out).To(BeEmpty())
	})
})

var _ = Describe("check", func() {
	It("reports a valid fixture as ok, with its rung and case count", func() {
		path := filepath.Join(repo, "fixtures", "T0.1-witness.yaml")
		out, err := invoke("check", path)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(path + ": ok (T0.1, 0 case(s) besides the rung)\n"))
	})

	It("counts a rung's cases", func() {
		path := filepath.Join(repo, "fixtures", "T2.3-conflicting-variants.yaml")
		out, err := invoke("check", path)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(MatchRegexp(`^` + regexpQuote(path) + `: ok \(T2\.3, [1-9][0-9]* case\(s\) besides the rung\)\n$`))
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
			path + ":2:1: titel: unknown key (allowed: rung, title, tier, seed_id, ticks, summary, branch, defines, rules, locations, cast, relationships, events, pins, expect, checkpoints, cases, items, extends, same_run, kin)\n" +
			path + `:3:7: tier: tier "1" does not match rung T0.1 (tier 0)` + "\n" +
			valid + ": ok (T0.1, 0 case(s) besides the rung)\n"))
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
		out, err := invoke("check")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(filepath.Join("fixtures", "T0.1-witness.yaml") + ": ok (T0.1, 0 case(s) besides the rung)\n"))
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
		Entry("a tick past the run", "explain: tick 24 is outside T0.1's run [0, 24)", "-rung", "T0.1", "-at", "24", "-holder", "witness", "-claim", "theft@2"),
		Entry("an unknown rung", `no fixture for rung "T9.9"`, "-rung", "T9.9", "-holder", "witness", "-claim", "theft@2"),
		Entry("an unknown case", `rung T0.1 has no case "quiet"`, "-rung", "T0.1/quiet", "-holder", "witness", "-claim", "theft@2"),
		Entry("a holder without the belief", "merchant holds no belief in theft@2 at tick 23", "-rung", "T0.1", "-holder", "merchant", "-claim", "theft@2"),
		Entry("a belief not formed yet", "witness holds no belief in theft@2 at tick 1", "-rung", "T0.1", "-at", "1", "-holder", "witness", "-claim", "theft@2"),
	)

	It("prints a belief's provenance as of a tick", func() {
		chdir(tempRoot(false))
		out, err := invoke("explain", "-rung", "T0.1", "-at", "2", "-holder", "witness", "-claim", "theft@2")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`belief(witness, theft@2) as of tick 2
  variant     theft@2#v0
  confidence  0.9
  verbatim    1.0   gist 1.0   stage heard
  formed at   tick 2; last reinforced at tick 2
  origins     [witness] (distinct eyewitnesses counted towards confidence)
  evidence
    1. tick 2, witnessed: saw it, via theft@2, confidence 0.9, counted
  variant lineage
    theft@2#v0 (what happened)
`))
	})

	It("defaults to the last tick", func() {
		chdir(tempRoot(false))
		out, err := invoke("explain", "-rung", "T0.1", "-holder", "witness", "-claim", "theft@2")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HavePrefix("belief(witness, theft@2) as of tick 23\n"))
	})
})

var _ = Describe("compare", func() {
	const (
		header = `{"kind":"header","seed_id":"s","version":1}` + "\n"
		enc1   = `{"fired":true,"id":"encounter@1/m/[a,b]","kind":"encounter","roll":{"key":"encounter@1/m/[a,b]","pinned":false,"value":0.1},"seq":0,"tick":1}` + "\n"
		enc2a  = `{"fired":false,"id":"encounter@2/m/[a,b]","kind":"encounter","roll":{"key":"encounter@2/m/[a,b]","pinned":false,"value":0.7},"seq":1,"tick":2}` + "\n"
		enc2b  = `{"fired":true,"id":"encounter@2/m/[a,b]","kind":"encounter","roll":{"key":"encounter@2/m/[a,b]","pinned":true,"value":0.3},"seq":1,"tick":2}` + "\n"
		mutA   = `{"fired":false,"kind":"rule","roll":{"key":"mutation@2/m/[a,b]","pinned":true,"value":0.25},"rule":"mutation-policy","seq":2,"subject":"b<-a/t","tick":2}` + "\n"
		mutB   = `{"fired":false,"kind":"rule","roll":{"key":"mutation@2/m/[b,a]","pinned":false,"value":0.5},"rule":"mutation-policy","seq":2,"subject":"a<-b/t","tick":2}` + "\n"
	)
	var a, b string

	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		a, b = filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
		Expect(os.WriteFile(a, []byte(header+enc1+enc2a+mutA), 0o644)).To(Succeed())
		Expect(os.WriteFile(b, []byte(header+enc1+enc2b+mutB), 0o644)).To(Succeed())
	})

	It("names the first divergent record and every roll that differs or exists on one side only", func() {
		out, err := invoke("compare", a, b)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(
			`traces: first divergent record at line 3 (tick 2, encounter "encounter@2/m/[a,b]"): fired: ` + a + ` false, ` + b + ` true; ` +
				`roll.pinned: ` + a + ` false, ` + b + ` true; roll.value: ` + a + ` 0.7, ` + b + ` 0.3` + "\n" +
				"rolls: 2 keys rolled by both, 1 with different values; 1 only in " + a + "; 1 only in " + b + "\n" +
				"  different: tick 2 encounter@2/m/[a,b] = 0.7 (line 3)\n" +
				"  only in " + a + ": tick 2 mutation@2/m/[a,b] = 0.25 (pinned) (line 4)\n" +
				"  only in " + b + ": tick 2 mutation@2/m/[b,a] = 0.5 (line 4)\n"))
	})

	It("says when two traces are identical", func() {
		out, err := invoke("compare", a, a)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("traces: identical\nrolls: 3 keys rolled by both, 0 with different values; 0 only in " + a + "; 0 only in " + a + "\n"))
	})

	It("lists at most five rolls of a kind", func() {
		var many strings.Builder
		many.WriteString(header)
		for t := 3; t <= 9; t++ {
			tick := strconv.Itoa(t)
			many.WriteString(`{"kind":"encounter","roll":{"key":"encounter@` + tick + `/m/[a,b]","pinned":false,"value":0.5},"tick":` + tick + "}\n")
		}
		c := filepath.Join(filepath.Dir(a), "c.jsonl")
		Expect(os.WriteFile(c, []byte(many.String()), 0o644)).To(Succeed())
		out, err := invoke("compare", c, a)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		Expect(lines[1:]).To(Equal([]string{
			"rolls: 0 keys rolled by both, 0 with different values; 7 only in " + c + "; 3 only in " + a,
			"  only in " + c + ": tick 3 encounter@3/m/[a,b] = 0.5 (line 2)",
			"  only in " + c + ": tick 4 encounter@4/m/[a,b] = 0.5 (line 3)",
			"  only in " + c + ": tick 5 encounter@5/m/[a,b] = 0.5 (line 4)",
			"  only in " + c + ": tick 6 encounter@6/m/[a,b] = 0.5 (line 5)",
			"  only in " + c + ": tick 7 encounter@7/m/[a,b] = 0.5 (line 6)",
			"  … and 2 more",
			"  only in " + a + ": tick 1 encounter@1/m/[a,b] = 0.1 (line 2)",
			"  only in " + a + ": tick 2 encounter@2/m/[a,b] = 0.7 (line 3)",
			"  only in " + a + ": tick 2 mutation@2/m/[a,b] = 0.25 (pinned) (line 4)",
		}))
	})

	It("runs a rung given by name and compares it with a trace file", Serial, func() {
		chdir(tempRoot(true))
		golden := filepath.Join("goldens", "T0.1-witness", "trace.jsonl")
		out, err := invoke("compare", "T0.1", golden)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("traces: identical\nrolls: 0 keys rolled by both, 0 with different values; 0 only in T0.1; 0 only in " + golden + "\n"))
	})

	DescribeTable("refuses wrong arguments",
		func(args []string, want string) {
			_, err := invoke(append([]string{"compare"}, args...)...)
			Expect(err).To(MatchError(want))
		},
		Entry("none", []string{}, "usage: ladder compare <rung[/case] | trace.jsonl> <rung[/case] | trace.jsonl>"),
		Entry("one", []string{"a.jsonl"}, "usage: ladder compare <rung[/case] | trace.jsonl> <rung[/case] | trace.jsonl>"),
		Entry("three", []string{"a.jsonl", "b.jsonl", "c.jsonl"}, "usage: ladder compare <rung[/case] | trace.jsonl> <rung[/case] | trace.jsonl>"),
		Entry("a trace that does not exist", []string{"does-not-exist.jsonl", "b.jsonl"}, "open does-not-exist.jsonl: no such file or directory"),
	)

	It("refuses a trace line that is not JSON", func() {
		bad := filepath.Join(filepath.Dir(a), "bad.jsonl")
		Expect(os.WriteFile(bad, []byte(header+"not json\n"), 0o644)).To(Succeed())
		_, err := invoke("compare", a, bad)
		Expect(err).To(MatchError(HavePrefix("second trace: trace line 2: ")))
	})
})

// regexpQuote escapes a path for a regular expression.
func regexpQuote(s string) string {
	r := strings.NewReplacer(`.`, `\.`, `(`, `\(`, `)`, `\)`, `[`, `\[`, `]`, `\]`, `+`, `\+`, `*`, `\*`, `?`, `\?`)
	return r.Replace(s)
}

var _ = Describe("curve", Serial, func() {
	BeforeEach(func() { chdir(tempRoot(false)) })

	It("prints a claim's believer curve as a curve: expectation", func() {
		out, err := invoke("curve", "-rung", "T0.1", "-claim", "theft@2")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal("curve:\n  claim: theft@2\n  believers: {0: 0, 2: 1}\n"))
	})

	It("prints one row per tick as CSV", func() {
		out, err := invoke("curve", "-rung", "T0.1", "-claim", "theft@2", "-format", "csv")
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		Expect(lines).To(HaveLen(25))
		Expect(lines[:4]).To(Equal([]string{"tick,believers,holders", "0,0,0", "1,0,0", "2,1,1"}))
		Expect(lines[24]).To(Equal("23,1,1"))
	})

	DescribeTable("refuses wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"curve"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no claim", "curve: -rung and -claim are required", "-rung", "T0.1"),
		Entry("no rung", "curve: -rung and -claim are required", "-claim", "theft@2"),
		Entry("an unknown claim", `T0.1: no claim "theft@3" in the run (claims are event ids)`, "-rung", "T0.1", "-claim", "theft@3"),
		Entry("an unknown format", `curve: unknown format "xml" (yaml or csv)`, "-rung", "T0.1", "-claim", "theft@2", "-format", "xml"),
	)
})
