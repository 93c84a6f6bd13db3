package page_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	cmp "github.com/chronicle/ladder/ladder/compare"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/pageinput"
	"github.com/chronicle/ladder/sim/canon"
)

// The views' models, held to the runs themselves.
var _ = Describe("the rumour map's model", func() {
	It("lays out T2.6: a box per hold around its places, the roads between holds, the two travellers as carriers", func() {
		s := buildSection(GinkgoT(), passingRun(GinkgoT(), loadRung(GinkgoT(), "T2.6-carrier.yaml")[0]))
		m := s.Map
		Expect(m).NotTo(BeNil())
		Expect(m.Given).To(BeFalse())
		Expect(m.Carriers).To(Equal([]string{"caravaneer", "courier"}))
		// Every place in its hold's box; the places outside holds in none.
		for _, p := range m.Places {
			in := slices.IndexFunc(m.Holds, func(h page.HoldBox) bool {
				return p.X > h.X && p.X < h.X+h.W && p.Y > h.Y && p.Y < h.Y+h.H
			})
			if p.Hold == "" {
				Expect(in).To(Equal(-1), "%s has no hold but sits in a box", p.ID)
				continue
			}
			Expect(in).To(BeNumerically(">=", 0), "%s is outside every box", p.ID)
			Expect(m.Holds[in].ID).To(Equal(p.Hold))
		}
		// A road between holds is one somebody walked: both ends are
		// places of the run, and at least one is outside the holds or in
		// another hold.
		cross := 0
		for _, r := range m.Roads {
			if r.Cross {
				cross++
			}
		}
		Expect(cross).To(BeNumerically(">=", 4), "the caravaneer's and the courier's legs through the road locations")
	})

	It("draws the fixture's coordinates when it gives them", func() {
		f := *loadRung(GinkgoT(), "T2.6-carrier.yaml")[0]
		f.XY = map[string][2]float64{}
		for i, l := range f.Locations {
			f.XY[l.ID] = [2]float64{float64(100 * i), float64(50 * (i % 3))}
		}
		s := buildSection(GinkgoT(), passingRun(GinkgoT(), &f))
		Expect(s.Map.Given).To(BeTrue())
		// The same shape, shifted: differences between places are kept.
		a, b := s.Map.Places[0], s.Map.Places[3]
		Expect(b.X - a.X).To(Equal(300.0))
		Expect(b.Y - a.Y).To(Equal(0.0))
	})
})

