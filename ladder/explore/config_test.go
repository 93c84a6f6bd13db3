package explore

import (
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/sim"
	"github.com/chronicle/ladder/sim/trace"
)

// readThatWrites stands in for an engine whose reads change the world:
// seeing a belief formed, it marks it passed on, as an accessor that
// wrote would.
type readThatWrites struct{ w *sim.World }

func (r *readThatWrites) Start(w *sim.World) { r.w = w }

func (r *readThatWrites) Emit(rec trace.Record) {
	if b, ok := rec.Body.(*trace.BeliefChange); ok && b.Change == trace.BeliefFormed {
		r.w.Store().Repeat(b.Holder, b.Claim)
	}
}

var _ = Describe("the relations that cost runs of their own", func() {
	// World 13 of seed 1: two NPCs, 56 ticks, eight beliefs, a grudge
	// that settles near tick 2,900.
	load := func() *Case {
		w := World{Seed: 1, Index: 13}
		cs, err := Load(w, Generate(w, DefaultSizes))
		Expect(err).NotTo(HaveOccurred())
		return cs
	}
	check := func(prop string, hook trace.Sink) Outcome {
		c := &Checker{Scratch: GinkgoT().TempDir(), Only: prop, Sampled: true, hook: hook}
		return c.Check(load())
	}

	It("samples half the worlds for quiescence and a quarter for each configuration relation, the same worlds however they are sharded, and every world when not sampling or shrinking", func() {
		per := map[string][]int64{}
		for i := range int64(8) {
			n := 0
			for _, p := range []string{PropQuiescence, PropSerial, PropUnobserved, PropConstrained} {
				if inShare(p, World{Seed: 9, Index: i}) {
					per[p] = append(per[p], i)
					n++
				}
			}
			Expect(n).To(BeNumerically("<=", 2), "world %d", i)
		}
		Expect(per).To(Equal(map[string][]int64{PropQuiescence: {0, 2, 4, 6}, PropSerial: {1, 5}, PropConstrained: {2, 6}, PropUnobserved: {3, 7}}))
		Expect((&Checker{Sampled: true}).sampled(PropUnobserved, World{Index: 13})).To(BeFalse())
		Expect((&Checker{Sampled: true, Only: PropUnobserved}).sampled(PropUnobserved, World{Index: 13})).To(BeTrue())
		Expect((&Checker{}).sampled(PropUnobserved, World{Index: 13})).To(BeTrue())
	})

	It("config-serial: the run with the pipe and the writes behind off is the run's bytes", func() {
		out := check(PropSerial, nil)
		Expect(out.Findings).To(BeEmpty())
		Expect(out.Runs).To(Equal(2))
	})

	It("config-serial: a trace that lost its last byte, or checkpoints that differ, fail it", func() {
		dir := GinkgoT().TempDir()
		mk := func(name, tr, cp string) *run {
			r := &run{dir: filepath.Join(dir, name)}
			Expect(os.MkdirAll(r.dir, 0o755)).To(Succeed())
			for file, data := range map[string]string{artifact.TraceFile: tr, artifact.DenseFile: "tick\n0\n", artifact.CheckpointsFile: cp} {
				Expect(os.WriteFile(filepath.Join(r.dir, file), []byte(data), 0o644)).To(Succeed())
			}
			return r
		}
		base := mk("base", "{\"tick\":0}\n", "{}\n")
		Expect(sameArtifacts(PropSerial, "a", "b", base, mk("same", "{\"tick\":0}\n", "{}\n"))).To(BeNil())
		x := sameArtifacts(PropSerial, "a", "b", base, mk("short", "{\"tick\":0}", "{}\n"))
		Expect(x).NotTo(BeNil())
		Expect(x.Message).To(HavePrefix(artifact.TraceFile))
		x = sameArtifacts(PropSerial, "a", "b", base, mk("checkpoints", "{\"tick\":0}\n", "{\"x\":1}\n"))
		Expect(x).NotTo(BeNil())
		Expect(x.Message).To(HavePrefix(artifact.CheckpointsFile))
	})

	It("config-unobserved: the run nobody observes is the observed run's bytes, unless a read writes", func() {
		out := check(PropUnobserved, nil)
		Expect(out.Findings).To(BeEmpty())
		Expect(out.Runs).To(Equal(2))

		out = check(PropUnobserved, &readThatWrites{})
		Expect(out.Findings).To(HaveLen(1))
		Expect(out.Findings[0].Property).To(Equal(PropUnobserved))
	})

	It("quiescence: runs the world on until its grudge settles, and finds nothing wrong in a correct engine", func() {
		out := check(PropQuiescence, nil)
		Expect(out.Findings).To(BeEmpty())
		Expect(out.Runs).To(Equal(2))
		Expect(out.Checked).To(BeNumerically(">", len(oracleProperties)+2), "quiescence judged")
	})

	It("quiescence: an engine that breaks past the world's end fails it", func() {
		out := check(PropQuiescence, breaksAfter(56))
		Expect(out.Findings).To(HaveLen(1))
		Expect(out.Findings[0].Property).To(Equal(PropQuiescence))
		Expect(out.Findings[0].Message).To(ContainSubstring("did not reach"))
	})

	It("config-gomaxprocs-1-gogc-10: the worlds of its share go to the constrained process in batches, and a digest it gives otherwise fails it", func() {
		explore := func(constrained func([]string) (map[string]string, error)) Summary {
			opt := Options{Seed: 1, Worlds: 8, Workers: 2, ShrinkTries: 1, ShrinkBudget: time.Minute, Sizes: DefaultSizes,
				Out: GinkgoT().TempDir(), Scratch: GinkgoT().TempDir(), Progress: GinkgoWriter, Now: time.Now, Command: "explore",
				Constrained: constrained}
			sum, err := Explore(opt)
			Expect(err).NotTo(HaveOccurred())
			return sum
		}
		var asked []string
		same := func(paths []string) (map[string]string, error) {
			asked = append(asked, paths...)
			out := map[string]string{}
			for _, p := range paths {
				h, err := HashRun(p, GinkgoT().TempDir())
				if err != nil {
					return nil, err
				}
				out[p] = h
			}
			return out, nil
		}
		sum := explore(same)
		Expect(sum.Failures).To(BeEmpty())
		Expect(asked).To(HaveLen(2), "worlds 2 and 6")

		other := func(paths []string) (map[string]string, error) {
			out, err := same(paths)
			for p := range out {
				out[p] += "!"
			}
			return out, err
		}
		sum = explore(other)
		Expect(sum.Failing()).To(Equal([]string{PropConstrained}))
		Expect(sum.Failures[0].World.Index).To(Equal(int64(2)))
	})
})

// breaksAfter stands in for an engine that panics past tick t.
type breaksAfter int64

func (b breaksAfter) Emit(r trace.Record) {
	if r.Tick > int64(b) {
		panic("planted: past the end")
	}
}
