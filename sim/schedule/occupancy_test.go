package schedule_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/schedule"
)

var places = []string{"home_a", "home_b", "inn", "market", "road", "temple"}

// randomSchedule draws a home (or none) and up to three blocks, one-off
// and recurring, some bounded by Since and Until.
func randomSchedule(rng *rand.Rand) schedule.Schedule {
	s := schedule.Schedule{}
	if rng.IntN(4) > 0 {
		s.Home = places[rng.IntN(2)]
	}
	for range rng.IntN(4) {
		b := schedule.Block{At: places[rng.IntN(len(places))], Until: schedule.Forever}
		if rng.IntN(3) > 0 {
			b.Every = int64(1 + rng.IntN(30))
			b.From = int64(rng.IntN(int(b.Every)))
			b.To = b.From + 1 + int64(rng.IntN(int(b.Every-b.From)))
		} else {
			b.From = int64(rng.IntN(100))
			b.To = b.From + 1 + int64(rng.IntN(50))
		}
		if rng.IntN(3) == 0 {
			b.Since = int64(rng.IntN(60)) - 10
		}
		if rng.IntN(3) == 0 {
			b.Until = b.Since + 1 + int64(rng.IntN(150))
		}
		s.Blocks = append(s.Blocks, b)
	}
	for k := range rng.IntN(3) {
		s.Overrides = append(s.Overrides, schedule.Override{ID: fmt.Sprintf("o%d", k), Block: randomBlock(rng)})
	}
	return s
}

// randomBlock draws one block as an override would be: mostly one-off
// windows (a mourning), sometimes recurring (a duty).
func randomBlock(rng *rand.Rand) schedule.Block {
	b := schedule.Block{At: places[rng.IntN(len(places))], Until: schedule.Forever}
	if rng.IntN(3) == 0 {
		b.Every = int64(1 + rng.IntN(30))
		b.From = int64(rng.IntN(int(b.Every)))
		b.To = b.From + 1 + int64(rng.IntN(int(b.Every-b.From)))
	} else {
		b.From = int64(rng.IntN(150))
		b.To = b.From + 1 + int64(rng.IntN(80))
	}
	return b
}

// naiveAt is the definition of Schedule.At written out: the newest
// override covering t, else the first base block covering it, else home.
func naiveAt(s schedule.Schedule, t int64) string {
	for k := len(s.Overrides) - 1; k >= 0; k-- {
		if s.Overrides[k].Block.Covers(t) {
			return s.Overrides[k].Block.At
		}
	}
	for _, b := range s.Blocks {
		if b.Covers(t) {
			return b.At
		}
	}
	return s.Home
}

// boundary reports whether some block of s, base or override, starts or
// stops covering at t.
func boundary(s schedule.Schedule, t int64) bool {
	blocks := slices.Clone(s.Blocks)
	for _, o := range s.Overrides {
		blocks = append(blocks, o.Block)
	}
	for _, b := range blocks {
		if b.Covers(t-1) != b.Covers(t) || t == b.Until {
			return true
		}
	}
	return false
}

var _ = Describe("Schedule.Next", func() {
	It("is the first tick after t where At may change, never skipping a move, never stopping where no block changes", func() {
		rng := rand.New(rand.NewPCG(11, 12))
		const horizon = 200
		examined, moves := 0, 0
		for range 300 {
			s := randomSchedule(rng)
			for _, b := range s.Blocks {
				Expect(b.Validate()).To(Succeed())
			}
			for _, o := range s.Overrides {
				Expect(o.Block.Validate()).To(Succeed())
			}
			// at[x+20] is At(x): the brute-force answer, once per tick.
			at := make([]string, 250+horizon+20)
			for x := range at {
				at[x] = naiveAt(s, int64(x)-20)
			}
			for t := int64(-20); t < 250; t++ {
				n := s.Next(t)
				if n <= t {
					Fail(fmt.Sprintf("%+v: Next(%d) = %d", s, t, n))
				}
				for x := t; x < min(n, t+horizon); x++ {
					if at[x+20] != at[t+20] {
						Fail(fmt.Sprintf("%+v: Next(%d) = %d, but At(%d) differs", s, t, n, x))
					}
				}
				if n != schedule.Forever && n < t+horizon {
					if !boundary(s, n) {
						Fail(fmt.Sprintf("%+v: Next(%d) = %d is no block's start or end", s, t, n))
					}
					if at[n+20] != at[t+20] {
						moves++
					}
				}
				examined++
			}
		}
		Expect(examined).To(Equal(300 * 270))
		Expect(moves).To(BeNumerically(">", 5_000), "schedules that move were examined")
	})
})

