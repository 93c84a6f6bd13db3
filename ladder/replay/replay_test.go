package replay_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/replay"
	"github.com/chronicle/ladder/sim/events"
)

func TestReplay(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Replay Suite")
}

// root is the repository root: the specs run in ladder/replay.
var root = filepath.Join("..", "..")

// all returns every rung and case of the ladder.
func all() []*fixture.Fixture {
	GinkgoHelper()
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	Expect(err).NotTo(HaveOccurred())
	var out []*fixture.Fixture
	for _, f := range files {
		Expect(f.Err).NotTo(HaveOccurred())
		for _, x := range f.Fixtures {
			// A sweep rung exports no event log (decision 0032).
			if x.Sweep == nil {
				out = append(out, x)
			}
		}
	}
	Expect(out).NotTo(BeEmpty())
	return out
}

// named returns the rung or case called name.
func named(name string) *fixture.Fixture {
	GinkgoHelper()
	for _, f := range all() {
		if f.Name() == name {
			return f
		}
	}
	Fail("no fixture " + name)
	return nil
}

// exported is a run and the canonical log it exported (EventsFile).
type exported struct {
	*ladder.Result
	Events []byte
}

// runOf runs f as the ladder does and returns what it exported.
func runOf(f *fixture.Fixture) exported {
	GinkgoHelper()
	res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
	Expect(err).NotTo(HaveOccurred())
	data, err := os.ReadFile(res.Path(artifact.EventsFile))
	Expect(err).NotTo(HaveOccurred())
	return exported{res, data}
}

// mismatch returns err as a *replay.Mismatch, failing when it is not one.
func mismatch(err error) *replay.Mismatch {
	GinkgoHelper()
	var m *replay.Mismatch
	Expect(errors.As(err, &m)).To(BeTrue(), "want a *replay.Mismatch, have %v", err)
	return m
}

// rechain rebuilds a chain over records whose contents were changed, as a
// forger who recomputes every hash would.
func rechain(recs []events.Record) []events.Record {
	GinkgoHelper()
	l := events.NewLog(recs[0].Branch)
	for _, r := range recs {
		_, err := l.Append(r.Event)
		Expect(err).NotTo(HaveOccurred())
	}
	return l.Records()
}

// lines writes records as an exported log.
func lines(recs []events.Record) []byte {
	GinkgoHelper()
	var out []byte
	for _, r := range recs {
		var err error
		out, err = events.AppendJSON(out, r)
		Expect(err).NotTo(HaveOccurred())
		out = append(out, '\n')
	}
	return out
}

