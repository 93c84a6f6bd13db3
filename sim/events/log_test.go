package events_test

import (
	"regexp"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/events"
)

// zeros is the Prev of a first record and the Head of an empty log.
const zeros = "0000000000000000000000000000000000000000000000000000000000000000"

// hexHash matches a well-formed Prev or Hash.
var hexHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

// riften is the branch most specs use.
var riften = events.Branch{SaveUUID: "0b8e2f4c-5d1a-4c3e-9f7a-2e6d8c1b3a90", Generation: 2}

// sampleEvents returns five events with strictly rising ticks, so a tick can
// move up by one without overtaking the next.
func sampleEvents() []events.Event {
	return []events.Event{
		{ID: "theft@2", Kind: "theft", Tick: 2, Attrs: map[string]string{"actor": "brynjolf", "item": "amulet", "victim": "madesi"}, Witnesses: []string{"keerava", "guard_03"}},
		{ID: "favour@5", Kind: "favour", Tick: 5, Attrs: map[string]string{"actor": "lydia", "beneficiary": "player"}},
		{ID: "kill@8", Kind: "kill", Tick: 8, Attrs: map[string]string{"actor": "nazir", "victim": "grelod"}, Witnesses: []string{"aventus"}},
		{ID: "death@8", Kind: "death", Tick: 11, Attrs: map[string]string{"victim": "grelod", "cause": "kill@8"}, Witnesses: []string{"constance", "hroki"}},
		{ID: "thane@14", Kind: "thane", Tick: 14, Attrs: map[string]string{"hold": "whiterun", "who": "player"}, Witnesses: []string{"balgruuf"}},
	}
}

// buildLog appends evs to a new log on b and fails the spec on any error.
func buildLog(b events.Branch, evs []events.Event) *events.Log {
	l := events.NewLog(b)
	for _, e := range evs {
		_, err := l.Append(e)
		Expect(err).NotTo(HaveOccurred())
	}
	return l
}

var _ = Describe("Log", func() {
	It("starts empty with a zero head", func() {
		l := events.NewLog(riften)
		Expect(l.Len()).To(Equal(0))
		Expect(l.Head()).To(Equal(zeros))
		Expect(l.Records()).To(BeEmpty())
		_, ok := l.Lookup("theft@2")
		Expect(ok).To(BeFalse())
	})

	It("numbers records from 0 and chains each to the one before", func() {
		l := buildLog(riften, sampleEvents())
		recs := l.Records()
		Expect(recs).To(HaveLen(5))
		Expect(l.Len()).To(Equal(5))
		prev := zeros
		for i, r := range recs {
			Expect(r.Seq).To(Equal(int64(i)))
			Expect(r.Branch).To(Equal(riften))
			Expect(r.Prev).To(Equal(prev))
			Expect(r.Hash).To(MatchRegexp(hexHash.String()))
			Expect(cmp.Diff(sampleEvents()[i], r.Event)).To(BeEmpty())
			prev = r.Hash
		}
		Expect(l.Head()).To(Equal(prev))
	})

	It("returns the stored record from Append and Lookup", func() {
		l := events.NewLog(riften)
		var appended []events.Record
		for _, e := range sampleEvents() {
			r, err := l.Append(e)
			Expect(err).NotTo(HaveOccurred())
			appended = append(appended, r)
		}
		Expect(cmp.Diff(appended, l.Records())).To(BeEmpty())
		for _, want := range appended {
			got, ok := l.Lookup(want.Event.ID)
			Expect(ok).To(BeTrue())
			Expect(cmp.Diff(want, got)).To(BeEmpty())
		}
	})

	It("accepts events that share a tick, in append order", func() {
		l := events.NewLog(riften)
		for _, id := range []string{"kill@5", "death@5", "bounty@5"} {
			_, err := l.Append(events.Event{ID: id, Kind: "k", Tick: 5})
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(l.Records()[2].Event.ID).To(Equal("bounty@5"))
	})

	It("hashes nil and empty attributes and witnesses alike", func() {
		a := buildLog(riften, []events.Event{{ID: "x", Kind: "k"}})
		b := buildLog(riften, []events.Event{{ID: "x", Kind: "k", Attrs: map[string]string{}, Witnesses: []string{}}})
		Expect(a.Head()).To(Equal(b.Head()))
	})

	It("gives different branches different hashes for the same events", func() {
		a := buildLog(riften, sampleEvents())
		b := buildLog(events.Branch{SaveUUID: riften.SaveUUID, Generation: 3}, sampleEvents())
		Expect(a.Head()).NotTo(Equal(b.Head()))
	})

	Describe("copies", func() {
		It("keep the log safe from later changes to the appended event", func() {
			e := sampleEvents()[0]
			l := buildLog(riften, []events.Event{e})
			head := l.Head()
			e.Attrs["item"] = "sweetroll"
			e.Witnesses[0] = "nobody"
			Expect(l.Records()[0].Event).To(Equal(sampleEvents()[0]))
			Expect(events.Verify(l.Records())).To(Succeed())
			Expect(l.Head()).To(Equal(head))
		})

		It("keep the log safe from changes to what Append, Records and Lookup return", func() {
			l := events.NewLog(riften)
			r, err := l.Append(sampleEvents()[0])
			Expect(err).NotTo(HaveOccurred())
			r.Event.Attrs["item"] = "changed"
			r.Event.Witnesses[0] = "changed"
			recs := l.Records()
			recs[0].Event.Attrs["item"] = "changed"
			recs[0].Event.Witnesses[1] = "changed"
			recs[0].Hash = zeros
			got, _ := l.Lookup("theft@2")
			got.Event.Attrs["victim"] = "changed"
			Expect(l.Records()[0].Event).To(Equal(sampleEvents()[0]))
			Expect(events.Verify(l.Records())).To(Succeed())
		})
	})

	Describe("Append errors", func() {
		var l *events.Log
		var head string
		BeforeEach(func() {
			l = buildLog(riften, sampleEvents()[:2])
			head = l.Head()
		})
		AfterEach(func() {
			Expect(l.Len()).To(Equal(2), "a rejected event must not be stored")
			Expect(l.Head()).To(Equal(head))
		})

		DescribeTable("reject the event with a wrapped sentinel and context",
			func(e events.Event, sentinel error, message string) {
				_, err := l.Append(e)
				Expect(err).To(MatchError(sentinel))
				Expect(err.Error()).To(Equal(message))
			},
			Entry("empty id", events.Event{Kind: "theft", Tick: 9},
				events.ErrEmptyID, `events: append "" at tick 9: event id is empty`),
			Entry("empty kind", events.Event{ID: "x@9", Tick: 9},
				events.ErrEmptyKind, `events: append "x@9" at tick 9: event kind is empty`),
			Entry("duplicate id", events.Event{ID: "theft@2", Kind: "theft", Tick: 9},
				events.ErrDuplicateID, `events: append "theft@2" at tick 9: event id already in the log at seq 0`),
			Entry("tick earlier than the previous record's", events.Event{ID: "late@4", Kind: "theft", Tick: 4},
				events.ErrTickBackwards, `events: append "late@4" at tick 4: event tick is earlier than the previous record's (tick 5)`),
		)
	})
})