var _ = Describe("Schedule with overrides", func() {
	It("is at the newest covering override, else the first covering base block, else home; the base never changes", func() {
		rng := rand.New(rand.NewPCG(21, 22))
		examined, overridden := 0, 0
		for range 300 {
			s := randomSchedule(rng)
			base := s.Base()
			for t := int64(-10); t < 250; t++ {
				Expect(s.At(t)).To(Equal(naiveAt(s, t)), "%+v at %d", s, t)
				Expect(base.At(t)).To(Equal(naiveAt(schedule.Schedule{Home: s.Home, Blocks: s.Blocks}, t)))
				o, ok := s.InForce(t)
				if ok {
					overridden++
					Expect(o.Block.Covers(t)).To(BeTrue())
					Expect(s.At(t)).To(Equal(o.Block.At))
				} else {
					Expect(s.At(t)).To(Equal(base.At(t)), "no override in force: the base decides")
				}
				examined++
			}
		}
		Expect(examined).To(Equal(300 * 260))
		Expect(overridden).To(BeNumerically(">", 5_000), "overrides in force were examined")
	})

	It("lets the newest of two covering overrides win, and restores the base once both have ended", func() {
		s := schedule.Schedule{Home: "home_a", Blocks: []schedule.Block{{At: "market", From: 8, To: 18, Every: 24, Until: schedule.Forever}}}
		s.Overrides = []schedule.Override{
			{ID: "first", Block: schedule.Block{At: "temple", From: 3, To: 30, Until: schedule.Forever}},
			{ID: "second", Block: schedule.Block{At: "inn", From: 10, To: 20, Until: schedule.Forever}},
		}
		Expect([]string{s.At(2), s.At(3), s.At(9), s.At(10), s.At(19), s.At(20), s.At(29), s.At(30), s.At(32)}).To(Equal(
			[]string{"home_a", "temple", "temple", "inn", "inn", "temple", "temple", "home_a", "market"}))
		o, ok := s.InForce(12)
		Expect(ok).To(BeTrue())
		Expect(o.ID).To(Equal("second"))
		_, ok = s.InForce(31)
		Expect(ok).To(BeFalse())
		Expect(s.Which(12)).To(Equal(2), "override 1 is numbered after the one base block")
		Expect(s.Next(3)).To(Equal(int64(8)), "a hidden base block's start is still a tick the NPC may move at")
		Expect(s.Next(20)).To(Equal(int64(30)))
	})

	It("is Forever for a schedule without blocks, and at the far end of time", func() {
		Expect(schedule.Schedule{Home: "house"}.Next(0)).To(Equal(int64(schedule.Forever)))
		daily := schedule.Schedule{Blocks: []schedule.Block{{At: "market", From: 8, To: 18, Every: 24, Until: schedule.Forever}}}
		Expect(daily.Next(0)).To(Equal(int64(8)))
		Expect(daily.Next(8)).To(Equal(int64(18)))
		Expect(daily.Next(18)).To(Equal(int64(32)))
		Expect(daily.Next(schedule.Forever - 3)).To(Equal(int64(schedule.Forever)))
	})

	It("never wakes an NPC for a one-off block whose window closes as it starts to apply", func() {
		// [From, To) = [0, 5) but the block applies from tick 5: it never
		// covers a tick, so no tick is a move.
		s := schedule.Schedule{Home: "house", Blocks: []schedule.Block{{At: "market", From: 0, To: 5, Since: 5, Until: schedule.Forever}}}
		Expect(s.Blocks[0].Validate()).To(Succeed())
		for t := int64(-1); t <= 6; t++ {
			Expect(s.At(t)).To(Equal("house"))
			Expect(s.Next(t)).To(Equal(int64(schedule.Forever)), "Next(%d)", t)
		}
	})
})

