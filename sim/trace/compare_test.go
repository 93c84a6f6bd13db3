package trace_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/trace"
)

// sample is a four-record trace: header, then ticks 0, 12, 12, 13.
func sample() []byte {
	b := trace.Buffer{Header: header}
	b.Emit(trace.Record{Seq: 0, Tick: 0, Body: trace.Keyframe{}})
	b.Emit(trace.Record{Seq: 1, Tick: 12, Body: kindCases[0].body}) // encounter
	b.Emit(trace.Record{Seq: 2, Tick: 12, Body: kindCases[2].body}) // fired transmission
	b.Emit(trace.Record{Seq: 3, Tick: 13, Body: kindCases[7].body}) // belief change
	out, err := b.AppendJSONL(nil)
	Expect(err).NotTo(HaveOccurred())
	return out
}

func lines(b []byte) []string { return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") }

func join(ls []string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

var _ = Describe("Compare", func() {
	It("is nil for identical files, including two empty ones", func() {
		Expect(trace.Compare(sample(), sample())).To(BeNil())
		Expect(trace.Compare(nil, []byte{})).To(BeNil())
	})

	It("locates a changed value by golden line, tick, kind and key", func() {
		golden := sample()
		ls := lines(golden)
		ls[3] = strings.Replace(ls[3], `"confidence":0.72`, `"confidence":0.75`, 1)
		d := trace.Compare(golden, join(ls))
		Expect(d).NotTo(BeNil())
		Expect(cmp.Diff(trace.Divergence{
			Line: 4, Tick: 12, Kind: "transmission",
			Key:    `"witness->neighbor theft@2 via ` + encID + `"`,
			Golden: lines(golden)[3], Actual: ls[3],
			Fields: []trace.FieldChange{{Path: "confidence", Golden: "0.72", Actual: "0.75"}},
		}, *d)).To(BeEmpty())
		Expect(d.String()).To(Equal(`first divergent record at line 4 (tick 12, transmission "witness->neighbor theft@2 via ` + encID +
			`"): confidence: golden 0.72, actual 0.75`))
	})

	It("says when the lines are different records, one added or removed, naming the other record", func() {
		golden := sample()
		ls := lines(golden)
		d := trace.Compare(golden, join(append(ls[:2:2], ls[3:]...)))
		Expect(d.Shifted).To(BeTrue())
		Expect(d.String()).To(Equal(`first divergent record at line 3 (tick 12, encounter "` + encID + `"): ` +
			`actual has transmission "witness->neighbor theft@2 via ` + encID + `" at tick 12 here instead (a record was added or removed)`))
		Expect(d.Fields).To(ContainElement(trace.FieldChange{Path: "kind", Golden: `"encounter"`, Actual: `"transmission"`}))
	})

	// An encounter's id is its roll's key, and in version 3 its pair and
	// site too: an encounter under another id is another roll. The
	// renamed record is the transmission, through the id it was told via.
	It("says when one record is the same under another id, not that one was added and another removed", func() {
		golden := sample()
		ls := lines(golden)
		ls[3] = strings.Replace(ls[3], `"via":"`+encID+`"`, `"via":"`+encID+`#2"`, 1)
		d := trace.Compare(golden, join(ls))
		Expect(d.Form()).To(Equal(trace.FormRenamed))
		Expect(d.Shifted).To(BeFalse())
		Expect(d.ActualKey).To(Equal(`"witness->neighbor theft@2 via ` + encID + `#2"`))
		Expect(d.String()).To(Equal(`first divergent record at line 4 (tick 12, transmission "witness->neighbor theft@2 via ` + encID + `"): ` +
			`the same record under another id (identity drift): via: golden "` + encID + `", actual "` + encID + `#2"`))
	})

	It("reads an encounter under another id as another record: its roll's key, pair and site are the id's", func() {
		golden := sample()
		ls := lines(golden)
		ls[2] = strings.Replace(ls[2], `"id":"`+encID+`"`, `"id":"encounter@12/market/[merchant,witness]"`, 1)
		d := trace.Compare(golden, join(ls))
		Expect(d.Form()).To(Equal(trace.FormShifted))
		Expect(d.Fields).To(ContainElements(
			trace.FieldChange{Path: "pair[0]", Golden: `"neighbor"`, Actual: `"merchant"`},
			trace.FieldChange{Path: "roll.key", Golden: `"` + encID + `"`, Actual: `"encounter@12/market/[merchant,witness]"`},
		))
	})

	It("counts a renamed record whose other fields changed too as another record", func() {
		golden := sample()
		ls := lines(golden)
		ls[3] = strings.Replace(ls[3], `"teller":"witness"`, `"teller":"merchant"`, 1)
		ls[3] = strings.Replace(ls[3], `"confidence":0.72`, `"confidence":0.75`, 1)
		d := trace.Compare(golden, join(ls))
		Expect(d.Form()).To(Equal(trace.FormShifted), "teller is part of the key but not an id: %s", d)
	})

	It("says when only the record's position differs", func() {
		golden := sample()
		ls := lines(golden)
		ls[2] = strings.Replace(ls[2], `"seq":1`, `"seq":7`, 1)
		d := trace.Compare(golden, join(ls))
		Expect(d.Fields).To(BeEmpty())
		Expect(d.Fields).NotTo(BeNil())
		Expect(d.String()).To(ContainSubstring(`): only the record's position (seq) differs: golden {`))
	})

	It("says when two lines are the same record spelt otherwise, naming the side that is not canonical, not a moved record", func() {
		golden := sample()
		ls := lines(golden)
		ls[2] = strings.Replace(ls[2], `"tick":12`, `"tick" :12`, 1)
		d := trace.Compare(golden, join(ls))
		Expect(d.Form()).To(Equal(trace.FormSpelling))
		Expect(d.Respelled).To(Equal("actual"))
		Expect(d.String()).To(HavePrefix(`first divergent record at line 3 (tick 12, encounter "` + encID + `"): same fields, not the canonical spelling: line 3 of actual: golden {`))
		Expect(d.String()).NotTo(ContainSubstring("position"))
	})

	It("names the golden as the side spelt otherwise when two of its keys are swapped", func() {
		golden := sample()
		ls := lines(golden)
		// "kind" and "roll" swapped in the golden's encounter line.
		var rec map[string]json.RawMessage
		Expect(json.Unmarshal([]byte(ls[2]), &rec)).To(Succeed())
		kind, pair := `"kind":`+string(rec["kind"]), `"roll":`+string(rec["roll"])
		Expect(ls[2]).To(ContainSubstring(kind))
		swapped := strings.Replace(strings.Replace(ls[2], kind, "\x00", 1), pair, kind, 1)
		swapped = strings.Replace(swapped, "\x00", pair, 1)
		Expect(swapped).NotTo(Equal(ls[2]))
		tampered := slices.Clone(ls)
		tampered[2] = swapped
		d := trace.Compare(join(tampered), golden)
		Expect(d.Form()).To(Equal(trace.FormSpelling))
		Expect(d.Describe("golden", "actual")).To(ContainSubstring("same fields, not the canonical spelling: line 3 of golden: "))
		Expect(d.Describe("run 1", "run 2")).To(ContainSubstring("same fields, not the canonical spelling: line 3 of run 1: "), "the sides take the names Describe is given")
	})

	It("says both sides are spelt otherwise when neither is canonical", func() {
		golden := sample()
		ls := lines(golden)
		g, a := slices.Clone(ls), slices.Clone(ls)
		g[2] = strings.Replace(g[2], `"tick":12`, `"tick": 12`, 1)
		a[2] = strings.Replace(a[2], `"tick":12`, `"tick" :12`, 1)
		d := trace.Compare(join(g), join(a))
		Expect(d.String()).To(ContainSubstring("same fields, not the canonical spelling: line 3 of golden and actual: "))
	})

	It("tells a number spelt otherwise (0.720 for 0.72) from a changed value", func() {
		golden := sample()
		ls := lines(golden)
		Expect(ls[3]).To(ContainSubstring(`"confidence":0.72`))
		ls[3] = strings.Replace(ls[3], `"confidence":0.72`, `"confidence":0.720`, 1)
		d := trace.Compare(golden, join(ls))
		Expect(d.Form()).To(Equal(trace.FormFields), "json.Number keeps the digits: 0.720 is a field change, shown with both spellings")
		Expect(d.String()).To(HaveSuffix("confidence: golden 0.72, actual 0.720"))
	})

	// Every sentence Describe can write, each against a planted case of its
	// kind: a new form without a case here fails the last entry.
	formCases := map[string]func() (golden, actual []byte){
		trace.FormFields: func() ([]byte, []byte) {
			g := sample()
			return g, []byte(strings.Replace(string(g), `"confidence":0.72`, `"confidence":0.75`, 1))
		},
		trace.FormShifted: func() ([]byte, []byte) {
			g := sample()
			ls := lines(g)
			return g, join(append(ls[:2:2], ls[3:]...))
		},
		trace.FormRenamed: func() ([]byte, []byte) {
			g := sample()
			return g, []byte(strings.Replace(string(g), `"via":"`+encID+`"`, `"via":"`+encID+`#2"`, 1))
		},
		trace.FormPosition: func() ([]byte, []byte) {
			g := sample()
			return g, []byte(strings.Replace(string(g), `"seq":1`, `"seq":7`, 1))
		},
		trace.FormBranch: func() ([]byte, []byte) {
			g := sample()
			return g, bytes.ReplaceAll(g, []byte(`"generation":3,`), []byte(`"generation":4,`))
		},
		trace.FormSpelling: func() ([]byte, []byte) {
			g := sample()
			return g, []byte(strings.Replace(string(g), `"tick":13`, `"tick" : 13`, 1))
		},
		trace.FormLines: func() ([]byte, []byte) {
			g := sample()
			ls := lines(g)
			return g, join(ls[:3])
		},
		trace.FormSchema: func() ([]byte, []byte) {
			g := sample()
			var v2 bytes.Buffer
			Expect(trace.ExpandV3(bytes.NewReader(g), &v2)).To(Succeed())
			return v2.Bytes(), g
		},
	}
	phrases := map[string]string{
		trace.FormFields:   "confidence: golden 0.72, actual 0.75",
		trace.FormShifted:  "(a record was added or removed)",
		trace.FormRenamed:  "the same record under another id (identity drift): via: golden",
		trace.FormPosition: "only the record's position (seq) differs",
		trace.FormBranch:   "the branch key differs, on this and every later line",
		trace.FormSpelling: "same fields, not the canonical spelling: line 5 of actual",
		trace.FormLines:    "actual <missing>",
		trace.FormSchema:   "the schema version differs, golden 1, actual 3: every line is spelt anew",
	}
	DescribeTable("every sentence it writes, against a planted case of its kind",
		func(form string) {
			plant, ok := formCases[form]
			Expect(ok).To(BeTrue(), "no planted case of form %q", form)
			d := trace.Compare(plant())
			Expect(d).NotTo(BeNil())
			Expect(d.Form()).To(Equal(form))
			Expect(d.String()).To(ContainSubstring(phrases[form]))
			for other, phrase := range phrases {
				if other != form {
					Expect(d.String()).NotTo(ContainSubstring(phrase), "a %s divergence reads as %s", form, other)
				}
			}
		},
		func() []TableEntry {
			var out []TableEntry
			for _, f := range trace.Forms {
				out = append(out, Entry(f, f))
			}
			return out
		}(),
	)
	It("has a planted case for every form and no case for a form that does not exist", func() {
		Expect(slices.Sorted(maps.Keys(formCases))).To(Equal(slices.Sorted(slices.Values(trace.Forms))))
	})

	It("says when the whole file moved to another branch, not that only the position differs", func() {
		golden := sample()
		actual := bytes.ReplaceAll(golden, []byte(`"generation":3,`), []byte(`"generation":48315,`))
		Expect(bytes.Equal(actual, golden)).To(BeFalse(), "the sample is on generation 3")
		d := trace.Compare(golden, actual)
		Expect(d.Line).To(Equal(1), "the header carries the branch too")
		Expect(d.String()).To(HaveSuffix(`the branch key differs, on this and every later line: golden {"generation":3,"save_uuid":"` +
			saveOf(golden) + `"}, actual {"generation":48315,"save_uuid":"` + saveOf(golden) + `"}`))
	})

	It("locates a deleted line at the first line that moved up", func() {
		golden := sample()
		ls := lines(golden)
		actual := join(append(ls[:2:2], ls[3:]...)) // drop the encounter (line 3)
		d := trace.Compare(golden, actual)
		Expect(d).NotTo(BeNil())
		Expect(d.Line).To(Equal(3))
		Expect(d.Tick).To(Equal(int64(12)))
		Expect(d.Kind).To(Equal("encounter"))
		Expect(d.Key).To(Equal(`"` + encID + `"`))
		Expect(d.Golden).To(Equal(ls[2]))
		Expect(d.Actual).To(Equal(ls[3]))
	})

	It("reports the actual side as <missing> when the actual file is truncated at a line end", func() {
		golden := sample()
		ls := lines(golden)
		d := trace.Compare(golden, join(ls[:3]))
		Expect(d).NotTo(BeNil())
		Expect(cmp.Diff(trace.Divergence{
			Line: 4, Tick: 12, Kind: "transmission", Key: `"witness->neighbor theft@2 via ` + encID + `"`,
			Golden: ls[3], Actual: "<missing>",
		}, *d)).To(BeEmpty())
	})

	It("takes tick, kind and key from the actual record when the golden ended", func() {
		golden := sample()
		ls := lines(golden)
		d := trace.Compare(join(ls[:4]), golden)
		Expect(d).NotTo(BeNil())
		Expect(cmp.Diff(trace.Divergence{
			Line: 5, Tick: 13, Kind: "belief", Key: `"neighbor/theft@2 formed"`,
			Golden: "<missing>", Actual: ls[4],
		}, *d)).To(BeEmpty())
	})

	It("shows both partial lines when a file is cut mid-line", func() {
		golden := sample()
		ls := lines(golden)
		cut := strings.Join(ls[:3], "\n") + "\n" + ls[3][:40]
		d := trace.Compare(golden, []byte(cut))
		Expect(d).NotTo(BeNil())
		Expect(d.Line).To(Equal(4))
		Expect(d.Golden).To(Equal(ls[3]))
		Expect(d.Actual).To(Equal(ls[3][:40]))
		Expect(d.Kind).To(Equal("transmission"), "decoded from the intact golden line")
	})

	It("locates a difference in the header at line 1", func() {
		golden := sample()
		actual := []byte(strings.Replace(string(golden), `"keyframe_every":24`, `"keyframe_every":12`, 1))
		d := trace.Compare(golden, actual)
		Expect(d).NotTo(BeNil())
		Expect(d.Line).To(Equal(1))
		Expect(d.Kind).To(Equal("header"))
		Expect(d.Key).To(Equal(`""`))
		Expect(d.Tick).To(BeZero())
		Expect(d.String()).To(Equal(`first divergent record at line 1 (tick 0, header ""): keyframe_every: golden 24, actual 12`),
			"a kind with no key is still named")
	})

	It("names neither kind nor key for a record that has no kind", func() {
		d := trace.Compare([]byte(`{"tick":3,"x":1}`+"\n"), []byte(`{"tick":3,"x":2}`+"\n"))
		Expect(d).NotTo(BeNil())
		Expect(d.String()).To(Equal(`first divergent record at line 1 (tick 3): x: golden 1, actual 2`))
	})

	It("lists four differing fields and counts the rest", func() {
		rule := func(base float64) []byte {
			b := trace.Buffer{Header: header}
			r := trace.RuleEval{Rule: "corroboration", Subject: "neighbor/theft@2", Fired: true, Reason: "counted"}
			for i, name := range []string{"a", "b", "c", "d", "e", "f"} {
				r.Values = append(r.Values, trace.Value{Name: name, Value: base + float64(i)})
			}
			b.Emit(trace.Record{Seq: 0, Tick: 5, Body: r})
			out, err := b.AppendJSONL(nil)
			Expect(err).NotTo(HaveOccurred())
			return out
		}
		d := trace.Compare(rule(1), rule(11))
		Expect(d).NotTo(BeNil())
		Expect(d.Fields).To(HaveLen(6))
		Expect(d.String()).To(Equal(`first divergent record at line 2 (tick 5, rule "corroboration neighbor/theft@2"): ` +
			`values.a: golden 1.0, actual 11.0; values.b: golden 2.0, actual 12.0; values.c: golden 3.0, actual 13.0; values.d: golden 4.0, actual 14.0; ` +
			`and 2 more fields`))
	})

	It("lists an emptied list as a field of its own beside the elements it lost", func() {
		keyframe := func(k trace.Keyframe) []byte {
			b := trace.Buffer{Header: header}
			b.Emit(trace.Record{Seq: 0, Tick: 5, Body: k})
			out, err := b.AppendJSONL(nil)
			Expect(err).NotTo(HaveOccurred())
			return out
		}
		d := trace.Compare(keyframe(trace.Keyframe{NPCs: []trace.NPCState{{ID: "merchant", Alive: true, At: "market"}}}), keyframe(trace.Keyframe{}))
		Expect(d).NotTo(BeNil())
		Expect(d.String()).To(Equal(`first divergent record at line 2 (tick 5, keyframe ""): ` +
			`npcs: golden <missing>, actual []; npcs[0].alive: golden true, actual <missing>; npcs[0].at: golden "market", actual <missing>; npcs[0].id: golden "merchant", actual <missing>`))
	})

	It("leaves tick, kind and key empty for a line that is not JSON", func() {
		d := trace.Compare([]byte("garbage\n"), []byte("garbagE\n"))
		Expect(cmp.Diff(trace.Divergence{Line: 1, Golden: "garbage", Actual: "garbagE"}, *d)).To(BeEmpty())
		Expect(d.String()).To(Equal("first divergent record at line 1 (tick 0): golden garbage, actual garbagE"))
	})

	DescribeTable("names what each kind of record is about",
		func(body trace.Body, key string) {
			b := trace.Buffer{Header: header}
			b.Emit(trace.Record{Seq: 0, Tick: 5, Body: body})
			golden, err := b.AppendJSONL(nil)
			Expect(err).NotTo(HaveOccurred())
			ls := lines(golden)
			ls[1] = strings.Replace(ls[1], `"seq":0`, `"seq":1`, 1)
			d := trace.Compare(golden, join(ls))
			Expect(d).NotTo(BeNil())
			Expect(d.Line).To(Equal(2))
			Expect(d.Tick).To(Equal(int64(5)))
			Expect(d.Kind).To(Equal(string(body.Kind())))
			Expect(d.Key).To(Equal(key))
			Expect(d.String()).To(HavePrefix("first divergent record at line 2 (tick 5, %s %s): only the record's position (seq) differs: ", body.Kind(), key))
		},
		Entry("encounter: its id", kindCases[0].body, `"`+encID+`"`),
		Entry("transmission: teller->listener claim via", kindCases[3].body, `"witness->neighbor theft@2 via injected"`),
		Entry("rule: rule and subject", kindCases[4].body, `"corroboration neighbor/theft@2"`),
		Entry("event: its id", kindCases[6].body, `"theft@2"`),
		Entry("belief: holder/claim change", kindCases[7].body, `"neighbor/theft@2 formed"`),
		Entry("grudge: holder->target change", trace.Grudge{Holder: "loser", Target: "player", Change: "formed", Emotional: 0.8, Rule: "grudge-creation", Cause: "brawl@1"}, `"loser->player formed"`),
		Entry("obligation: its id and state", trace.Obligation{ID: "obligation:favour@2", Favour: "favour@2", Creditor: "ria", Debtor: "player", State: "violated"}, `"obligation:favour@2 violated"`),
		Entry("reputation: observer/subject/dimension", trace.Reputation{Observer: "jon", Subject: "player", Dimension: "reliability", Alpha: 1, Beta: 2, Mean: 0.5}, `"jon/player/reliability"`),
		Entry("schedule: npc, override and change", trace.Schedule{NPC: "smith", Change: "overridden", Override: "rewrite@4", At: "shrine", From: 5, To: 9, Rule: "schedule-rewrite", Cause: "death@3"}, `"smith rewrite@4 overridden"`),
		Entry("role: role and change", trace.Role{Role: "steward", Change: "appointed", Holder: "ria", Rule: "succession", Cause: "vacancy"}, `"steward appointed"`),
		Entry("keyframe: nothing", kindCases[8].body, `""`),
		Entry("a key with quotes is Go-quoted", trace.Event{ID: `say "hi"`}, `"say \"hi\""`),
	)
})

var _ = Describe("Divergence.String", func() {
	It("reads as one sentence naming line, tick, kind, key and both lines", func() {
		d := trace.Divergence{Line: 4, Tick: 12, Kind: "belief", Key: `"a/b formed"`, Golden: "{g}", Actual: "<missing>"}
		Expect(d.String()).To(Equal(`first divergent record at line 4 (tick 12, belief "a/b formed"): golden {g}, actual <missing>`))
	})

	It("leaves out the branch key, which is the same on every line", func() {
		golden := sample()
		ls := lines(golden)
		ls[4] = strings.Replace(ls[4], `"confidence":1.0`, `"confidence":0.5`, 1)
		d := trace.Compare(golden, join(ls))
		Expect(d).NotTo(BeNil())
		Expect(d.Golden).To(ContainSubstring(branchV3), "the Divergence itself keeps whole lines")
		Expect(d.String()).To(Equal(`first divergent record at line 5 (tick 13, belief "neighbor/theft@2 formed"): confidence: golden 1.0, actual 0.5`))
		d.Fields = nil
		Expect(d.String()).To(Equal(`first divergent record at line 5 (tick 13, belief "neighbor/theft@2 formed"): ` +
			`golden {"change":"formed","confidence":1.0,"holder":"neighbor","kind":"belief","seq":3,"stage":"heard","tick":13,"variant":"theft@2#v0"}, ` +
			`actual {"change":"formed","confidence":0.5,"holder":"neighbor","kind":"belief","seq":3,"stage":"heard","tick":13,"variant":"theft@2#v0"}`))
	})

	It("leaves out version 2's branch object too", func() {
		d := trace.Compare([]byte(`{`+branchJSON+`,"tick":5,"x":1}`+"\n"), []byte(`{`+branchJSON+`,"tick":5,"x":2}`+"\n"))
		d.Fields = nil
		Expect(d.String()).To(Equal(`first divergent record at line 1 (tick 5): golden {"tick":5,"x":1}, actual {"tick":5,"x":2}`))
	})

	It("leaves out the branch key even at the very start of a line that lost its opening brace", func() {
		d := trace.Compare([]byte(`"branch":{"generation":3},"tick":5,"x":1}`+"\n"), []byte(`"branch":{"generation":3},"tick":5,"x":2}`+"\n"))
		Expect(d).NotTo(BeNil())
		Expect(d.Fields).To(BeNil(), "neither line is a record")
		Expect(d.String()).To(Equal(`first divergent record at line 1 (tick 0): golden "tick":5,"x":1}, actual "tick":5,"x":2}`))
	})

	It("shortens lines beyond 200 bytes", func() {
		long := strings.Repeat("x", 201)
		d := trace.Divergence{Line: 1, Golden: long, Actual: strings.Repeat("y", 200)}
		Expect(d.String()).To(Equal("first divergent record at line 1 (tick 0): golden " + strings.Repeat("x", 200) + "…, actual " + strings.Repeat("y", 200)))
	})
})

// saveOf returns the save_uuid of a trace file's header: of its one
// branch.
func saveOf(file []byte) string {
	var h struct {
		Branches []struct {
			SaveUUID string `json:"save_uuid"`
		} `json:"branches"`
	}
	Expect(json.Unmarshal(file[:bytes.IndexByte(file, '\n')], &h)).To(Succeed())
	Expect(h.Branches).To(HaveLen(1))
	return h.Branches[0].SaveUUID
}
