package whynot

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Cause is what an answer found: why an NPC does not hold a claim, or
// that it does.
type Cause string

// The causes, each a specific one: there is no "unknown".
const (
	Holds      Cause = "holds"            // it holds the claim: the evidence chain back to the event
	NotYet     Cause = "not yet"          // the claim's event had not happened
	Dead       Cause = "dead"             // it was dead: when, by which event
	Forgot     Cause = "forgot"           // it held the rumour and forgot it
	WitnessOff Cause = "witness rule off" // it witnessed the event and the witness rule formed nothing
	Missed     Cause = "missed chances"   // it met holders' company and every chance failed
	NoHolder   Cause = "no holder"        // nobody held the claim
	Nowhere    Cause = "nowhere"          // it was at no location, where no one meets it
	Apart      Cause = "apart"            // it never shared a place with a holder
	Border     Cause = "border"           // it lived in another hold than every holder: the news needed a carrier
)

// Causes lists every cause an answer can give.
func Causes() []Cause {
	return []Cause{Holds, NotYet, Dead, Forgot, WitnessOff, Missed, NoHolder, Nowhere, Apart, Border}
}

// Line is one step of an answer: what happened at a tick, and the trace
// line it rests on, so a person can open the record.
type Line struct {
	Tick int64 `json:"tick"`
	// Trace is the line of trace.jsonl the step rests on; 0 when the
	// dense file (where someone was, whether alive) or the fixture (a
	// schedule) is the evidence, which the text then names.
	Trace int    `json:"trace,omitempty"`
	Text  string `json:"text"`
}

// String is the line as a person reads it: its text, then the record.
func (l Line) String() string {
	if l.Trace > 0 {
		return l.Text + " (trace.jsonl:" + strconv.Itoa(l.Trace) + ")"
	}
	return l.Text
}

// Answer is why an NPC does or does not hold a claim at a tick.
type Answer struct {
	Run   string `json:"run"`
	Dir   string `json:"dir"`
	NPC   string `json:"npc"`
	Claim string `json:"claim"`
	Tick  int64  `json:"tick"`
	Cause Cause  `json:"cause"`
	// Summary says the cause in one sentence; Lines are its evidence,
	// the most recent first.
	Summary Line   `json:"summary"`
	Lines   []Line `json:"lines"`
}

// Heading is the question the answer answers.
func (a *Answer) Heading() string {
	verb := "does not hold"
	if a.Cause == Holds {
		verb = "holds"
	}
	return fmt.Sprintf("%s at tick %d (%s): why %s %s %s", a.Run, a.Tick, a.Dir, a.NPC, verb, a.Claim)
}

// Body is the answer's text under its heading: the summary, then each
// line indented. The triage page shows exactly these lines.
func (a *Answer) Body() []string {
	out := []string{a.Summary.String()}
	for _, l := range a.Lines {
		out = append(out, "  "+l.String())
	}
	return out
}

// WriteText writes the heading and the body.
func (a *Answer) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintln(b, a.Heading())
	for _, l := range a.Body() {
		fmt.Fprintln(b, l)
	}
	return b.Flush()
}

// WriteJSON writes the answer as one JSON object.
func (a *Answer) WriteJSON(w io.Writer) error {
	out := *a
	if out.Lines == nil {
		out.Lines = []Line{}
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}