var _ = Describe("the comparison's model", func() {
	It("names for a failing run what ladder compare names against its golden", func() {
		_, in := failingT32(GinkgoT())
		s := buildSection(GinkgoT(), in)
		Expect(s.Others).NotTo(BeEmpty())
		c := s.Others[0].Cmp
		Expect(s.Others[0].Name).To(Equal("golden"))
		// The command line's report on the same two traces.
		g, err := in.GoldenTrace.Open()
		Expect(err).NotTo(HaveOccurred())
		defer g.Close()
		a, err := in.Trace.Open()
		Expect(err).NotTo(HaveOccurred())
		defer a.Close()
		rep, err := cmp.Runs(cmp.Side{Name: "golden", Trace: g}, cmp.Side{Name: "T3.2", Trace: a}, cmp.Options{List: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Verdict).To(Equal(rep.Verdict()))
		Expect(c.FirstRoll.Key).To(Equal(rep.FirstRoll.Key()))
		Expect(c.FirstRoll.Tick).To(Equal(rep.FirstRoll.Tick()))
		// The first divergent record is the one the gate's trace line names.
		Expect(c.FirstRecord).NotTo(BeNil())
		Expect(slices.ContainsFunc(s.Failures, func(f page.Failure) bool {
			return f.Link.Target == page.TraceTarget(c.FirstRecord.Seq)
		})).To(BeTrue(), "no failure line links to record %d", c.FirstRecord.Seq)
		// The golden's records of the window are kept beside the run's.
		Expect(s.Others[0].Feed).NotTo(BeEmpty())
	})

	It("compares a case with the run it is a counterfactual of, both as the suite left them", func() {
		fs := loadRung(GinkgoT(), "T2.3-conflicting-variants.yaml")
		reports := GinkgoT().TempDir()
		var swapped int
		for i, f := range fs {
			_, err := ladder.Run(f, ladder.Options{Dir: filepath.Join(reports, filepath.FromSlash(f.Name()))})
			Expect(err).NotTo(HaveOccurred())
			if f.CounterfactualOf != "" {
				swapped = i
			}
		}
		Expect(swapped).To(BeNumerically(">", 0), "T2.3 has no counterfactual case")
		in := pageinput.ReportedPageInputs(root, reports, fs[swapped], nil)[0]
		Expect(in.Partners).To(HaveLen(1))
		s := buildSection(GinkgoT(), in)
		Expect(s.Others).To(HaveLen(1))
		Expect(s.Others[0].Name).To(Equal(fs[swapped].CounterfactualOf))
		Expect(s.Others[0].Cmp.Verdict).NotTo(BeEmpty())
		Expect(s.Others[0].Tracks.Beliefs).NotTo(BeEmpty())
	})
})

var _ = Describe("the variant tree's dents", func() {
	It("shows each contest's winner dented by the contested-claim dent", func() {
		f := loadRung(GinkgoT(), "T2.3-conflicting-variants.yaml")[0]
		s := buildSection(GinkgoT(), passingRun(GinkgoT(), f))
		html := render(passingRun(GinkgoT(), f))
		n := 0
		for _, c := range s.Lineage.Claims {
			for _, x := range c.Supersessions {
				d, ok := s.Dents[strconv.FormatInt(x.Tick, 10)+" "+x.Holder+"/"+c.ID]
				Expect(ok).To(BeTrue(), "no dent for %s's contest at tick %d", x.Holder, x.Tick)
				before, err := strconv.ParseFloat(d.Before, 64)
				Expect(err).NotTo(HaveOccurred())
				Expect(d.After).To(Equal(canon.FormatFloat(float64(before * float64(1-f.Defines.ContestedDent)))))
				Expect(html).To(ContainSubstring(d.Before + " → " + d.After))
				n++
			}
		}
		Expect(n).To(BeNumerically(">", 0), "T2.3 has no contest: the check examined nothing")
	})
})

var _ = Describe("the overview", func() {
	It("lists failed runs first, by tier then earliest divergence, and starts there", func() {
		_, t11 := failingRun(GinkgoT())
		_, t32 := failingT32(GinkgoT())
		t01 := passingRun(GinkgoT(), loadRung(GinkgoT(), "T0.1-witness.yaml")[0])
		html := render(t32, t01, t11)
		rows := regexp.MustCompile(`<tr class="(?:passed|failed)" data-name="([^"]+)">`).FindAllSubmatch(html, -1)
		var order []string
		for _, r := range rows {
			order = append(order, string(r[1]))
		}
		Expect(order).To(Equal([]string{"T1.1", "T3.2", "T0.1"}))
		Expect(bytes.Contains(html, []byte(`<p class="start-here">Start here: <a href="#T1.1@`))).To(BeTrue())
	})
})

var _ = Describe("a sweep's section", func() {
	It("reads T2.8's golden summary and aggregates: each bound as the summary judged it, each seed's values", func() {
		dir := filepath.Join(root, "goldens", "T2.8-spread-at-scale")
		v, err := page.BuildSweep(&page.SweepInput{Summary: page.Path(filepath.Join(dir, "summary.json")),
			Aggregates: page.Path(filepath.Join(dir, "aggregates.csv")), Seed: -1})
		Expect(err).NotTo(HaveOccurred())
		f := loadRung(GinkgoT(), "T2.8-spread-at-scale.yaml")[0]
		Expect(v.Bounds).To(HaveLen(len(f.Sweep.Bounds)))
		Expect(v.SeedIDs).To(HaveLen(f.Sweep.Seeds))
		Expect(v.Plots).To(HaveLen(len(v.Columns)))
		for _, p := range v.Plots {
			Expect(p.Dots).To(HaveLen(f.Sweep.Seeds))
		}
		// The seed of interest is the farthest from the first bound's
		// pilot mean (every bound holds on the goldens).
		b := v.Bounds[0]
		c := slices.Index(v.Columns, b.Aggregate)
		far := 0.0
		for _, vals := range v.Values {
			far = max(far, abs(float64(vals[c])-b.PilotMean))
		}
		Expect(abs(float64(v.Values[v.Seed][c]) - b.PilotMean)).To(Equal(far))
	})
})

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
