package trace_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/trace"
)

// headerV2 is h's header line as versions 1 and 2 wrote it: the branch
// spelt, the version saying the layers (1 the core alone, 2 social).
func headerV2(h trace.Header) ([]byte, error) {
	version := trace.Version1
	if h.Social {
		version = trace.Version2
	}
	line, err := canon.Marshal(canon.Object{
		{Key: "branch", Value: canon.Object{{Key: "generation", Value: h.Branch.Generation}, {Key: "save_uuid", Value: h.Branch.SaveUUID}}},
		{Key: "keyframe_every", Value: h.KeyframeEvery},
		{Key: "kind", Value: "header"},
		{Key: "schema", Value: trace.Schema},
		{Key: "seed_id", Value: h.SeedID},
		{Key: "version", Value: version},
	})
	return append(line, '\n'), err
}

// filesOf writes the records both ways: as the encoder writes them
// (version 3) and as the oracle wrote them in version 2. ok is false when
// a record has no spelling.
func filesOf(h trace.Header, recs []trace.Record) (v3, v2 []byte, ok bool) {
	v3, err := (&trace.Buffer{Header: h, Records: recs}).AppendJSONL(nil)
	if err != nil {
		return nil, nil, false
	}
	if v2, err = headerV2(h); err != nil {
		return nil, nil, false
	}
	for _, r := range recs {
		line, err := oracleLineV2(r, h.Branch)
		if err != nil {
			return nil, nil, false
		}
		v2 = append(v2, line...)
	}
	return v3, v2, true
}

func convert(v2 []byte) ([]byte, error) {
	var out bytes.Buffer
	err := trace.ConvertV2(bytes.NewReader(v2), &out)
	return out.Bytes(), err
}

func expand(v3 []byte) ([]byte, error) {
	var out bytes.Buffer
	err := trace.ExpandV3(bytes.NewReader(v3), &out)
	return out.Bytes(), err
}

// roundTrip reports how the encoder's version-3 file, the oracle's
// version-2 file and the conversions between them disagree: "" when
// ConvertV2 of the v2 file is the v3 file byte for byte and ExpandV3 of
// the v3 file is the v2 file.
func roundTrip(v3, v2 []byte) string {
	got3, err := convert(v2)
	if err != nil {
		return "ConvertV2: " + err.Error()
	}
	if d := cmp.Diff(string(v3), string(got3)); d != "" {
		return "ConvertV2 is not what the encoder writes (-encoder +converted):\n" + d
	}
	got2, err := expand(v3)
	if err != nil {
		return "ExpandV3: " + err.Error()
	}
	if d := cmp.Diff(string(v2), string(got2)); d != "" {
		return "ExpandV3 is not version 2's file (-v2 +expanded):\n" + d
	}
	return ""
}

