package whynot_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/whynot"
)

// A world of three written by hand: wulf witnessed theft@1 at the
// market and met nils there at tick 2, which the trace says fired.
const (
	header  = `{"branches":[{"generation":0,"save_uuid":"u"}],"keyframe_every":24,"kind":"header","layers":["core"],"schema":"chronicle.trace","seed_id":"s","version":3}` + "\n"
	witness = `{"branch":0,"event":"theft","hash":"h","id":"theft@1","kind":"event","log_seq":0,"seq":0,"tick":1}
{"branch":0,"fired":true,"kind":"rule","reason":"witnessed","rule":"witness-creates-belief","seq":1,"subject":"wulf/theft@1","tick":1,"values":{}}
{"branch":0,"change":"formed","confidence":0.9,"holder":"wulf","kind":"belief","seq":2,"stage":"heard","tick":1,"variant":"theft@1#v0"}
{"branch":0,"fired":true,"id":"encounter@2/market/[nils,wulf]","kind":"encounter","roll":{"threshold":0.5,"value":0.1},"seq":3,"tick":2}
`
	table = "tick,mara/alive,mara/at,nils/alive,nils/at,wulf/alive,wulf/at,theft@1/believers,theft@1/variants,wulf/theft@1/stage\n" +
		"0,True,,True,market,True,market,,,\n1,True,,True,market,True,market,1,1,heard\n2,True,,True,market,True,market,1,1,heard\n"
)

func handRun(trace string) (*whynot.Run, error) {
	return whynot.Read("T9.9", "hand", whynot.Files{Trace: strings.NewReader(header + trace), Dense: strings.NewReader(table)}, whynot.World{})
}

var _ = Describe("a question the run cannot answer", func() {
	run, err := handRun(witness + `{"branch":0,"fired":true,"kind":"transmission","listener":"nils","reason":"listener did not hold it","rule":"testimony-transfer","seq":4,"teller":"wulf","tick":2,"variant":"theft@1#v0","via":"encounter@2/market/[nils,wulf]"}` + "\n")

	It("is an error naming what the run has, with the closest name", func() {
		Expect(err).NotTo(HaveOccurred())
		_, err := run.Explain("nil", "theft@1", 2)
		Expect(err).To(MatchError(`why-not: T9.9 has no NPC "nil" (did you mean "nils"?) (its NPCs: mara, nils, wulf)`))
		_, err = run.Explain("nils", "theft@2", 2)
		Expect(err).To(MatchError(`why-not: T9.9 has no claim "theft@2" (did you mean "theft@1"?) (its claims: theft@1)`))
		_, err = run.Explain("nils", "theft@1", 3)
		Expect(err).To(MatchError("why-not: tick 3 is outside T9.9's run, ticks 0 to 2"))
	})

	It("is answered by the cause, not by the absence of one", func() {
		a, err := run.Explain("mara", "theft@1", 2)
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Cause).To(Equal(whynot.Nowhere))
		a, err = run.Explain("nils", "theft@1", 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Cause).To(Equal(whynot.NotYet))
		Expect(a.Summary).To(Equal(whynot.Line{Tick: 1, Trace: 2, Text: "theft@1 did not exist yet: its event happened only at tick 1"}))
	})
})

var _ = Describe("files the package cannot read", func() {
	It("names the file and the line", func() {
		_, err := handRun(witness[:len(witness)-1])
		Expect(err).To(MatchError("hand/trace.jsonl: trace line 5: no final newline: the file is cut short"))
		_, err = whynot.Read("T9.9", "hand", whynot.Files{Trace: strings.NewReader(header), Dense: strings.NewReader("tick,mara/alive,mara/at\n0,True,\n2,True,\n")}, whynot.World{})
		Expect(err).To(MatchError("hand/dense.csv: line 3: tick 2 where tick 1 was due: a run's rows are every tick"))
		_, err = whynot.Open("T9.9", GinkgoT().TempDir()+"/nothing", whynot.World{})
		Expect(err).To(MatchError(ContainSubstring("why-not: T9.9: open ")))
		Expect(err).To(MatchError(ContainSubstring("nothing/trace.jsonl: no such file or directory")))
	})

	It("refuses to answer a meeting whose telling the trace lost, rather than answer without a cause", func() {
		run, err := handRun(witness)
		Expect(err).NotTo(HaveOccurred())
		_, err = run.Explain("nils", "theft@1", 2)
		Expect(err).To(MatchError("why-not: T9.9: nils and theft@1 at tick 2: trace line 5: nils met wulf, a holder of theft@1, and no telling of it follows"))
	})
})
