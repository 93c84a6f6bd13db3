package trace_test

import (
	"encoding/json"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/keyed"
	"github.com/chronicle/ladder/sim/trace"
)

var _ = Describe("ClaimOf", func() {
	DescribeTable("is the variant with its last #v<n> cut off, or the id itself",
		func(variant, claim string) { Expect(trace.ClaimOf(variant)).To(Equal(claim)) },
		Entry("a variant of its claim", "theft@10#v1", "theft@10"),
		Entry("a claim, which is no variant", "theft@10", "theft@10"),
		Entry("a claim whose id holds a '#' of its own", "rumour#2@4#v0", "rumour#2@4"),
		Entry("a variant of a variant: the last suffix only", "theft@2#v0#v3", "theft@2#v0"),
		Entry("a bare suffix", "#v7", ""),
		Entry("nothing", "", ""),
	)
})

var _ = Describe("CutEncounterID", func() {
	DescribeTable("reads the purpose, site and pair an encounter id spells",
		func(id string, want trace.EncounterID) {
			got, ok := trace.CutEncounterID(id)
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(want))
		},
		Entry("the engine's encounter", encID, trace.EncounterID{Purpose: "encounter", Site: "market", Pair: [2]string{"neighbor", "witness"}}),
		Entry("a site holding a '/'", "encounter@3/old/town/[a,b]", trace.EncounterID{Purpose: "encounter", Site: "old/town", Pair: [2]string{"a", "b"}}),
		Entry("an empty site", "p@3//[a,b]", trace.EncounterID{Purpose: "p", Site: "", Pair: [2]string{"a", "b"}}),
		Entry("three participants: the pair is cut at the first ','", "p@3/s/[a,b,c]", trace.EncounterID{Purpose: "p", Site: "s", Pair: [2]string{"a", "b,c"}}),
		Entry("a purpose holding '@': cut at the first", "a@b@3/s/[x,y]", trace.EncounterID{Purpose: "a", Site: "s", Pair: [2]string{"x", "y"}}),
		Entry("a site holding \"/[\": cut at the first", "p@3/s/[t/[x,y]", trace.EncounterID{Purpose: "p", Site: "s", Pair: [2]string{"t/[x", "y"}}),
	)

	DescribeTable("refuses an id not of that form",
		func(id string) {
			_, ok := trace.CutEncounterID(id)
			Expect(ok).To(BeFalse(), "%q", id)
		},
		Entry("no '@'", "encounter12/market/[a,b]"),
		Entry("no '/' after the tick", "encounter@12"),
		Entry(`no "/[" after the site`, "encounter@12/market[a,b]"),
		Entry("no closing ']'", "encounter@12/market/[a,b"),
		Entry("a closing ']' not at the end", "encounter@12/market/[a,b]#2"),
		Entry("no ',' in the brackets: no pair", "p@12//[]"),
		Entry("one participant", "mutation@12/market/[witness]"),
		Entry("not an id", "injected"),
		Entry("nothing", ""),
	)
})

