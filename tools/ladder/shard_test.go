package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/coverage"
	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/shard"
)

// specsRan lists the specs a report directory's ladder.json says ran.
func specsRan(dir string) []string {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join(dir, report.GinkgoFile))
	Expect(err).NotTo(HaveOccurred())
	var rs []types.Report
	Expect(json.Unmarshal(b, &rs)).To(Succeed())
	var out []string
	for _, r := range rs {
		for _, s := range r.SpecReports {
			if report.Ran(s) {
				out = append(out, s.FullText())
			}
		}
	}
	slices.Sort(out)
	return out
}

// junitCases lists a report directory's junit.xml testcases.
func junitCases(dir string) []string {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join(dir, report.JUnitFile))
	Expect(err).NotTo(HaveOccurred())
	j, err := report.ParseJUnit(b)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			out = append(out, s.Name+" "+c.Name)
		}
	}
	slices.Sort(out)
	return out
}

// buildSuite compiles the ladder suite of this repository into dir and
// returns the binary's path, to run as `make ladder` does from a
// directory's ladder/.
func buildSuite(dir string) string {
	GinkgoHelper()
	bin := filepath.Join(dir, "ladder.test")
	goPath, err := exec.LookPath("go")
	Expect(err).NotTo(HaveOccurred(), "the go command must be on PATH")
	build := exec.Command(goPath, "test", "-c", "-o", bin, "./ladder")
	build.Dir = repo
	build.Stdout, build.Stderr = GinkgoWriter, GinkgoWriter
	Expect(build.Run()).To(Succeed())
	return bin
}

// The ladder suite itself, built once and run three times — whole and as
// two shards — against this repository's fixtures and goldens, each run
// writing its reports to a directory of its own.
var _ = Describe("sharding, end to end", Ordered, Serial, func() {
	var bin, tmp string
	BeforeAll(func() {
		tmp = GinkgoT().TempDir()
		bin = buildSuite(tmp)
	})

	run := func(name, filter string) string {
		GinkgoHelper()
		dir := filepath.Join(tmp, name)
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		stale := filepath.Join(dir, "T9.9", "pending.json")
		Expect(os.MkdirAll(filepath.Dir(stale), 0o755)).To(Succeed())
		Expect(os.WriteFile(stale, []byte("{}"), 0o644)).To(Succeed())
		// what an earlier run left: a reports directory the ladder made
		Expect(os.WriteFile(filepath.Join(dir, report.Marker), nil, 0o644)).To(Succeed())
		// No -ginkgo.json-report: the suite writes ladder.json itself.
		args := []string{"-ginkgo.randomize-all"}
		if filter != "" {
			args = append(args, "-ginkgo.label-filter="+filter)
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = filepath.Join(repo, "ladder")
		// No page and no determinism rerun in the suite runs: the page is
		// what merge-reports builds, and the spec builds the full run's to
		// compare; the rerun is the suite's own check, not this spec's.
		cmd.Env = append(os.Environ(), "LADDER_REPORTS="+dir, "LADDER_PAGE=off")
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(stale).NotTo(BeAnExistingFile(), "a run clears its reports directory first")
		return dir
	}

	It("runs every spec exactly once across shards 1/2 and 2/2, and their merged report lists a full run's specs", func() {
		full := run("full", "")
		var shards []string
		var ran [][]string
		for k := 1; k <= 2; k++ {
			filter, err := planFilter(repo, shard.Spec{K: k, N: 2})
			Expect(err).NotTo(HaveOccurred())
			dir := run("shard-"+string(rune('0'+k)), filter)
			shards = append(shards, dir)
			ran = append(ran, specsRan(dir))
			Expect(ran[k-1]).NotTo(BeEmpty(), "shard %d/2 ran nothing", k)
		}
		for _, s := range ran[0] {
			Expect(ran[1]).NotTo(ContainElement(s), "ran in both shards")
		}
		Expect(len(ran[0]) + len(ran[1])).To(Equal(len(specsRan(full))))

		merged := filepath.Join(tmp, "merged")
		chdir(repo) // the page is built against the fixtures
		out, err := invoke("merge-reports", "-out", merged, shards[0], shards[1])
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HavePrefix("merged 2 shard report(s) into " + merged + "\ntriage page: " + filepath.Join(merged, "index.html") + " ("))
		Expect(out).To(ContainSubstring("\ncoverage: "))
		// One page for the merged run, with a section for every run a full
		// run's page has, and every run's directory beside it.
		GinkgoT().Setenv("LADDER_REPORTS", full)
		_, err = invoke("page")
		Expect(err).NotTo(HaveOccurred())
		Expect(pageSections(merged)).To(Equal(pageSections(full)))
		Expect(len(pageSections(full))).To(BeNumerically(">", 19))
		Expect(runDirs(merged)).To(Equal(runDirs(full)))
		// Each shard's coverage is partial; merged, it is the full run's.
		fullCov, err := coverage.Read(filepath.Join(full, coverage.ReportFile))
		Expect(err).NotTo(HaveOccurred())
		mergedCov, err := coverage.Read(filepath.Join(merged, coverage.ReportFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(fullCov.Complete).To(BeTrue())
		Expect(mergedCov).To(Equal(fullCov))
		Expect(specsRan(merged)).To(Equal(specsRan(full)))
		Expect(junitCases(merged)).To(Equal(junitCases(full)))
		Expect(len(junitCases(full))).To(BeNumerically(">", 19))

		_, err = invoke("merge-reports", "-out", filepath.Join(tmp, "twice"), shards[0], shards[0])
		Expect(err).To(MatchError(ContainSubstring("ran in two shards")))
	})
})

// pageSections lists the sections of the triage page in a reports
// directory, in page order.
func pageSections(dir string) []string {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, m := range regexp.MustCompile(`<section class="rung[^"]*" id="[^"]*" data-name="([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	return out
}

// runDirs lists every file under a reports directory's run directories
// that a run wrote (its artifacts and pending changes), by path.
func runDirs(dir string) []string {
	GinkgoHelper()
	var out []string
	entries, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		Expect(filepath.WalkDir(filepath.Join(dir, e.Name()), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, rel)
			}
			return err
		})).To(Succeed())
	}
	return out
}