var _ = Describe("Verify", func() {
	It("replays every rung and case of the ladder to the log, the digests and the head its run recorded", func() {
		runs, records, digests := 0, 0, 0
		for _, f := range all() {
			res := runOf(f)
			log, err := replay.ReadLog(res.Events)
			Expect(err).NotTo(HaveOccurred(), f.Name())
			rep, err := replay.Verify(f, log, res.Checkpoints)
			Expect(err).NotTo(HaveOccurred(), f.Name())
			Expect(rep.Records).To(Equal(len(log)))
			Expect(rep.Records).To(BeNumerically(">", 0), "%s logged nothing: the replay would check nothing", f.Name())
			Expect(rep.Ticks).To(Equal(f.Ticks))
			Expect(rep.Digests).To(Equal(len(res.Checkpoints.Samples) + 1))
			runs, records, digests = runs+1, records+rep.Records, digests+rep.Digests
		}
		AddReportEntry("verified", fmt.Sprintf("%d runs, %d records, %d state digests", runs, records, digests))
	})

	It("replays every rung and case to the state digests and log head of its committed goldens", func() {
		for _, f := range all() {
			res := runOf(f)
			log, err := replay.ReadLog(res.Events)
			Expect(err).NotTo(HaveOccurred(), f.Name())
			path := filepath.Join(root, filepath.FromSlash(f.GoldenDir()), artifact.CheckpointsFile)
			raw, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			golden, err := checkpoint.Parse(path, raw)
			Expect(err).NotTo(HaveOccurred())
			_, err = replay.Verify(f, log, golden)
			Expect(err).NotTo(HaveOccurred(), f.Name())
		}
	})

	It("names the record whose line has any one byte changed", func() {
		f := named("T3.3")
		res := runOf(f)
		data := res.Events
		Expect(bytes.Count(data, []byte("\n"))).To(BeNumerically(">=", 10))
		changed := 0
		for i := range data {
			line := bytes.Count(data[:i], []byte("\n")) // 0-based line of byte i (a newline ends its own line)
			for _, mask := range []byte{0x01, 0x20, 0x40} {
				tampered := bytes.Clone(data)
				tampered[i] ^= mask
				log, err := replay.ReadLog(tampered)
				if err == nil {
					_, err = replay.Verify(f, log, res.Checkpoints)
				}
				Expect(err).To(HaveOccurred(), "byte %d ^ %#x went unnoticed", i, mask)
				m := mismatch(err)
				Expect(m.Seq).To(Equal(int64(line)), "byte %d ^ %#x (line %d): %v", i, mask, line+1, err)
				Expect(m.Line).To(Equal(line + 1))
				changed++
			}
		}
		AddReportEntry("bytes changed", changed)
	})

	It("catches a record rewritten with its chain recomputed, at the record and its tick", func() {
		f := named("T3.3")
		res := runOf(f)
		log, err := replay.ReadLog(res.Events)
		Expect(err).NotTo(HaveOccurred())
		k := len(log) / 2
		log[k].Event.Attrs["forged"] = "yes"
		forged := rechain(log)
		back, err := replay.ReadLog(lines(forged))
		Expect(err).NotTo(HaveOccurred(), "the forged chain is sound on its own")
		_, err = replay.Verify(f, back, res.Checkpoints)
		m := mismatch(err)
		Expect(m.What).To(Equal(replay.Record))
		Expect(m.Seq).To(Equal(int64(k)))
		Expect(m.Tick).To(Equal(log[k].Event.Tick))
		Expect(err.Error()).To(ContainSubstring(`event.attrs.forged: logged "yes", replayed absent`))
	})

	It("catches a log cut short, a log with a record too many, and a wrong head", func() {
		f := named("T3.3")
		res := runOf(f)
		log, err := replay.ReadLog(res.Events)
		Expect(err).NotTo(HaveOccurred())
		n := len(log)

		_, err = replay.Verify(f, log[:n-1], res.Checkpoints)
		m := mismatch(err)
		Expect(m.What).To(Equal(replay.Extra))
		Expect(m.Seq).To(Equal(int64(n - 1)))

		more := append(append([]events.Record{}, log...), events.Record{Seq: int64(n), Branch: log[0].Branch, Event: events.Event{ID: "late@99", Kind: "k", Tick: 99}})
		_, err = replay.Verify(f, rechain(more), res.Checkpoints)
		m = mismatch(err)
		Expect(m.What).To(Equal(replay.Missing))
		Expect(m.Seq).To(Equal(int64(n)))
		Expect(m.ID).To(Equal("late@99"))

		cp := res.Checkpoints
		cp.Outcome.LogHead = "0" + cp.Outcome.LogHead[1:]
		_, err = replay.Verify(f, log, cp)
		Expect(mismatch(err).What).To(Equal(replay.Head))
	})

	It("names the first sampled tick whose state digest differs, and the end", func() {
		f := named("T2.1")
		res := runOf(f)
		log, err := replay.ReadLog(res.Events)
		Expect(err).NotTo(HaveOccurred())
		cp := res.Checkpoints
		cp.Samples = append(cp.Samples[:0:0], cp.Samples...)
		cp.Samples[3].StateDigest = "00" + cp.Samples[3].StateDigest[2:]
		_, err = replay.Verify(f, log, cp)
		m := mismatch(err)
		Expect(m.What).To(Equal(replay.Digest))
		Expect(m.Tick).To(Equal(cp.Samples[3].Tick))

		cp = res.Checkpoints
		cp.Outcome.StateDigest = "00" + cp.Outcome.StateDigest[2:]
		_, err = replay.Verify(f, log, cp)
		m = mismatch(err)
		Expect(m.What).To(Equal(replay.Digest))
		Expect(m.Tick).To(Equal(f.Ticks - 1))
	})

	It("refuses checkpoints of another fixture, or without digests", func() {
		f := named("T1.1")
		res := runOf(f)
		log, err := replay.ReadLog(res.Events)
		Expect(err).NotTo(HaveOccurred())
		cp := res.Checkpoints
		cp.FixtureHash = "elsewhere"
		_, err = replay.Verify(f, log, cp)
		Expect(mismatch(err).What).To(Equal(replay.Fixture))
		cp = res.Checkpoints
		cp.Outcome.StateDigest = ""
		_, err = replay.Verify(f, log, cp)
		Expect(err).To(MatchError(ContainSubstring("record no final state digest")))
	})
})

var _ = Describe("ReadLog", func() {
	It("reads an empty log as no records", func() {
		recs, err := replay.ReadLog(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(BeEmpty())
	})

	DescribeTable("names the line and the record of a log that is not whole",
		func(edit func([]byte) []byte, what string, line int, detail string) {
			data := edit(runOf(named("T3.3")).Events)
			_, err := replay.ReadLog(data)
			m := mismatch(err)
			Expect(m.What).To(Equal(what))
			Expect(m.Line).To(Equal(line))
			Expect(m.Seq).To(Equal(int64(line - 1)))
			Expect(err.Error()).To(ContainSubstring(detail))
		},
		Entry("the last newline missing", func(b []byte) []byte { return b[:len(b)-1] }, replay.Malformed, 12, "the log is cut short"),
		Entry("a blank line", func(b []byte) []byte { return append([]byte("\n"), b...) }, replay.Malformed, 1, "events: EOF"),
		Entry("two lines swapped", func(b []byte) []byte {
			ls := bytes.SplitAfter(b, []byte("\n"))
			ls[2], ls[3] = ls[3], ls[2]
			return bytes.Join(ls, nil)
		}, replay.Chain, 3, "sequence gap"),
		Entry("a line dropped", func(b []byte) []byte {
			ls := bytes.SplitAfter(b, []byte("\n"))
			return bytes.Join(append(ls[:4:4], ls[5:]...), nil)
		}, replay.Chain, 5, "sequence gap"),
	)
})
