package harness_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/audit"
	"github.com/chronicle/ladder/sim/trace"
)

// snapshot is every record the incremental audit examines, by key, with
// its content spelt out: two snapshots differ at exactly the records that
// changed. (Tier 4-5's invariants, and role-references' reading of who is
// alive, examine all of theirs at every audit.)
func snapshot(w *sim.World) map[string]string {
	out := map[string]string{}
	st := w.Store()
	for _, id := range w.NPCs() {
		for _, b := range st.BeliefsOf(id) {
			out["belief "+id+"/"+b.Claim] = fmt.Sprintf("%+v", *b)
		}
	}
	for _, id := range st.ClaimIDs() {
		c, _ := st.Claim(id)
		out["claim "+id] = fmt.Sprintf("%+v", *c)
		for _, v := range st.Variants(id) {
			out["variant "+id+" "+v.ID] = fmt.Sprintf("%+v", *v)
		}
	}
	for _, g := range w.Grudges().All() {
		out["grudge "+g.Holder+"->"+g.Target] = fmt.Sprintf("%+v", *g)
	}
	for _, o := range w.Ledger().All() {
		out["obligation "+o.ID] = fmt.Sprintf("%+v", *o)
	}
	for _, o := range w.Reputation().All() {
		out["reputation "+o.Observer+"/"+o.Subject+"/"+o.Dimension] = fmt.Sprintf("%+v", *o)
	}
	return out
}

// covered reports whether the audit of a tick examined the record key
// names.
func covered(key string, c audit.Changes) bool {
	kind, name, _ := strings.Cut(key, " ")
	switch kind {
	case "belief":
		holder, claim, _ := strings.Cut(name, "/")
		return slices.Contains(c.Holders, holder) && slices.Contains(c.Claims, claim)
	case "claim":
		return slices.Contains(c.Claims, name)
	case "variant":
		claim, _, _ := strings.Cut(name, " ")
		return slices.Contains(c.Claims, claim)
	case "grudge":
		holder, target, _ := strings.Cut(name, "->")
		return slices.Contains(c.Grudges, [2]string{holder, target})
	case "obligation":
		return slices.Contains(c.Obligations, name)
	case "reputation":
		parts := strings.Split(name, "/")
		return slices.Contains(c.Opinions, [3]string{parts[0], parts[1], parts[2]})
	}
	return false
}

// The incremental audit examines what the trace and the log say a tick
// changed. Held to a full audit on random worlds in sim/audit, it is
// equivalent to one on the ladder when the trace names every record that
// changes: checked here on every rung and case, every tick, against a
// snapshot of the state before and after.
var _ = Describe("the incremental audit on the ladder", func() {
	It("examines every record that changed, at every tick of every rung and case", func() {
		files, err := fixture.Discover(filepath.Join("..", "..", "fixtures"), "fixtures")
		Expect(err).NotTo(HaveOccurred())
		changed, incremental, runs := 0, 0, 0
		kinds := map[string]int{}
		examined := map[string]int64{} // looked up, never ranged over
		for _, file := range files {
			Expect(file.Err).NotTo(HaveOccurred())
			for _, f := range file.Fixtures {
				tr := &trace.Buffer{}
				w, err := ladder.Build(f, tr)
				Expect(err).NotTo(HaveOccurred())
				a := audit.New(w, audit.Options{})
				fed := len(tr.Records) // the first audit is full
				before := snapshot(w)
				for t := int64(0); t < f.Ticks; t++ {
					Expect(w.Step()).To(Succeed())
					for _, r := range tr.Records[fed:] {
						a.Emit(r)
					}
					fed = len(tr.Records)
					rep, err := a.Tick()
					Expect(err).NotTo(HaveOccurred())
					Expect(rep.Findings).To(BeEmpty(), "%s at tick %d", f.Name(), t)
					after := snapshot(w)
					if c := a.Last(); !c.Full {
						incremental++
						for key, v := range after {
							if before[key] == v {
								continue
							}
							changed++
							kinds[strings.Fields(key)[0]]++
							Expect(covered(key, c)).To(BeTrue(), "%s at tick %d: %s changed, but the audit did not examine it (it examined %+v)", f.Name(), t, key, c)
						}
					}
					before = after
				}
				for _, e := range a.Examined() {
					examined[e.Invariant] += e.Records
				}
				runs++
			}
		}
		// Every invariant, Tier 4-5's included, examined records somewhere.
		for _, name := range audit.Names() {
			Expect(examined[name]).To(BeNumerically(">", 0), "%s examined nothing on the whole ladder", name)
		}
		// The claim is only as strong as the changes it met: every kind of
		// record the audit covers changed between keyframes somewhere.
		for _, k := range []string{"belief", "claim", "variant", "grudge", "obligation", "reputation"} {
			Expect(kinds[k]).To(BeNumerically(">", 0), "no %s changed between keyframes on the whole ladder", k)
		}
		AddReportEntry("coverage", fmt.Sprintf("%d runs, %d incremental audits, %d records changed between keyframes (%v), all examined", runs, incremental, changed, kinds))
	})
})
