package events_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/events"
)

// expectBreak asserts that Verify reports a *ChainError at seq with reason.
func expectBreak(records []events.Record, seq int64, reason string) {
	err := events.Verify(records)
	var ce *events.ChainError
	Expect(errors.As(err, &ce)).To(BeTrue(), "Verify returned %v", err)
	Expect(*ce).To(Equal(events.ChainError{Seq: seq, Index: int(seq), Reason: reason}))
}

// tamperCase changes one field of a record; first is the reason expected
// when the record is the first, later the reason for any other record.
type tamperCase struct {
	edit  func(r *events.Record)
	first string
	later string
}

var _ = Describe("Verify", func() {
	var recs []events.Record
	BeforeEach(func() {
		recs = buildLog(riften, sampleEvents()).Records()
	})

	It("accepts an intact chain and an empty one", func() {
		Expect(events.Verify(recs)).To(Succeed())
		Expect(events.Verify(nil)).To(Succeed())
	})

	DescribeTable("reports a single tampered field at that record's seq",
		func(tc tamperCase) {
			for k := range recs {
				tampered := buildLog(riften, sampleEvents()).Records()
				tc.edit(&tampered[k])
				want := tc.later
				if k == 0 {
					want = tc.first
				}
				expectBreak(tampered, int64(k), want)
			}
		},
		Entry("an attribute value", tamperCase{func(r *events.Record) { r.Event.Attrs["victim"] += "!" }, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("an added attribute", tamperCase{func(r *events.Record) { r.Event.Attrs["note"] = "" }, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("an attribute key", tamperCase{func(r *events.Record) {
			for _, k := range []string{"actor", "victim", "hold"} {
				if v, ok := r.Event.Attrs[k]; ok {
					delete(r.Event.Attrs, k)
					r.Event.Attrs[k+"_"] = v
					return
				}
			}
		}, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("a witness", tamperCase{func(r *events.Record) { r.Event.Witnesses = append(r.Event.Witnesses, "extra") }, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("the witness order", tamperCase{func(r *events.Record) {
			r.Event.Witnesses = append([]string{"x"}, r.Event.Witnesses...)
		}, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("the id", tamperCase{func(r *events.Record) { r.Event.ID += "'" }, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("the kind", tamperCase{func(r *events.Record) { r.Event.Kind = "gift" }, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("the tick, moved later", tamperCase{func(r *events.Record) { r.Event.Tick++ }, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("the tick, moved before the previous", tamperCase{func(r *events.Record) { r.Event.Tick -= 4 }, events.ReasonHashMismatch, events.ReasonTickBackwards}),
		Entry("prev", tamperCase{func(r *events.Record) { r.Prev = r.Prev[:63] + "f" }, events.ReasonPrevUnlinked, events.ReasonPrevUnlinked}),
		Entry("hash", tamperCase{func(r *events.Record) { r.Hash = zeros }, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("hash in upper case", tamperCase{func(r *events.Record) { r.Hash = "F" + r.Hash[1:] }, events.ReasonHashMismatch, events.ReasonHashMismatch}),
		Entry("seq", tamperCase{func(r *events.Record) { r.Seq += 10 }, events.ReasonSequenceGap, events.ReasonSequenceGap}),
		Entry("branch save uuid", tamperCase{func(r *events.Record) { r.Branch.SaveUUID = "other" }, events.ReasonHashMismatch, events.ReasonBranchChanged}),
		Entry("branch generation", tamperCase{func(r *events.Record) { r.Branch.Generation++ }, events.ReasonHashMismatch, events.ReasonBranchChanged}),
	)

	It("reports a deleted record at its seq", func() {
		for k := range 4 {
			cut := buildLog(riften, sampleEvents()).Records()
			cut = append(cut[:k], cut[k+1:]...)
			expectBreak(cut, int64(k), events.ReasonSequenceGap)
		}
	})

	It("reports a deleted record even when the later ones are renumbered", func() {
		cut := append(recs[:2:2], recs[3:]...)
		for i := range cut {
			cut[i].Seq = int64(i)
		}
		expectBreak(cut, 2, events.ReasonPrevUnlinked)
	})

	It("reports two swapped records", func() {
		recs[1], recs[2] = recs[2], recs[1]
		expectBreak(recs, 1, events.ReasonSequenceGap)
	})

	It("cannot see a cut tail, which the kept head reveals", func() {
		l := buildLog(riften, sampleEvents())
		cut := l.Records()[:3]
		Expect(events.Verify(cut)).To(Succeed())
		Expect(cut[len(cut)-1].Hash).NotTo(Equal(l.Head()))
	})

	Describe("on a chain whose hashes were recomputed after the edit", func() {
		DescribeTable("still reports the broken rule",
			func(edit func([]events.Record), seq int64, reason string) {
				edit(recs)
				events.Rehash(recs)
				expectBreak(recs, seq, reason)
			},
			Entry("a tick going backwards", func(rs []events.Record) { rs[3].Event.Tick = 1 }, int64(3), events.ReasonTickBackwards),
			Entry("a branch switch", func(rs []events.Record) { rs[2].Branch.Generation = 7 }, int64(2), events.ReasonBranchChanged),
			Entry("a repeated id", func(rs []events.Record) { rs[4].Event.ID = rs[1].Event.ID }, int64(4), events.ReasonDuplicateID),
			Entry("an empty id", func(rs []events.Record) { rs[1].Event.ID = "" }, int64(1), events.ReasonMissingIDKind),
			Entry("an empty kind", func(rs []events.Record) { rs[0].Event.Kind = "" }, int64(0), events.ReasonMissingIDKind),
		)

		It("accepts it when no rule is broken: the chain proves integrity, not authorship", func() {
			recs[2].Event.Attrs["victim"] = "someone else"
			events.Rehash(recs)
			Expect(events.Verify(recs)).To(Succeed())
		})
	})

	It("formats ChainError without capitals or final punctuation", func() {
		recs[3].Hash = zeros
		err := events.Verify(recs)
		Expect(err).To(MatchError("events: chain broken at seq 3 (index 3): hash mismatch"))
	})
})
