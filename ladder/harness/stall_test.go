package harness_test

import (
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/verdict"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/trace"
)

// hangAt is an Observe sink standing in for a loop that does not end: the
// first record of tick at blocks the run's goroutine until release is
// closed (so the spec leaks nothing once it is done). Every other record
// passes, after delay.
type hangAt struct {
	at      int64
	delay   time.Duration
	release chan struct{}
}

func (h *hangAt) Emit(r trace.Record) {
	if r.Tick == h.at {
		<-h.release
	}
	time.Sleep(h.delay)
}

// steadyWorld is abortWorld without the report that aborts it: merchant
// and witness meet at the market every tick, so every tick holds records.
var steadyWorld = strings.Replace(abortWorld, "  - {tick: 4, kind: report, from: listener, to: merchant, claim: theft@1}\n", "", 1)

var _ = Describe("a run that stalls", Label("unit"), func() {
	It("is given up once it finishes no tick for the limit, naming the tick it hangs in", func() {
		Expect(steadyWorld).NotTo(Equal(abortWorld))
		f := parse("fixtures/T0.9-unit.yaml", steadyWorld)
		h := &hangAt{at: 4, release: make(chan struct{})}
		defer close(h.release)
		start := time.Now()
		res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir(), Observe: h, Stall: 300 * time.Millisecond})
		Expect(res).To(BeNil(), "a hung run leaves no Result: its goroutine still holds the run's state")
		var hung *ladder.StallError
		Expect(errors.As(err, &hung)).To(BeTrue(), "%v", err)
		Expect(hung.Where).NotTo(BeEmpty())
		Expect(hung.Where[0]).To(MatchRegexp(`^ladder/harness/stall_test\.go:\d+ harness_test\.\(\*hangAt\)\.Emit$`), "the innermost frame is where it hangs")
		Expect(hung.Where).To(ContainElement(HavePrefix("sim/world.go:")), "then the engine's frames that called it")
		where := strings.Join(hung.Where, " ← ")
		hung.Where = nil
		Expect(*hung).To(Equal(ladder.StallError{Run: "T0.9", Tick: 4, Ticks: 8, Limit: 300 * time.Millisecond}))
		hung.Where = strings.Split(where, " ← ")
		Expect(time.Since(start)).To(BeNumerically("<", 5*time.Second))
		Expect(err.Error()).To(Equal("T0.9 made no progress for 300ms in tick 4, at " + where + ": a loop that does not end, in the engine or the ladder's path; " +
			"the run was abandoned there (LADDER_STALL raises the limit for a slow machine)"))

		p := verdict.StallProblem(f, hung)
		Expect(p.Tick).To(Equal(int64(4)))
		Expect(p.Message).To(Equal("T0.9 run: hung: made no progress for 300ms in tick 4, at " + where + ": a loop that does not end, in the engine or the ladder's path; " +
			"the run was abandoned there (LADDER_STALL raises the limit for a slow machine) " +
			"(reproduce: make ladder RUNG=T0.9; a hang is a bug in the engine, never a change to accept)"))
	})

	It("is not given up while it keeps finishing ticks, however slowly it goes as a whole", func() {
		// Every tick holds a record (merchant and witness meet at the
		// market each tick) and takes 60 ms: the run takes longer than the
		// limit, but no tick does.
		f := parse("fixtures/T0.9-unit.yaml", steadyWorld)
		slow := &slowTicks{per: 60 * time.Millisecond, last: -1}
		watched, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir(), Observe: slow, Stall: 250 * time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		Expect(slow.total()).To(BeNumerically(">", 250*time.Millisecond))
		plain, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		Expect(watched.Checkpoints).To(Equal(plain.Checkpoints), "watching a run changes nothing it produces")
	})

	It("raises a panic of the run's goroutine on the caller's, so the caller's spec fails instead of the process", func() {
		// The engine turns a panic inside a step into an error of its
		// own (sim.PanicError); an Observe's Start runs outside any step.
		f := parse("fixtures/T0.9-unit.yaml", steadyWorld)
		Expect(func() {
			_, _ = ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir(), Observe: panicSink{}, Stall: time.Second})
		}).To(PanicWith(ContainSubstring("T0.9: a sink that breaks")))
	})

	DescribeTable("LADDER_STALL",
		func(value string, set bool, want time.Duration, wantErr string) {
			old, had := os.LookupEnv("LADDER_STALL")
			DeferCleanup(func() {
				if had {
					os.Setenv("LADDER_STALL", old)
				} else {
					os.Unsetenv("LADDER_STALL")
				}
			})
			if set {
				os.Setenv("LADDER_STALL", value)
			} else {
				os.Unsetenv("LADDER_STALL")
			}
			d, err := ladder.StallLimit()
			if wantErr != "" {
				Expect(err).To(MatchError(wantErr))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(d).To(Equal(want))
		},
		Entry("unset: a minute", "", false, ladder.DefaultStall, ""),
		Entry("a duration", "90s", true, 90*time.Second, ""),
		Entry("not a duration", "ten", true, time.Duration(0), `LADDER_STALL="ten": want a positive duration such as 90s or 10m`),
		Entry("zero", "0s", true, time.Duration(0), `LADDER_STALL="0s": want a positive duration such as 90s or 10m`),
	)
})

// slowTicks sleeps on the first record of every tick: a run that is slow
// but never stuck.
type slowTicks struct {
	per  time.Duration
	mu   sync.Mutex
	last int64
	sum  time.Duration
}

func (s *slowTicks) Emit(r trace.Record) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Tick != s.last {
		s.last = r.Tick
		time.Sleep(s.per)
		s.sum += s.per
	}
}

func (s *slowTicks) total() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sum
}

// panicSink breaks when it is handed the world.
type panicSink struct{}

func (panicSink) Emit(trace.Record) {}

func (panicSink) Start(*sim.World) { panic("a sink that breaks") }