var _ = Describe("ConvertV2 and ExpandV3", func() {
	It("spell the spec header's version-2 line as headerLineV2 pins it", func() {
		line, err := headerV2(header)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(line)).To(Equal(headerLineV2 + "\n"))
	})

	DescribeTable("turn a version-2 file of one record of each kind into what the encoder writes, and back, byte for byte",
		func(body trace.Body, v3, v2 string) {
			for _, social := range []bool{false, true} {
				h := header
				h.Social = social
				enc, err := trace.NewEncoder(h)
				Expect(err).NotTo(HaveOccurred())
				head3 := enc.AppendHeader(nil)
				head2, err := headerV2(h)
				Expect(err).NotTo(HaveOccurred())
				line, err := enc.AppendRecord(nil, trace.Record{Seq: 7, Tick: 12, Body: body})
				Expect(err).NotTo(HaveOccurred())
				Expect(string(line)).To(Equal(v3 + "\n"))
				Expect(roundTrip(append(head3, v3+"\n"...), append(head2, v2+"\n"...))).To(BeEmpty(), "social %t", social)
			}
		},
		func() []TableEntry {
			var out []TableEntry
			for _, c := range kindCases {
				out = append(out, Entry(c.name, c.body, c.line, c.v2))
			}
			return out
		}(),
	)

	It("turn a file of every kind, every optional part present, into what the encoder writes, and back", func() {
		for _, social := range []bool{false, true} {
			h := header
			h.Social = social
			v3, v2, ok := filesOf(h, everyKind())
			Expect(ok).To(BeTrue())
			Expect(roundTrip(v3, v2)).To(BeEmpty(), "social %t", social)
		}
	})

	It("turn generated records of every kind into what the encoder writes, and back", func() {
		g := recordGen{next: rand.New(rand.NewPCG(31, 32)).Uint64, text: convertText}
		var recs []trace.Record
		for i := range 4000 {
			r := trace.Record{Seq: int64(i), Tick: int64(i / 7), Body: g.body(trace.Kinds()[i%len(trace.Kinds())])}
			if _, err := oracleLineV2(r, header.Branch); err == nil {
				recs = append(recs, r)
			}
		}
		Expect(len(recs)).To(BeNumerically(">", 2000))
		v3, v2, ok := filesOf(header, recs)
		Expect(ok).To(BeTrue())
		Expect(roundTrip(v3, v2)).To(BeEmpty())
		Expect(len(v3)).To(BeNumerically("<", len(v2)), "version 3 spells less")
	})

	It("lose no record: Diff finds none changed between a file and its conversion, and says the schema moved", func() {
		v3, v2, ok := filesOf(header, everyKind())
		Expect(ok).To(BeTrue())
		d, err := trace.Diff(v2, v3)
		Expect(err).NotTo(HaveOccurred())
		Expect(*d).To(Equal(trace.Delta{Versions: [2]int{trace.Version1, trace.Version3}}))
		Expect(d.Summary()).To(Equal("0 records changed, 0 added, 0 removed; schema version 1 → 3"))

		By("and Rolls reads the same rolls from both")
		r2, err := trace.Rolls(v2)
		Expect(err).NotTo(HaveOccurred())
		r3, err := trace.Rolls(v3)
		Expect(err).NotTo(HaveOccurred())
		Expect(r3).To(Equal(r2))
		Expect(r3).To(HaveLen(2), "the encounter's and the rule's")
	})

	It("keep a version-2 field version 3 would leave out when it is not what the id or variant gives back", func() {
		v2 := headerLineV2 + "\n" +
			`{` + branchJSON + `,"fired":false,"id":"` + encID + `","kind":"encounter","pair":["witness","neighbor"],` +
			`"roll":{"key":"` + encID + `","natural":0.5,"pinned":false,"purpose":"meeting","threshold":0.5,"value":0.25},"seq":7,"site":"tavern","tick":12}` + "\n" +
			`{` + branchJSON + `,"claim":"other@1","kind":"belief","seq":8,"tick":12,"variant":"theft@2#v0"}` + "\n"
		v3, err := convert([]byte(v2))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(v3)).To(Equal(headerLine + "\n" +
			`{"branch":0,"fired":false,"id":"` + encID + `","kind":"encounter","pair":["witness","neighbor"],` +
			`"roll":{"natural":0.5,"pinned":false,"purpose":"meeting","threshold":0.5,"value":0.25},"seq":7,"site":"tavern","tick":12}` + "\n" +
			`{"branch":0,"claim":"other@1","kind":"belief","seq":8,"tick":12,"variant":"theft@2#v0"}` + "\n"))
		back, err := expand(v3)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(back)).To(Equal(v2))
	})

	It("say the layers a version-2 header's version named, and give the version back", func() {
		for _, c := range []struct {
			version int
			layers  string
		}{{trace.Version1, `["core"]`}, {trace.Version2, `["core","social"]`}} {
			v2 := strings.Replace(headerLineV2, `"version":1`, `"version":`+string(rune('0'+c.version)), 1) + "\n"
			v3, err := convert([]byte(v2))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(v3)).To(ContainSubstring(`"layers":` + c.layers + `,`))
			Expect(string(v3)).To(HaveSuffix(`"version":3}` + "\n"))
			back, err := expand(v3)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(back)).To(Equal(v2))
		}
	})

	DescribeTable("refuse what they cannot convert, naming the line",
		func(convertIt bool, file, msg string) {
			var err error
			if convertIt {
				_, err = convert([]byte(file))
			} else {
				_, err = expand([]byte(file))
			}
			Expect(err).To(MatchError(msg))
		},
		Entry("ConvertV2: a record whose branch is not the header's", true,
			headerLineV2+"\n"+kindCases[6].v2+"\n"+strings.Replace(kindCases[6].v2, `"generation":3`, `"generation":4`, 1)+"\n",
			`trace line 3: branch {"generation":4,"save_uuid":"save-1"} is not the header's {"generation":3,"save_uuid":"save-1"}: version 3 names a record's branch by its place in the header's branches`),
		Entry("ConvertV2: a record with no branch", true,
			headerLineV2+"\n"+`{"kind":"event","tick":1}`+"\n",
			`trace line 2: branch null is not the header's {"generation":3,"save_uuid":"save-1"}: version 3 names a record's branch by its place in the header's branches`),
		Entry("ConvertV2: a first line that is no header", true, kindCases[6].v2+"\n", "trace line 1: not a chronicle.trace header"),
		Entry("ConvertV2: a header without a branch", true, `{"kind":"header","schema":"chronicle.trace","version":1}`+"\n", "trace line 1: the header has no branch"),
		Entry("ConvertV2: a version-3 file", true, headerLine+"\n", "trace line 1: version 3: ConvertV2 reads versions 1 and 2"),
		Entry("ConvertV2: a line that is not JSON", true, headerLineV2+"\nnot json\n", "trace line 2: invalid character 'o' in literal null (expecting 'u')"),
		Entry("ConvertV2: an empty file", true, "", "empty trace: no header"),
		Entry("ExpandV3: a header with two branches", false,
			`{"branches":[{"generation":3,"save_uuid":"save-1"},{"generation":4,"save_uuid":"save-1"}],"kind":"header","layers":["core"],"schema":"chronicle.trace","version":3}`+"\n",
			"trace line 1: 2 branches: versions 1 and 2 have one branch a file"),
		Entry("ExpandV3: layers versions 1 and 2 do not know", false,
			strings.Replace(headerLine, `["core"]`, `["social"]`, 1)+"\n", "trace line 1: layers [social]: versions 1 and 2 know [core] and [core social]"),
		Entry("ExpandV3: a record naming a branch the header does not list", false,
			headerLine+"\n"+kindCases[6].line+"\n"+strings.Replace(kindCases[6].line, branchV3, `"branch":1`, 1)+"\n",
			"trace line 3: branch 1: the header lists 1 branches"),
		Entry("ExpandV3: a first line that is no header", false, kindCases[6].line+"\n", "trace line 1: trace header: version <nil>, want 1 to 3"),
		Entry("ExpandV3: a version-2 file", false, headerLineV2+"\n", "trace line 1: version 1: ExpandV3 reads version 3"),
		Entry("ExpandV3: an empty file", false, "", "empty trace: no header"),
	)
})

