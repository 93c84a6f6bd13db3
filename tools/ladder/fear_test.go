package main

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("fear", Serial, func() {
	BeforeEach(func() { socialRoot("T4a.1-mourning.yaml") })

	DescribeTable("refuses missing or wrong arguments",
		func(want string, args ...string) {
			out, err := invoke(append([]string{"fear"}, args...)...)
			Expect(err).To(MatchError(want))
			Expect(out).To(BeEmpty())
		},
		Entry("no rung", "fear: -rung is required", "-at", "12"),
		Entry("a tick outside the run", "fear: tick 96 is outside T4a.1's run [0, 96)", "-rung", "T4a.1", "-at", "96"),
		Entry("a place not in the world", `fear: T4a.1 has no location "attic"`, "-rung", "T4a.1", "-location", "attic"),
		Entry("an unknown rung", `no fixture for rung "T4a.9"`, "-rung", "T4a.9"),
	)

	It("shows the fear per place as of a tick, its recomputation within regime 3, and every contributing belief", func() {
		out, err := invoke("fear", "-rung", "T4a.1", "-at", "12")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(`T4a.1: collective fear as of tick 12 (severity × confidence × gist per belief; killing 1, brawl 0.5, theft 0.25)
location             total                  beliefs  recomputed             |Δ|                      bound (regime 3)
everywhere           2.337012819374208            3  2.337012819374208      0.0                      2.075684352730719e-15
market               0.8987012869697124           1  0.8987012869697124     0.0                      3.9910354442161406e-16
temple_of_kynareth   1.4383115324044955           2  1.4383115324044955     0.0                      9.58107947915618e-16

market (1 beliefs):
  ulf          killing@10         killing@10#v0          confidence 0.9                  gist 0.9985569855219026   weight 0.8987012869697124

temple_of_kynareth (2 beliefs):
  danica       killing@10         killing@10#v0          confidence 0.54                 gist 0.9992782322866353   weight 0.5396102454347831
  frida        killing@10         killing@10#v0          confidence 0.9                  gist 0.9985569855219026   weight 0.8987012869697124
`))
	})

	It("shows one place's drill-down with -location, and nothing before anyone fears anything", func() {
		out, err := invoke("fear", "-rung", "T4a.1", "-at", "12", "-location", "market")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("\nmarket (1 beliefs):\n"))
		Expect(out).NotTo(ContainSubstring("temple_of_kynareth"))
		out, err = invoke("fear", "-rung", "T4a.1", "-at", "9")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HaveSuffix("everywhere           0.0                          0  0.0                    0.0                      0.0\n"))
	})
})