var _ = Describe("Implied and Sources", func() {
	DescribeTable("name the fields Restore puts a left-out field back from",
		func(kind trace.Kind, key string, sources []string) {
			Expect(trace.Sources(kind, key)).To(Equal(sources))
			Expect(trace.Implied(kind, key)).To(Equal(sources != nil))
		},
		Entry("every kind's branch, from its index", trace.KindKeyframe, "branch", []string{"branch"}),
		Entry("an encounter's branch", trace.KindEncounter, "branch", []string{"branch"}),
		Entry("an encounter's pair, from its id", trace.KindEncounter, "pair", []string{"id", "roll"}),
		Entry("an encounter's site, from its id", trace.KindEncounter, "site", []string{"id", "roll"}),
		Entry("an encounter's roll members, from its id and value", trace.KindEncounter, "roll", []string{"id", "roll"}),
		Entry("a transmission's claim, from its variant", trace.KindTransmission, "claim", []string{"variant"}),
		Entry("a belief change's claim, from its variant", trace.KindBelief, "claim", []string{"variant"}),
		Entry("a supersession's claim, from its winner", trace.KindSupersession, "claim", []string{"winner"}),
		Entry("an encounter's id, always spelt", trace.KindEncounter, "id", nil),
		Entry("an encounter's fired, always spelt", trace.KindEncounter, "fired", nil),
		Entry("a transmission's variant, always spelt", trace.KindTransmission, "variant", nil),
		Entry("a rule's roll, spelt whole", trace.KindRule, "roll", nil),
		Entry("a rule's site: no such field", trace.KindRule, "site", nil),
		Entry("a keyframe's beliefs' claims, spelt", trace.KindKeyframe, "claim", nil),
		Entry("an obligation's id", trace.KindObligation, "id", nil),
	)

	It("name every top-level field a version-3 line leaves out or spells otherwise than version 2, for records of every kind", func() {
		g := recordGen{next: rand.New(rand.NewPCG(21, 22)).Uint64, text: convertText}
		cut := map[trace.Kind]int{}
		for i := range 5000 {
			r := trace.Record{Seq: int64(i), Tick: 12, Body: g.body(trace.Kinds()[i%len(trace.Kinds())])}
			v2, err := oracleLineV2(r, header.Branch)
			if err != nil {
				continue
			}
			v3, err := oracleLine(r, header.Branch)
			Expect(err).NotTo(HaveOccurred())
			old, now := decoded(string(v2)), decoded(string(v3))
			for key, v := range old {
				if w, ok := now[key]; ok && equalJSON(v, w) {
					continue
				}
				Expect(trace.Implied(r.Body.Kind(), key)).To(BeTrue(), "%s: version 3 leaves out or respells %q, which Implied does not name", r.Body.Kind(), key)
				for _, s := range trace.Sources(r.Body.Kind(), key) {
					Expect(now).To(HaveKey(s), "%s: %q is put back from %q, which the line does not spell", r.Body.Kind(), key, s)
				}
				if key != "branch" {
					cut[r.Body.Kind()]++
				}
			}
			var added []string
			for key := range now {
				if _, ok := old[key]; !ok {
					added = append(added, key)
				}
			}
			Expect(added).To(BeEmpty(), "version 3 adds no field")
		}
		Expect(cut).To(HaveKey(trace.KindEncounter))
		Expect(cut).To(HaveKey(trace.KindTransmission))
		Expect(cut).To(HaveKey(trace.KindBelief))
		Expect(cut).To(HaveKey(trace.KindSupersession))
	})
})

// convertText is what generated records draw their strings from: ids of
// the engine's forms (an encounter id, a claim and its variant) and some
// that move an id's cuts ('@', "/[", ','), need escaping, or cannot be
// spelt.
var convertText = []string{"", "market", "a", "b", "theft@2", "theft@2#v0", "theft@2#v1", "encounter@12/market/[a,b]", "x@y/z", "t/[u", "p,q", "a\"quote", "x\xffy"}

// equalJSON compares two decoded JSON values.
func equalJSON(a, b any) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(x) == string(y)
}

