package digest_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/digest"
	"github.com/chronicle/ladder/sim/roles"
	"github.com/chronicle/ladder/sim/rules"
	"github.com/chronicle/ladder/sim/schedule"
)

// layered is the worked example in a world of Tiers 4 and 5: the guard
// holds the watch, with a duty at the gate laid over its schedule, and
// the guard and the thief are weighed at 0.5.
func layered() *state {
	GinkgoHelper()
	s := example()
	s.layers = rules.CoreOnly.With(rules.Social).With(rules.Schedule).With(rules.Weighting).With(rules.Roles)
	duty := schedule.Block{At: "gate", From: 6, To: 18, Every: 24, Until: schedule.Forever}
	var err error
	s.roles, err = roles.NewBook([]roles.Role{{ID: "watch", Holder: "guard", Duties: []schedule.Block{duty}}})
	Expect(err).NotTo(HaveOccurred())
	s.sched = map[string]schedule.Schedule{
		"guard": {Home: "barracks", Overrides: []schedule.Override{{ID: roles.DutyID("watch", 0), Block: duty}}},
		"thief": {Home: "den"},
	}
	s.weights = []sim.PairWeight{{A: "guard", B: "thief", Weight: 0.5}}
	return s
}

var _ = Describe("the digest of Tier 4-5 state", func() {
	It("has no member for a layer the world does not use, so older worlds' digests do not move", func() {
		text, err := digest.Canonical(example())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(text)).To(Equal(exampleText))
		for _, key := range []string{`"roles"`, `"schedules"`, `"pair_weights"`} {
			Expect(string(text)).NotTo(ContainSubstring(key))
		}
	})

	It("holds the roles, the overrides and the pair weights of a world that uses their layers", func() {
		text, err := digest.Canonical(layered())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(text)).To(ContainSubstring(`"pair_weights":[{"a":"guard","b":"thief","weight":"0.5"}]`))
		Expect(string(text)).To(ContainSubstring(`"roles":[{"appointer":"","duties":[{"at":"gate","every":24,"from":6,"meets":"","since":0,"to":18,"until":9223372036854775807}],"faction":"","holder":"guard","id":"watch","lapses":0,"previous":"","since":0}]`))
		Expect(string(text)).To(ContainSubstring(`"schedules":[{"npc":"guard","overrides":[{"block":{"at":"gate"`))
		Expect(strings.Index(string(text), `"reputation"`)).To(BeNumerically("<", strings.Index(string(text), `"roles"`)), "keys sorted")
	})

	DescribeTable("moves with every part of that state",
		func(change func(s *state)) {
			before, err := digest.Of(layered())
			Expect(err).NotTo(HaveOccurred())
			s := layered()
			change(s)
			after, err := digest.Of(s)
			Expect(err).NotTo(HaveOccurred())
			Expect(after).NotTo(Equal(before))
		},
		Entry("a role falls vacant", func(s *state) { _, err := s.roles.Vacate("watch", 3); Expect(err).NotTo(HaveOccurred()) }),
		Entry("a duty lapses", func(s *state) { r, _ := s.roles.Get("watch"); r.Lapses++ }),
		Entry("an override is lifted", func(s *state) { s.sched["guard"] = schedule.Schedule{Home: "barracks"} }),
		Entry("an override moves by one tick", func(s *state) { s.sched["guard"].Overrides[0].Block.To = 19 }),
		Entry("a pair weight moves by an ulp", func(s *state) { s.weights[0].Weight = 0.5000000000000001 }),
		Entry("a pair is weighed", func(s *state) { s.weights = append(s.weights, sim.PairWeight{A: "a", B: "b", Weight: 1}) }),
	)

	It("refuses a weight that is not finite, naming the pair", func() {
		s := layered()
		s.weights[0].Weight = nan()
		_, err := digest.Of(s)
		Expect(err).To(MatchError(digest.ErrNotFinite))
		Expect(err.Error()).To(ContainSubstring("pair_weights"))
		Expect(err.Error()).To(ContainSubstring("pair guard/thief weight"))
	})
})