var _ = Describe("Occupancy", func() {
	It("places every NPC where its schedule puts it and groups them sorted, tick by tick, as NPCs come, go, leave and are rescheduled", func() {
		rng := rand.New(rand.NewPCG(13, 14))
		examined, rescheduledBefore, rescheduledAfter := 0, 0, 0
		for range 50 {
			cast := make([]schedule.Schedule, 40)
			for i := range cast {
				cast[i] = randomSchedule(rng)
			}
			o, err := schedule.NewOccupancy(places, cast)
			Expect(err).NotTo(HaveOccurred())
			left := make([]bool, len(cast))
			for t := int64(0); t < 200; t++ {
				if rng.IntN(10) == 0 {
					i := rng.IntN(len(cast))
					o.Leave(i)
					left[i] = true
				}
				// An override laid on or lifted, before or after the
				// tick's Advance: the NPC is re-placed at once.
				if rng.IntN(3) == 0 && t > 0 {
					i := rng.IntN(len(cast))
					cast[i] = rescheduled(rng, cast[i], t)
					Expect(o.Reschedule(i, cast[i], t-1)).To(Succeed())
					rescheduledBefore++
				}
				o.Advance(t)
				if rng.IntN(3) == 0 {
					i := rng.IntN(len(cast))
					cast[i] = rescheduled(rng, cast[i], t)
					Expect(o.Reschedule(i, cast[i], t)).To(Succeed())
					Expect(o.Schedule(i)).To(Equal(cast[i]))
					rescheduledAfter++
				}
				want := make([][]int32, len(places))
				for i, s := range cast {
					loc := int32(schedule.Nowhere)
					if at := s.At(t); at != "" && !left[i] {
						loc = int32(slices.Index(places, at))
						want[loc] = append(want[loc], int32(i))
					}
					Expect(o.At(i)).To(Equal(loc), "tick %d, NPC %d", t, i)
				}
				Expect(o.Locations()).To(Equal(len(places)))
				for j := range places {
					Expect(cmp.Diff(want[j], o.Here(j), cmp.Comparer(func(a, b []int32) bool { return slices.Equal(a, b) }))).To(BeEmpty(), "tick %d, %s", t, places[j])
					examined += len(want[j])
				}
			}
		}
		Expect(examined).To(BeNumerically(">", 100_000))
		Expect(rescheduledBefore).To(BeNumerically(">", 1_000))
		Expect(rescheduledAfter).To(BeNumerically(">", 1_000))
	})

	It("refuses a schedule naming an unknown location, and a location given twice", func() {
		_, err := schedule.NewOccupancy([]string{"inn"}, []schedule.Schedule{{Home: "inn"}, {Blocks: []schedule.Block{{At: "moon", To: 1, Until: schedule.Forever}}}})
		Expect(err).To(MatchError(`occupancy: NPC 1's schedule names unknown location "moon"`))
		_, err = schedule.NewOccupancy([]string{"inn", "inn"}, nil)
		Expect(err).To(MatchError(`occupancy: location "inn" given twice`))
		o, err := schedule.NewOccupancy([]string{"inn"}, []schedule.Schedule{{Home: "inn"}})
		Expect(err).NotTo(HaveOccurred())
		err = o.Reschedule(0, schedule.Schedule{Home: "inn", Overrides: []schedule.Override{{ID: "x", Block: schedule.Block{At: "moon", To: 1, Until: schedule.Forever}}}}, 0)
		Expect(err).To(MatchError(`occupancy: reschedule NPC 0: schedule names unknown location "moon"`))
		Expect(o.Schedule(0)).To(Equal(schedule.Schedule{Home: "inn"}), "a refused schedule changes nothing")
	})

	It("moves a rescheduled NPC at once, and keeps one who has left nowhere", func() {
		o, err := schedule.NewOccupancy([]string{"home_a", "temple"}, []schedule.Schedule{{Home: "home_a"}, {Home: "home_a"}})
		Expect(err).NotTo(HaveOccurred())
		o.Advance(0)
		mourning := schedule.Schedule{Home: "home_a", Overrides: []schedule.Override{{ID: "m", Block: schedule.Block{At: "temple", From: 0, To: 5, Until: schedule.Forever}}}}
		Expect(o.Reschedule(0, mourning, 0)).To(Succeed())
		Expect(o.At(0)).To(Equal(int32(1)))
		Expect(o.Here(1)).To(Equal([]int32{0}))
		Expect(o.Here(0)).To(Equal([]int32{1}))
		o.Leave(1)
		Expect(o.Reschedule(1, mourning, 0)).To(Succeed())
		Expect(o.At(1)).To(Equal(int32(schedule.Nowhere)))
		o.Advance(5)
		Expect(o.At(0)).To(Equal(int32(0)), "the override ended: back home without another reschedule")
		Expect(o.At(1)).To(Equal(int32(schedule.Nowhere)))
	})
})

// rescheduled returns s with an override laid on from t (a mourning, a
// duty taken) or its newest override lifted: what the engine does to a
// schedule mid-run.
func rescheduled(rng *rand.Rand, s schedule.Schedule, t int64) schedule.Schedule {
	s.Overrides = slices.Clone(s.Overrides)
	if len(s.Overrides) > 0 && rng.IntN(2) == 0 {
		s.Overrides = s.Overrides[:len(s.Overrides)-1]
		return s
	}
	b := randomBlock(rng)
	if b.Every == 0 {
		b.From, b.To = t+b.From%5, t+b.From%5+b.To-b.From
	}
	s.Overrides = append(s.Overrides, schedule.Override{ID: fmt.Sprintf("at%d", t), Block: b})
	return s
}

// FuzzNext holds Next to At on one-block schedules from arbitrary numbers.
func FuzzNext(f *testing.F) {
	f.Add(int64(8), int64(18), int64(24), int64(0), int64(1000), int64(30))
	f.Add(int64(5), int64(8), int64(0), int64(0), int64(7), int64(6))
	f.Add(int64(0), int64(1), int64(4), int64(-8), int64(0), int64(-9))
	f.Fuzz(func(t *testing.T, from, to, every, since, until, tick int64) {
		const lim = 1 << 12
		for _, v := range []int64{from, to, every, since, until, tick} {
			if v < -lim || v > lim {
				t.Skip()
			}
		}
		b := schedule.Block{At: "x", From: from, To: to, Every: every, Since: since, Until: until}
		if b.Validate() != nil {
			t.Skip()
		}
		s := schedule.Schedule{Home: "h", Blocks: []schedule.Block{b}}
		n := s.Next(tick)
		if n <= tick {
			t.Fatalf("%+v: Next(%d) = %d", b, tick, n)
		}
		for x := tick; x < min(n, tick+3*lim); x++ {
			if s.At(x) != s.At(tick) {
				t.Fatalf("%+v: Next(%d) = %d, but At(%d) = %q differs from At(%d) = %q", b, tick, n, x, s.At(x), tick, s.At(tick))
			}
		}
	})
}
