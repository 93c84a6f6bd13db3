package main

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("verify", func() {
	It("skips a sweep rung, saying so, and fails when that leaves nothing replayed", func() {
		chdir(repo)
		out, err := invoke("verify", "-reports", GinkgoT().TempDir(), "T2.8")
		Expect(out).To(ContainSubstring("T2.8: skipped: a sweep rung exports no event log to replay"))
		Expect(out).To(ContainSubstring("verify: 0 runs replayed, 0 failed, 1 sweep rungs skipped"))
		Expect(err).To(MatchError("verify: no run to replay: it checked nothing"))
	})

	It("fails a run whose exported log is missing, naming where it looked", func() {
		chdir(repo)
		dir := GinkgoT().TempDir()
		out, err := invoke("verify", "-reports", dir, "T0.1")
		Expect(out).To(ContainSubstring("T0.1: FAIL: no exported log in " + dir + "/T0.1"))
		n := len(runsOf("T0.1-witness"))
		Expect(err).To(MatchError(fmt.Sprintf("verify: %d of %d runs do not replay to what they recorded", n, n)))
	})
})