var _ = Describe("Facts", func() {
	// factsOf reads a header line.
	factsOf := func(line string) trace.Facts {
		GinkgoHelper()
		f, err := trace.FactsOf(decoded(line))
		Expect(err).NotTo(HaveOccurred())
		return f
	}
	restore := func(f trace.Facts, line string) map[string]any {
		GinkgoHelper()
		rec := decoded(line)
		Expect(f.Restore(rec)).To(Succeed())
		return rec
	}

	It("puts back exactly what a version-3 line of each kind leaves out: the record version 2 spelt", func() {
		f := factsOf(headerLine)
		Expect(f.Version()).To(Equal(trace.Version3))
		examined := map[trace.Kind]int{}
		for _, r := range everyKind() {
			v2, err := oracleLineV2(r, header.Branch)
			Expect(err).NotTo(HaveOccurred())
			v3, err := freshEncoder().AppendRecord(nil, r)
			Expect(err).NotTo(HaveOccurred())
			Expect(restore(f, string(v3))).To(Equal(decoded(string(v2))), "%s", r.Body.Kind())
			examined[r.Body.Kind()]++
		}
		Expect(examined).To(HaveLen(len(trace.Kinds())))

		By("and for generated records, whose ids move the cuts")
		g := recordGen{next: rand.New(rand.NewPCG(23, 24)).Uint64, text: convertText}
		enc := freshEncoder()
		restored := 0
		for i := range 5000 {
			r := trace.Record{Seq: int64(i), Tick: 12, Body: g.body(trace.Kinds()[i%len(trace.Kinds())])}
			v2, err := oracleLineV2(r, header.Branch)
			if err != nil {
				continue
			}
			v3, err := enc.AppendRecord(nil, r)
			Expect(err).NotTo(HaveOccurred())
			Expect(restore(f, string(v3))).To(Equal(decoded(string(v2))), "record %d: %s", i, v3)
			restored++
		}
		Expect(restored).To(BeNumerically(">", 1000))
	})

	It("puts back an encounter's site, pair, roll key, purpose, natural value and pinned flag from its id and value", func() {
		rec := restore(factsOf(headerLine), `{"branch":0,"fired":false,"id":"encounter@12/market/[neighbor,witness]","kind":"encounter","roll":{"threshold":0.5,"value":0.25},"seq":7,"tick":12}`)
		Expect(rec).To(Equal(decoded(`{` + branchJSON + `,"fired":false,"id":"` + encID + `","kind":"encounter","pair":["neighbor","witness"],` +
			`"roll":{"key":"` + encID + `","natural":0.25,"pinned":false,"purpose":"encounter","threshold":0.5,"value":0.25},"seq":7,"site":"market","tick":12}`)))
	})

	It("keeps every field the line spells, where it differs from what the id or variant would give back", func() {
		f := factsOf(headerLine)
		By("an encounter whose pair and site are not its id's, and whose roll is pinned")
		enc := trace.Encounter{Site: "tavern", Pair: [2]string{"witness", "neighbor"}, Roll: encounterRoll()}
		line, err := freshEncoder().AppendRecord(nil, trace.Record{Seq: 7, Tick: 12, Body: enc})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(line)).To(ContainSubstring(`"pair":["witness","neighbor"]`))
		Expect(string(line)).To(ContainSubstring(`"site":"tavern"`))
		rec := restore(f, string(line))
		Expect(rec).To(HaveKeyWithValue("pair", []any{"witness", "neighbor"}))
		Expect(rec).To(HaveKeyWithValue("site", "tavern"))
		Expect(rec["roll"]).To(HaveKeyWithValue("natural", 0.7310585786300049))
		Expect(rec["roll"]).To(HaveKeyWithValue("pinned", true))

		By("an unpinned roll whose value is not its natural one, and a purpose the id does not give back")
		k := keyed.Key{Purpose: "a@b", Tick: 12, Site: "market", Participants: []string{"x", "y"}}
		enc = trace.Encounter{Site: "market", Pair: [2]string{"x", "y"}, Roll: trace.Roll{Roll: keyed.Roll{Key: k, Value: 0.5, Natural: 0.25}, Threshold: 1}}
		line, err = freshEncoder().AppendRecord(nil, trace.Record{Seq: 7, Tick: 12, Body: enc})
		Expect(err).NotTo(HaveOccurred())
		rec = restore(f, string(line))
		Expect(rec["roll"]).To(Equal(map[string]any{"key": "a@b@12/market/[x,y]", "natural": 0.25, "pinned": false, "purpose": "a@b", "threshold": 1.0, "value": 0.5}))
		Expect(rec).To(HaveKeyWithValue("site", "market"))

		By("a roll pinned at its natural value")
		enc = trace.Encounter{Site: "market", Pair: [2]string{"neighbor", "witness"}, Roll: encounterRoll()}
		enc.Roll.Roll.Value = enc.Roll.Roll.Natural
		line, err = freshEncoder().AppendRecord(nil, trace.Record{Seq: 7, Tick: 12, Body: enc})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(line)).To(ContainSubstring(`"roll":{"natural":0.7310585786300049,"pinned":true,"threshold":0.5,"value":0.7310585786300049}`))
		Expect(restore(f, string(line))["roll"]).To(HaveKeyWithValue("pinned", true))

		By("a transmission and a supersession whose claim is not their variant's")
		rec = restore(f, `{"branch":0,"claim":"other@1","kind":"transmission","variant":"theft@2#v0"}`)
		Expect(rec).To(HaveKeyWithValue("claim", "other@1"))
		rec = restore(f, `{"branch":0,"claim":"other@1","kind":"supersession","winner":"theft@2#v0"}`)
		Expect(rec).To(HaveKeyWithValue("claim", "other@1"))

		By("a branch spelt as an object is not an index, and is kept")
		rec = restore(f, `{`+branchJSON+`,"kind":"event"}`)
		Expect(rec).To(HaveKeyWithValue("branch", map[string]any{"generation": 3.0, "save_uuid": "save-1"}))
	})

	It("puts back a claim from the variant, and a supersession's from its winner", func() {
		f := factsOf(headerLine)
		Expect(restore(f, `{"branch":0,"kind":"transmission","variant":"theft@2#v1"}`)).To(HaveKeyWithValue("claim", "theft@2"))
		Expect(restore(f, `{"branch":0,"kind":"belief","variant":"rumour#2@4#v0"}`)).To(HaveKeyWithValue("claim", "rumour#2@4"))
		sup := restore(f, `{"branch":0,"kind":"supersession","loser":"theft@2#v9","winner":"theft@3#v0"}`)
		Expect(sup).To(HaveKeyWithValue("claim", "theft@3"), "the winner's claim, not the loser's")
	})

	It("names a record's branch by its index into the header's branches", func() {
		f := factsOf(`{"branches":[{"generation":0,"save_uuid":"a"},{"generation":4,"save_uuid":"b"}],"kind":"header","layers":["core"],"schema":"chronicle.trace","version":3}`)
		first, second := restore(f, `{"branch":0,"kind":"event"}`), restore(f, `{"branch":1,"kind":"event"}`)
		Expect(first).To(HaveKeyWithValue("branch", map[string]any{"generation": 0.0, "save_uuid": "a"}))
		Expect(second).To(HaveKeyWithValue("branch", map[string]any{"generation": 4.0, "save_uuid": "b"}))
		first["branch"].(map[string]any)["save_uuid"] = "scribbled"
		Expect(restore(f, `{"branch":0,"kind":"event"}`)).To(HaveKeyWithValue("branch", HaveKeyWithValue("save_uuid", "a")), "each record gets its own copy")
	})

	DescribeTable("refuses a branch index the header does not list",
		func(branch, msg string) {
			rec := decoded(`{"branch":` + branch + `,"kind":"event"}`)
			Expect(factsOf(headerLine).Restore(rec)).To(MatchError(msg))
		},
		Entry("past the end", "1", "branch 1: the header lists 1 branches"),
		Entry("negative", "-1", "branch -1: the header lists 1 branches"),
		Entry("not a whole number", "0.5", "branch 0.5: the header lists 1 branches"),
	)

	It("is the identity for files of versions 1 and 2, which spell every fact", func() {
		for _, h := range []string{headerLineV2, `{"branch":{"generation":0,"save_uuid":"u"},"kind":"header","schema":"chronicle.trace","version":2}`} {
			f := factsOf(h)
			Expect(f.Version()).To(BeElementOf(trace.Version1, trace.Version2))
			for _, line := range []string{
				kindCases[0].v2,
				`{"branch":0,"fired":false,"id":"` + encID + `","kind":"encounter","roll":{"threshold":0.5,"value":0.25},"seq":7,"tick":12}`,
				`{"branch":0,"kind":"transmission","variant":"theft@2#v1"}`,
				`{"branch":7,"kind":"event"}`,
			} {
				rec := decoded(line)
				Expect(f.Restore(rec)).To(Succeed())
				Expect(rec).To(Equal(decoded(line)), "version %d: %s", f.Version(), line)
			}
		}
	})

	DescribeTable("refuses a header that names no version it reads, or a version 3 without branches",
		func(line, msg string) {
			_, err := trace.FactsOf(decoded(line))
			Expect(err).To(MatchError(msg))
		},
		Entry("no version", `{"kind":"header"}`, "trace header: version <nil>, want 1 to 3"),
		Entry("a later version", `{"kind":"header","version":4}`, "trace header: version 4, want 1 to 3"),
		Entry("version 0", `{"kind":"header","version":0}`, "trace header: version 0, want 1 to 3"),
		Entry("a fractional version", `{"kind":"header","version":2.5}`, "trace header: version 2.5, want 1 to 3"),
		Entry("version 3 without branches", `{"kind":"header","version":3}`, "trace header: version 3 without branches"),
		Entry("version 3 with no branch", `{"branches":[],"kind":"header","version":3}`, "trace header: version 3 without branches"),
		Entry("a branch that is not an object", `{"branches":[0],"kind":"header","version":3}`, "trace header: branches[0] is not an object"),
	)
})
