package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("check refuses what could only pass by accident", func() {
	edit := func(old, new string) string {
		GinkgoHelper()
		src, err := os.ReadFile(filepath.Join(repo, "fixtures", "T0.1-witness.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(src)).To(ContainSubstring(old))
		path := filepath.Join(GinkgoT().TempDir(), "T0.1-witness.yaml")
		Expect(os.WriteFile(path, []byte(strings.Replace(string(src), old, new, 1)), 0o644)).To(Succeed())
		return path
	}

	// 0/0 as a checkpoint used to pass check, then fail the ladder with an
	// unlocated struct dump.
	It("a NaN checkpoint, at its line", func() {
		path := edit("    witness_confidence: belief(witness, theft@2).confidence\n", "    witness_confidence: 0/0\n")
		out, err := invoke("check", path)
		Expect(err).To(MatchError("check: some fixtures are invalid"))
		Expect(out).To(MatchRegexp(`^` + regexpQuote(path) + `:\d+:25: checkpoints\.values\.witness_confidence: expression "0/0" is nan whatever the run does: a value to compare with must be finite\n$`))
	})

	// "match: {kind: encounter, sight: road}" with exists: false passed
	// although ten such encounters existed.
	It("a trace field the record kind does not have, with the fields it has", func() {
		path := edit("      match: {kind: rule, rule: witness-creates-belief, subject: witness/theft@2, fired: true}\n",
			"      match: {kind: rule, rule: witness-creates-belief, subjet: witness/theft@2, fired: true}\n")
		out, err := invoke("check", path)
		Expect(err).To(MatchError("check: some fixtures are invalid"))
		Expect(out).To(MatchRegexp(`^` + regexpQuote(path) + `:\d+:57: expect\[\d+\]\.trace\.match\.subjet: a rule record has no field "subjet" \(did you mean "subject"\?\)`))
	})
})
