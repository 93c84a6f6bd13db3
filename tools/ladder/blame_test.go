package main

import (
	"os/exec"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("blame", Serial, func() {
	// git runs git in the working directory, as the specs' root.
	git := func(args ...string) string {
		GinkgoHelper()
		out, err := exec.Command("git", append([]string{"-c", "user.name=spec", "-c", "user.email=spec@example.com"}, args...)...).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}

	It("names the accept that changed a cell with its reason, and the commit that created the file for a cell unchanged since", func() {
		pendingRoot(5) // tick 5's confidence edited to 0.5 in the goldens: the run says 0.9
		git("init", "-q")
		git("add", "fixtures", "goldens")
		git("commit", "-q", "-m", "the goldens, tick 5 wrong")
		created := git("rev-parse", "--short=12", "HEAD")
		_, err := invoke("accept", "-reason", "tick 5 is the witness's 0.9 again", "T0.1")
		Expect(err).NotTo(HaveOccurred())
		git("add", "goldens")
		git("commit", "-q", "-m", "accept T0.1")
		accepted := git("rev-parse", "--short=12", "HEAD")
		date := git("log", "-1", "--format=%cs")

		out, err := invoke("blame", "T0.1", "-tick", "5", "-column", "witness/theft@2/confidence")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`T0.1 goldens/T0.1-witness/dense.csv, tick 5, column "witness/theft@2/confidence": 0.9` + "\n" +
			"last changed in " + accepted + " (" + date + `, "accept T0.1"): 0.5 → 0.9` + "\n" +
			`  history: changed by accept (value drift): first dense.csv at tick 5, column "witness/theft@2/confidence": 0.5 → 0.9; 1 cell, 0 records changed; why: "tick 5 is the witness's 0.9 again"` + "\n"))

		out, err = invoke("blame", "-tick", "6", "-column", "witness/theft@2/confidence", "T0.1")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`T0.1 goldens/T0.1-witness/dense.csv, tick 6, column "witness/theft@2/confidence": 0.9` + "\n" +
			"unchanged since the file was created, in " + created + " (" + date + `, "the goldens, tick 5 wrong")` + "\n" +
			"  history: none recorded as of that commit; older changes: git log -p " + created + " -- goldens/T0.1-witness/dense.csv\n"))

		out, err = invoke("blame", "T0.1", "-record", "0")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HavePrefix("T0.1 goldens/T0.1-witness/trace.jsonl, line 2 (tick 0): {"))
		Expect(out).To(ContainSubstring("\nunchanged since the file was created, in " + created))
	})

	DescribeTable("says what it needs",
		func(message string, args ...string) {
			_, err := invoke(append([]string{"blame"}, args...)...)
			Expect(err).To(MatchError(message))
		},
		Entry("a rung", "usage: ladder blame <rung[/case]> -tick T -column C | -record SEQ | -line N", "-tick", "1", "-column", "x"),
		Entry("one cell or record", "usage: ladder blame <rung[/case]> -tick T -column C | -record SEQ | -line N", "T0.1", "-tick", "1", "-column", "x", "-record", "2"),
		Entry("a cell's tick", "blame: -column needs -tick, the cell's row", "T0.1", "-column", "x"),
		Entry("a record, not the header", "blame: line 1 of trace.jsonl is its header; records start at line 2", "T0.1", "-line", "1"),
	)

	It("says when the goldens are not in a git repository", func() {
		chdir(tempRoot(true))
		_, err := invoke("blame", "T0.1", "-tick", "1", "-column", "witness/at")
		Expect(err).To(MatchError(HavePrefix("blame: not a git repository: blame reads the committed goldens' history from git")))
	})
})
