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
	It("leaves every package under sim/ mutable and nothing else when there is no scope", func() {
		ex, err := excludeFiles(dirs, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(mutable(ex, files...)).To(Equal([]string{"sim/world.go", "sim/claims/store.go", "sim/social/grudge.go"}))
	})

	It("leaves only the scoped package mutable, not its parent's or its sibling's files", func() {
		ex, err := excludeFiles(dirs, "sim/social")
		Expect(err).NotTo(HaveOccurred())
		Expect(mutable(ex, files...)).To(Equal([]string{"sim/social/grudge.go"}))
	})

	It("leaves sim/ itself mutable without its subpackages when scoped to sim", func() {
		ex, err := excludeFiles(dirs, "sim")
		Expect(err).NotTo(HaveOccurred())
		Expect(mutable(ex, files...)).To(Equal([]string{"sim/world.go"}))
	})

	It("refuses a scope that is no package: the pass would examine nothing", func() {
		_, err := excludeFiles(dirs, "sim/nothere")
		Expect(err).To(MatchError(ContainSubstring("scope sim/nothere is not a package directory")))
		_, err = excludeFiles([]string{"ladder"}, "")
		Expect(err).To(MatchError(ContainSubstring("no package under sim/")))
	})

	It("reads a scope however the flag spells it", func() {
		for _, s := range []string{"./sim/social", "sim/social/", "./sim/social/", "sim/social"} {
			Expect(normScope(s)).To(Equal("sim/social"), s)
		}
		Expect(normScope("")).To(Equal(""))
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
		src := strings.Repeat("\n", 37) + "\tif off || elapsed <= 0 {\n"
		Expect(os.WriteFile(filepath.Join(dir, "sim/social/grudge.go"), []byte(src), 0o644)).To(Succeed())
		eq := map[equivalentKey]string{{"sim/social/grudge.go", "if off || elapsed <= 0 {", "CONDITIONALS_BOUNDARY"}: "why"}
		DeferCleanup(os.Chdir, must(os.Getwd()))
		Expect(os.Chdir(dir)).To(Succeed())
		r, err := load(file, eq)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.packages).To(HaveLen(1), "files outside sim/ are not scored")
		Expect(*r.packages["sim/social"]).To(Equal(tally{Killed: 1, TimedOut: 1, Equivalent: 1, NotCovered: 1}))
		Expect(r.lived).To(HaveLen(1))
		Expect(r.lived[0].Status).To(Equal("TIMED OUT"))
		Expect(r.notCovered).To(HaveLen(1))
		summary := render([]string{"both"}, map[string]*report{"both": r})
		Expect(summary).To(ContainSubstring("| sim/social | 1 | 0 | 1 | 1 | 1 | 0 | 50.0% |"))
		Expect(summary).To(ContainSubstring("Survivors:\n\n- `sim/social/grudge.go:41:20` ARITHMETIC_BASE TIMED OUT"))
		Expect(summary).To(ContainSubstring("Not covered:\n\n- `sim/social/grudge.go:46:20` ARITHMETIC_BASE NOT COVERED"))
	})

	It("fails a report that holds no mutant of sim/", func() {
		report := filepath.Join(GinkgoT().TempDir(), "g.json")
		Expect(os.WriteFile(report, []byte(`{"files":[]}`), 0o644)).To(Succeed())
		_, err := load(report, nil)
		Expect(err).To(MatchError(ContainSubstring("examined nothing")))
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
		for _, d := range []string{"ladder", "sim", "sim/social", "sim/roles", "views"} {
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
		func(pkg, scope string, runs bool) {
			code, ran := run(pkg, scope, "both", "-test.coverprofile=/tmp/x")
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
		Entry("nothing outside sim/ and the ladder", "views", "", false),
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
