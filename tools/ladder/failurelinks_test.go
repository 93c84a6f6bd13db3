package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/report"
)

// The ladder suite itself, run on a root where T0.1's witness forms its
// belief at another confidence than its goldens pin: each failure line
// the gate prints, each junit.xml failure and each failures.json problem
// must end with the most specific place on the triage page it is about —
// here the witness's belief row or the trace record where the runs part,
// read off the problem's own column, message or record, not the rung at a
// tick.
var _ = Describe("failure lines, end to end", Serial, func() {
	It("carry the most specific page link on the console, in junit.xml and in failures.json", func() {
		root := tempRoot(true)
		src, err := os.ReadFile(filepath.Join(root, "fixtures", "T0.1-witness.yaml"))
		Expect(err).NotTo(HaveOccurred())
		moved := regexp.MustCompile(`(?m)^ticks: .*$`).ReplaceAllString(string(src), "$0\ndefines: {witness_confidence: 0.8}")
		Expect(moved).NotTo(Equal(string(src)))
		Expect(os.WriteFile(filepath.Join(root, "fixtures", "T0.1-witness.yaml"), []byte(moved), 0o644)).To(Succeed())
		// The suite runs in ladder/ and hashes the module's code for the
		// pending changes it writes: go.mod is enough of a module for that.
		copyFile(filepath.Join(repo, "go.mod"), filepath.Join(root, "go.mod"))
		Expect(os.MkdirAll(filepath.Join(root, "ladder"), 0o755)).To(Succeed())

		bin := buildSuite(GinkgoT().TempDir())
		reports := filepath.Join(root, "reports")
		cmd := exec.Command(bin, "-ginkgo.label-filter=T0.1", "-ginkgo.no-color")
		cmd.Dir = filepath.Join(root, "ladder")
		cmd.Env = append(os.Environ(), "LADDER_REPORTS="+reports, "LADDER_PAGE=off")
		out, err := cmd.CombinedOutput()
		Expect(err).To(HaveOccurred(), "the suite passed with T0.1's witness_confidence moved:\n%s", out)
		console := string(out)

		b, err := os.ReadFile(filepath.Join(reports, report.FailuresFile))
		Expect(err).NotTo(HaveOccurred())
		var fs report.Failures
		Expect(json.Unmarshal(b, &fs)).To(Succeed())
		b, err = os.ReadFile(filepath.Join(reports, report.JUnitFile))
		Expect(err).NotTo(HaveOccurred())
		j, err := report.ParseJUnit(b)
		Expect(err).NotTo(HaveOccurred())
		var junit []string
		for _, s := range j.Suites {
			for _, c := range s.Cases {
				if c.Failure != nil {
					junit = append(junit, c.Failure.Text)
				}
			}
		}

		// What a problem is about, as the test reads it: the belief of a
		// dense column holder/claim/field or of belief(holder, claim) in an
		// expectation's message; the trace record at the line a trace
		// problem names, by its seq in the run's trace.jsonl.
		beliefCall := regexp.MustCompile(`\bbelief\(([^,()\s]+), ([^,()\s]+)\)`)
		traceLine := regexp.MustCompile(`first divergent record at line (\d+)`)
		kinds := map[string]int{}
		for _, p := range fs.Failures {
			name := p.Rung
			if p.Case != "" {
				name += "/" + p.Case
			}
			var target page.Target
			switch parts := strings.Split(p.Column, "/"); {
			case p.Check == artifact.DenseFile && len(parts) == 3 && parts[2] == "confidence":
				target = page.BeliefTarget(parts[0], parts[1])
			case p.Check == "expect" && beliefCall.MatchString(p.Message):
				m := beliefCall.FindStringSubmatch(p.Message)
				target = page.BeliefTarget(m[1], m[2])
			case p.Check == artifact.TraceFile && traceLine.MatchString(p.Message):
				n, err := strconv.Atoi(traceLine.FindStringSubmatch(p.Message)[1])
				Expect(err).NotTo(HaveOccurred())
				b, err := os.ReadFile(filepath.Join(reports, filepath.FromSlash(name), artifact.TraceFile))
				Expect(err).NotTo(HaveOccurred())
				lines := strings.Split(string(b), "\n")
				Expect(len(lines)).To(BeNumerically(">=", n), "%s names line %d of the run's trace", p.Message, n)
				var rec struct{ Seq *int64 }
				Expect(json.Unmarshal([]byte(lines[n-1]), &rec)).To(Succeed())
				Expect(rec.Seq).NotTo(BeNil(), "line %d of the run's trace has no seq", n)
				target = page.TraceTarget(*rec.Seq)
			default:
				continue
			}
			kinds[p.Check]++
			want := page.LinkTo(name, p.Tick, target)
			Expect(p.Link).To(Equal(want), "failures.json's link of %q", p.Message)
			line := p.Message + " (page: " + want + ")"
			Expect(console).To(ContainSubstring(line), "the console's failure line")
			Expect(junit).To(ContainElement(ContainSubstring(line)), "junit.xml's failure text")
		}
		Expect(kinds).To(HaveKey(artifact.DenseFile), "no dense.csv problem on a belief's column: the check examined nothing of it\n%s", console)
		Expect(kinds).To(HaveKey("expect"), "no expectation on belief(…) failed: the check examined nothing of it\n%s", console)
		Expect(kinds).To(HaveKey(artifact.TraceFile), "no trace.jsonl problem named a record: the check examined nothing of it\n%s", console)
	})
})