// FuzzConvert holds the converter to the encoder and the oracle on
// records built from arbitrary strings and numbers: the encoder's
// version-3 file, expanded (ExpandV3), is the oracle's version-2 file
// (oracleLineV2), and that file converted (ConvertV2) is the encoder's,
// byte for byte. It bends the generator's records toward what version 3
// leaves out: a claim that is its variant's, an encounter whose pair or
// site is not its id's, an unpinned roll whose value is not its natural
// one, a roll pinned at its natural value.
func FuzzConvert(f *testing.F) {
	f.Add(uint64(1), "market", "a\"b", 0.5)
	f.Add(uint64(7), "encounter@12/market/[a,b]", "theft@2#v0", 0.25)
	f.Add(uint64(99), "x@y/z", "t/[u,v", 1e-7)
	f.Add(uint64(4), "p,q", "ørn", math.Inf(1))
	f.Fuzz(func(t *testing.T, seed uint64, a, b string, x float64) {
		rng := rand.New(rand.NewPCG(seed, seed>>32))
		g := recordGen{next: rng.Uint64, text: []string{a, b, "market", "", "theft@2", "theft@2#v0"}}
		var recs []trace.Record
		for i, k := range trace.Kinds() {
			body := g.body(k)
			switch b := body.(type) {
			case *trace.Encounter:
				switch rng.IntN(5) {
				case 0:
					b.Pair[0], b.Pair[1] = b.Pair[1], b.Pair[0]
				case 1:
					b.Site = g.str()
				case 2:
					if !b.Roll.Roll.Pinned {
						b.Roll.Roll.Value = x
					}
				case 3:
					b.Roll.Roll.Pinned, b.Roll.Roll.Value = true, b.Roll.Roll.Natural // pinned at its natural value: still spelt
				}
			case *trace.Transmission:
				if g.flag() {
					b.Claim = trace.ClaimOf(b.Variant)
				}
			case *trace.BeliefChange:
				b.Confidence = x
				if g.flag() {
					b.Claim = trace.ClaimOf(b.Variant)
				}
			case *trace.Supersession:
				if g.flag() {
					b.Claim = trace.ClaimOf(b.Winner)
				}
			}
			r := trace.Record{Seq: int64(seed%1000) + int64(i), Tick: 3, Body: body}
			if _, err := oracleLineV2(r, header.Branch); err == nil {
				recs = append(recs, r)
			}
		}
		h := header
		h.Social = seed%2 == 0
		v3, v2, ok := filesOf(h, recs)
		if !ok {
			t.Fatalf("records the oracle spells, the encoder does not: %+v", recs)
		}
		if diff := roundTrip(v3, v2); diff != "" {
			t.Fatal(diff)
		}
	})
}
