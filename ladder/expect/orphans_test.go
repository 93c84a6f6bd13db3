package expect_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/expect"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim/roles"
)

// decodeRoles loads expectations in a fixture that declares the steward.
func decodeRoles(items ...string) []expect.Expectation {
	GinkgoHelper()
	src := `rung: T5.9
title: t
tier: 5
seed_id: s
ticks: 10
locations:
  hall: {hold: whiterun}
roles:
  steward: {faction: court, holder: prov}
cast:
  prov: {faction: court}
  iri: {faction: court}
expect:
`
	for _, it := range items {
		src += "  - " + it + "\n"
	}
	fs, err := fixture.Parse("fixtures/T5.9-t.yaml", []byte(src))
	Expect(err).NotTo(HaveOccurred())
	return fs[0].Expect
}

// The engine's faults the invariant is there to catch, played by hand on
// a fake world: a reference naming the person, one resolving to someone
// other than the holder, one resolving to the dead, a debt to the old
// holder left open.
var _ = Describe("no_orphans", func() {
	var w *fakeWorld
	BeforeEach(func() {
		w = newFakeWorld(map[string]string{"prov": "whiterun", "iri": "whiterun"})
		b, err := roles.NewBook([]roles.Role{{ID: "steward", Faction: "court", Holder: "prov"}})
		Expect(err).NotTo(HaveOccurred())
		w.roles = b
		w.references["steward"] = []roles.Reference{{Role: "steward", Where: "duties:steward:0", Names: "role:steward", Resolved: "prov"}}
	})

	// run ticks 0–3: prov holds the role at 0 and 1, it is vacant at 2,
	// iri holds it at 3; edit is called before tick 2's check.
	run := func(edit func()) expect.Result {
		GinkgoHelper()
		r := expect.Start(decodeRoles("{no_orphans: {role: steward, old_holder: prov}}"))
		for t := int64(0); t < 4; t++ {
			w.tick = t
			switch t {
			case 2:
				_, err := w.roles.Vacate("steward", 2)
				Expect(err).NotTo(HaveOccurred())
				w.references["steward"][0].Resolved = ""
				edit()
			case 3:
				_, err := w.roles.Appoint("steward", "iri", 3)
				Expect(err).NotTo(HaveOccurred())
				w.references["steward"][0].Resolved = "iri"
			}
			r.Tick(w)
		}
		return r.Finish()[0]
	}

	It("passes when every reference follows the role and examines each at every tick", func() {
		res := run(func() {})
		Expect(res.Passed).To(BeTrue(), res.Message)
		Expect(res.Examined).To(Equal(int64(4)))
		Expect(res.Unit).To(Equal("role references and open obligations"))
	})

	DescribeTable("fails at the first tick a reference is an orphan",
		func(edit func(w *fakeWorld), message string) {
			res := run(func() { edit(w) })
			Expect(res.Passed).To(BeFalse())
			Expect(res.Tick).To(Equal(int64(2)))
			Expect(res.Message).To(Equal(message))
		},
		Entry("a record that names the person, not the office",
			func(w *fakeWorld) { w.references["steward"][0].Names = "prov" },
			`duties:steward:0 names "prov", not the role role:steward: an orphan once prov is gone`),
		Entry("a duty left with the old holder",
			func(w *fakeWorld) { w.references["steward"][0].Resolved = "prov" },
			"duties:steward:0 resolves to prov, but role:steward is vacant since tick 2"),
		Entry("a debt to the old holder left open",
			func(w *fakeWorld) {
				_, err := w.ledger.Issue("favour@1", "prov", "player", 1)
				Expect(err).NotTo(HaveOccurred())
			},
			"obligation:favour@1 (owed by player to prov) names prov, who no longer holds steward: an orphan; it should name the office, role:steward"),
	)

	It("fails a reference that resolves to the dead", func() {
		w.alive = map[string]bool{"prov": false, "iri": true}
		r := expect.Start(decodeRoles("{no_orphans: {role: steward, old_holder: prov}}"))
		r.Tick(w)
		res := r.Finish()[0]
		Expect(res.Message).To(Equal("duties:steward:0 resolves to prov, who is dead"))
	})

	It("fails as checked nothing when the role has no reference at all", func() {
		w.references["steward"] = nil
		r := expect.Start(decodeRoles("{no_orphans: {role: steward, old_holder: prov}}"))
		for t := int64(0); t < 4; t++ {
			w.tick = t
			if t == 2 {
				_, err := w.roles.Vacate("steward", 2)
				Expect(err).NotTo(HaveOccurred())
			}
			r.Tick(w)
		}
		res := r.Finish()[0]
		Expect(res.Message).To(Equal("checked nothing: examined 0 role references and open obligations in ticks [0, 9]"))
	})
})
