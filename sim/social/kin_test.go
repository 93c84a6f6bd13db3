package social_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/social"
)

var _ = Describe("Kin", func() {
	It("makes every two members of a household kin, both ways, sorted", func() {
		k, err := social.NewKin([][]string{{"frothar", "balgruuf", "dagny"}, {"dagny", "ulfric"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(k.Of("balgruuf")).To(Equal([]string{"dagny", "frothar"}))
		Expect(k.Of("dagny")).To(Equal([]string{"balgruuf", "frothar", "ulfric"}))
		Expect(k.Related("ulfric", "dagny")).To(BeTrue())
		Expect(k.Related("dagny", "ulfric")).To(BeTrue())
		Expect(k.Related("ulfric", "balgruuf")).To(BeFalse(), "kinship is not transitive across households")
		Expect(k.Related("dagny", "dagny")).To(BeFalse())
	})
	It("returns a copy", func() {
		k, _ := social.NewKin([][]string{{"a", "b"}})
		k.Of("a")[0] = "z"
		Expect(k.Of("a")).To(Equal([]string{"b"}))
	})
	DescribeTable("refuses households that declare nothing or declare by mistake",
		func(h [][]string, msg string) {
			_, err := social.NewKin(h)
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("one member", [][]string{{"a", "b"}, {"c"}}, "household 1: a household names at least two NPCs (kin are every two members of one), got 1"),
		Entry("empty", [][]string{{}}, "household 0: a household names at least two NPCs (kin are every two members of one), got 0"),
		Entry("a repeat", [][]string{{"a", "b", "a"}}, "household 0: household names a twice"),
	)
	It("relates nobody when nothing is declared", func() {
		k, err := social.NewKin(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(k.Of("a")).To(BeEmpty())
		Expect(k.Related("a", "b")).To(BeFalse())
	})
})
