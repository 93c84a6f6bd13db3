//go:build browser

package page_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	gocmp "github.com/google/go-cmp/cmp"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/pageinput"
	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/verdict"
	"github.com/chronicle/ladder/ladder/whynot"
)

// Screenshot is where TestBrowser leaves a picture of the failing
// section, relative to the repository root; the other views' pictures
// are beside it (Screenshots).
const Screenshot = "reports/page-screenshot.png"

// Screenshots are the other pictures TestBrowser leaves in reports/, one
// per view, for docs/triage-page.md.
var Screenshots = []string{"page-overview.png", "page-belief.png", "page-evidence.png", "page-map.png", "page-carriers.png",
	"page-compare.png", "page-sweep.png", "page-cli-T3.2.png", "page-whynot.png"}

// findBrowser returns the Chromium to drive: $LADDER_CHROME, or the first
// of chromium, chromium-browser and google-chrome on PATH.
func findBrowser() (string, []string) {
	names := []string{"chromium", "chromium-browser", "google-chrome"}
	if p := os.Getenv("LADDER_CHROME"); p != "" {
		// A LADDER_CHROME that names no program is no browser: the leg
		// is skipped (or, under STRICT=1, fails), never run against it.
		if found, err := exec.LookPath(p); err == nil {
			return found, names
		}
		return "", []string{"LADDER_CHROME=" + p}
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p, names
		}
	}
	return "", names
}

// TestBrowser opens the triage page of failing runs in headless Chromium
// and uses it as a person would. Every value it holds the page to comes
// from the runs themselves — the page model, the goldens, the engine
// stepped afresh — never from a literal, so an accepted change to a rung
// never turns it red. It checks:
//
//   - the overview: failed runs first, by tier and earliest divergence,
//     "start here" naming the first, all above the fold;
//   - T1.1 (retell decay moved): the failing section and its lines, the
//     scrubber moved by keyboard against the engine's state, the address
//     following it, reloads and fresh loads, a failure line's link, and a
//     declined encounter shown exactly like a fired one;
//   - T3.2 (a witness dropped, the tavern kept open): a deep link to a
//     belief opens that row; its evidence link reaches the encounter's
//     roll row; the map at the tick colours every NPC by its stage; the
//     comparison with the golden names the first divergent record and
//     marks it; a failure line links to the belief it is about;
//   - T2.6's map: the carriers' routes and the roads between holds;
//   - a "why not?" link at #T2.6@100: the answer it opens is the one
//     ladder why-not gives from the run's files, line for line;
//   - a failing sweep: the bounds table, a per-seed plot per aggregate,
//     and the link that opens one seed's world as an ordinary section;
//   - the social panels of T3.3 and T5.1 against the engine;
//   - a plain `chromium --headless` load of #T3.2@40, with no driver,
//     shows the T3.2 section at tick 40.
//
// It leaves a screenshot of each view in reports/.
func TestBrowser(t *testing.T) {
	exe, names := findBrowser()
	if exe == "" {
		reason := "no " + strings.Join(names, ", ") + " on PATH (and LADDER_CHROME is not set)"
		if strings.HasPrefix(names[0], "LADDER_CHROME=") {
			reason = names[0] + " names no program"
		}
		banner := strings.Repeat("!", 78)
		fmt.Fprintf(os.Stderr, "\n%s\nbrowser: WARNING: SKIPPED the triage page's browser test: %s.\n"+
			"browser: Install one, e.g. apt-get install chromium; .ci/run does.\n%s\n\n",
			banner, reason, banner)
		// The line tools/legs.sh reads for make test's closing table.
		fmt.Printf("leg-skip: browser: %s\n", reason)
		if os.Getenv("STRICT") == "1" {
			t.Fatalf("STRICT=1: the browser leg cannot run on this machine (%s), and a skipped leg is a failure here", reason)
		}
		t.Skip("no browser: the triage page was not tested in a browser")
	}

	f11, failing := failingRun(t)
	_, failing32 := failingT32(t)
	passing := passingRun(t, loadRung(t, "T0.1-witness.yaml")[0])
	carrier := passingRun(t, loadRung(t, "T2.6-carrier.yaml")[0])
	serial := passingRun(t, loadRung(t, "T3.1-serial-theft.yaml")[0])
	mutate := passingRun(t, loadRung(t, "T2.2-mutate.yaml")[0])
	favours, vacancy := loadRung(t, "T3.3-favor-ledger.yaml")[0], loadRung(t, "T5.1-vacancy.yaml")[0]
	socialInputs := []page.Input{passingRun(t, favours), passingRun(t, vacancy)}
	sweepIns := failingSweep(t)
	inputs := slices.Concat([]page.Input{passing, failing, carrier, failing32, serial, mutate}, socialInputs, sweepIns)
	html, err := page.Page(inputs, page.Options{})
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]*page.Section{}
	for _, in := range inputs {
		models[in.Name] = buildSection(t, in)
	}
	model := models["T1.1"]
	if model.Divergence < 0 {
		t.Fatal("the planted define change shows no divergence in T1.1's model")
	}
	file := filepath.Join(t.TempDir(), "index.html")
	if err := page.Write(file, html); err != nil {
		t.Fatal(err)
	}
	url := "file://" + file
	engine := engineRows(t, f11)

	base, stop := context.WithTimeout(context.Background(), 4*time.Minute)
	defer stop()
	alloc, cancelAlloc := chromedp.NewExecAllocator(base,
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()

	// The first action starts the browser and must not carry a timeout
	// (it would stop the browser); each later step gets its own.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	checkOverview(t, ctx, url, inputs, models)

	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="T1.1"]`}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment("T1.1", -1)), b.ready())

	// The failing section is open and leads with the gate's failure lines,
	// without the commands tail each ends with, each linked; the passing
	// one stays closed.
	if !eval[bool](b, b.sec+` details`, `e => e.open && e.getBoundingClientRect().height > 0`) {
		t.Fatal("the failing section T1.1 is not open")
	}
	if eval[bool](b, `section.rung[data-name="T0.1"] details`, `e => e.open`) {
		t.Error("the passing section T0.1 is open")
	}
	var want []string
	for _, f := range model.Failures {
		want = append(want, f.Text)
		if strings.Contains(f.Text, "(reproduce:") {
			t.Errorf("a failure line still ends with the commands: %q", f.Text)
		}
	}
	shown := evalAll[string](b, b.sec+` ol.failures li`, `e => e.textContent`)
	if d := gocmp.Diff(want, shown); d != "" {
		t.Errorf("failure lines shown (-model +page):\n%s", d)
	}
	if cmds := eval[string](b, b.sec+` p.commands code`, `e => e.textContent`); cmds != verdict.Commands(f11) {
		t.Errorf("the commands are shown once as %q, want %q", cmds, verdict.Commands(f11))
	}
	for i, visible := range evalAll[bool](b, b.sec+` ol.failures li`, `e => e.offsetParent !== null && e.getBoundingClientRect().height > 0`) {
		if !visible {
			t.Errorf("failure line %d is in the page but not shown", i+1)
		}
	}
	div := int(model.Divergence)
	divLink := "#" + page.Fragment("T1.1", model.Divergence)
	links := evalAll[string](b, b.sec+` ol.failures li a`, `e => e.getAttribute("href")`)
	if !slices.ContainsFunc(links, func(l string) bool { return l == divLink || strings.HasPrefix(l, divLink+"/") }) {
		t.Errorf("no failure line links to the divergence %s: %q", divLink, links)
	}
	if got := b.tick(); got != div {
		t.Errorf("the scrubber opens at tick %d, want the first divergence %d", got, div)
	}

	// Moving the scrubber: the table is the engine's state at that tick,
	// with the evidence chain and the golden's value beneath a changed
	// one, and the fragment follows.
	later := min(div+18, int(f11.Ticks)-1)
	b.do(chromedp.Focus(chromedp.CSS(b.sec + ` input.scrub`)))
	for range later - div {
		b.do(chromedp.KeyEvent(kb.ArrowRight))
	}
	b.waitTick(later)
	b.checkBeliefs(engine, later)
	if h := eval[string](b, "body", `() => location.hash`); h != "#"+page.Fragment("T1.1", int64(later)) {
		t.Errorf("after moving the scrubber the fragment is %q, want #%s", h, page.Fragment("T1.1", int64(later)))
	}
	b.checkEvidence(model, later)

	// Reloading keeps the state; a fresh load of a URL with a fragment
	// restores the state it names.
	b.do(chromedp.Reload(), b.ready())
	b.waitTick(later)
	b.checkBeliefs(engine, later)
	early := max(div-7, 0)
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment("T1.1", int64(early))), b.ready())
	b.waitTick(early)
	b.checkBeliefs(engine, early)

	// A failure line's link goes to its tick; the feed there is the
	// model's; a fired and a declined encounter are listed the same way:
	// same font, same weight, nothing faded.
	b.do(chromedp.Click(chromedp.CSS(b.sec + ` ol.failures li a[href^="` + divLink + `"]`)))
	b.waitTick(div)
	b.checkBeliefs(engine, div)
	b.checkFeed(model, div)
	met, missed := encounterTicks(model)
	if met < 0 || missed < 0 {
		t.Fatal("T1.1's run has no fired or no declined encounter: the equal-weight check examines nothing")
	}
	style := map[bool]string{}
	for _, tick := range []int{met, missed} {
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment("T1.1", int64(tick))), b.ready())
		b.waitTick(tick)
		b.checkFeed(model, tick)
		recs, _ := model.FeedAt(int64(tick))
		i := slices.IndexFunc(recs, func(r page.Record) bool { return r.Kind == page.KindEncounter && r.Fired == (tick == met) })
		got := eval[string](b, fmt.Sprintf(`%s ol.feed li[data-seq="%d"]`, b.sec, recs[i].Seq), `e => e.querySelector(".text").textContent + "|" + style(e)`)
		text, st, _ := strings.Cut(got, "|")
		r := recs[i]
		wantText := fmt.Sprintf("%s & %s at %s: roll %s %s %s", r.Fields[1], r.Fields[2], r.Fields[0], r.Fields[3], map[bool]string{true: "<", false: "≥"}[r.Fired], r.Fields[4])
		if r.Fields[5] != "" {
			wantText += " (pinned)"
		}
		if text != wantText {
			t.Errorf("the encounter at tick %d reads %q, want %q", tick, text, wantText)
		}
		style[r.Fired] = st
	}
	if style[true] != style[false] {
		t.Errorf("a declined encounter is styled %q, a fired one %q: negative results must carry equal weight", style[false], style[true])
	}

	checkAsOf(t, ctx, url, "T0.1", 0, "theft@2", 2)
	checkAsOf(t, ctx, url, "T3.1", 19, "escalation@20", 20)
	checkT32(t, ctx, url, models["T3.2"])
	checkGoldenTree(t, ctx, url, models["T3.2"])
	checkCauses(t, ctx, url, models["T2.2"])
	checkTrigger(t, ctx, url, models["T5.1"])
	checkCarriers(t, ctx, url, models["T2.6"])
	checkWhyNot(t, ctx, url, carrier)
	checkSweep(t, ctx, url, models, sweepIns)

	// The social-state panel: none for the Tier 0–2 sections, one for
	// each social rung, showing the engine's state at the scrubber's tick.
	for _, name := range []string{"T0.1", "T1.1"} {
		if n := eval[int](b, "body", fmt.Sprintf(`() => document.querySelectorAll('section.rung[data-name=%q] .panel.social').length`, name)); n != 0 {
			t.Errorf("the Tier 0–2 section %s has %d social-state panels, want none", name, n)
		}
	}
	checkSocialPanels(t, ctx, url, []*page.Section{models["T3.3"], models["T5.1"]},
		[][][]socialRow{engineSocial(t, favours), engineSocial(t, vacancy)})

	// The picture a person gets: the failing section at its divergence.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment("T1.1", model.Divergence)), b.ready())
	b.waitTick(div)
	b.shoot(filepath.Base(Screenshot), b.sec)

	checkPlainLoad(t, exe, url, models["T3.2"])
}

// checkAsOf holds the variant tree and the contests to the scrubber's
// tick: at #name@tick nothing made after the tick is shown (a claim, a
// variant, a contest), and everything made by then is. later names a
// claim the run mints at tick laterAt, after tick, so the check cannot
// pass by the panel having nothing later to hide; at laterAt it shows.
func checkAsOf(t *testing.T, ctx context.Context, url, name string, tick int64, later string, laterAt int64) {
	t.Helper()
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="` + name + `"]`}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment(name, tick)), b.ready())
	b.waitTick(int(tick))
	items := evalAll[string](b, b.sec+` .panel.variants [data-tick]`,
		`e => e.getAttribute("data-tick") + " " + (e.closest("[hidden]") === null ? "shown" : "hidden") + " " + e.textContent.trim().split(/\s+/)[0]`)
	var before, after int
	for _, it := range items {
		f := strings.Fields(it)
		at, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			t.Fatalf("%s: a data-tick of %q", name, it)
		}
		switch {
		case at > tick && f[1] == "shown":
			t.Errorf("#%s@%d shows %s, made at tick %d", name, tick, f[2], at)
		case at <= tick && f[1] == "hidden":
			t.Errorf("#%s@%d hides %s, made at tick %d", name, tick, f[2], at)
		}
		if at > tick {
			after++
		} else {
			before++
		}
	}
	if after == 0 {
		t.Fatalf("#%s@%d: nothing in the variant panel (%d items) is made after the tick: the check examines nothing", name, tick, before)
	}
	if !strings.Contains(eval[string](b, b.sec+` .panel.variants`, `e => e.textContent`), later) {
		t.Fatalf("#%s@%d: the variant panel does not hold %s at all: the check examines nothing", name, tick, later)
	}
	if strings.Contains(eval[string](b, b.sec+` .panel.variants`, `e => e.innerText`), later) {
		t.Errorf("#%s@%d: the variant panel shows %s, made after the tick", name, tick, later)
	}
	// At the tick it is made, it shows.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment(name, laterAt)), b.ready())
	b.waitTick(int(laterAt))
	if !strings.Contains(eval[string](b, b.sec+` .panel.variants`, `e => e.innerText`), later) {
		t.Errorf("#%s@%d: the variant panel does not show %s, made at that tick", name, laterAt, later)
	}
}

// checkGoldenTree holds a failing section's variant panel to show the
// golden's tree, read from the golden trace, beside the run's: every
// golden variant the model read is in the panel's golden part, and as of
// the last tick shown.
func checkGoldenTree(t *testing.T, ctx context.Context, url string, m *page.Section) {
	t.Helper()
	if m.GoldenLineage == nil || len(m.GoldenLineage.Claims) == 0 {
		t.Fatal("the failing T3.2 has no golden lineage: the golden tree check examines nothing")
	}
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="T3.2"]`}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment("T3.2", m.Rows.To)), b.ready())
	b.waitTick(int(m.Rows.To))
	shown := evalAll[string](b, b.sec+` .panel.variants .golden li.variant`, `e => (e.closest("[hidden]") === null ? "" : "hidden ") + e.querySelector("code.vid").textContent`)
	for _, c := range m.GoldenLineage.Claims {
		for _, v := range c.Variants {
			if v.Tick <= m.Rows.To && !slices.Contains(shown, v.ID) {
				t.Errorf("#T3.2@%d: the golden's variant %s (tick %d) is not shown in the golden tree (%v)", m.Rows.To, v.ID, v.Tick, shown)
			}
		}
	}
}

// failingSweep is T2.8 at a tenth of a village — 4 seeds of 2 towns —
// judged by T2.8's own bounds, which such a small sweep cannot meet: a
// failing sweep, with its summary, its aggregates and one seed's world
// kept, as the suite keeps them.
func failingSweep(t *testing.T) []page.Input {
	t.Helper()
	f := *loadRung(t, "T2.8-spread-at-scale.yaml")[0]
	sw := *f.Sweep
	sw.Seeds, sw.Towns = 4, 2
	f.Sweep = &sw
	reports := t.TempDir()
	res, err := ladder.Run(&f, ladder.Options{Dir: filepath.Join(reports, f.Name())})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) == 0 {
		t.Fatal("the small sweep meets T2.8's bounds: the failing sweep checks nothing")
	}
	if _, err := pageinput.RunSeedWorld(res); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range verdict.Problems(res, nil, verdict.Verdict{}) {
		lines = append(lines, p.FailureLine())
	}
	ins := pageinput.ReportedPageInputs(root, reports, &f, lines)
	if len(ins) != 2 || ins[1].Trace == nil {
		t.Fatalf("the sweep's page inputs are %d, want the sweep and its seed world", len(ins))
	}
	return ins
}

// encounterTicks returns the first tick with a fired encounter and the
// first with a declined one, -1 when there is none.
func encounterTicks(s *page.Section) (met, missed int) {
	met, missed = -1, -1
	for _, r := range s.Feed {
		if r.Kind != page.KindEncounter {
			continue
		}
		if r.Fired && met < 0 {
			met = int(r.Tick)
		}
		if !r.Fired && missed < 0 {
			missed = int(r.Tick)
		}
	}
	return met, missed
}

// checkOverview opens the page with no fragment: the index lists failed
// runs first, by tier then earliest divergence, then the passing ones in
// page order; "start here" names the first failed run; at 1400×1000 every
// failed row is above the fold.
func checkOverview(t *testing.T, ctx context.Context, url string, inputs []page.Input, models map[string]*page.Section) {
	t.Helper()
	b := browser{t: t, ctx: ctx, sec: "body"}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url), b.ready())
	var failed, passed []*page.Section
	for _, in := range inputs {
		if s := models[in.Name]; s.Failed() {
			failed = append(failed, s)
		} else {
			passed = append(passed, s)
		}
	}
	// Single-digit tiers order as text; no divergence (-1) goes last.
	slices.SortStableFunc(failed, func(a, b *page.Section) int {
		return cmp.Or(strings.Compare(page.TierOf(a), page.TierOf(b)), cmp.Compare(uint64(a.Divergence), uint64(b.Divergence)))
	})
	if len(failed) < 2 || len(passed) == 0 {
		t.Fatalf("the overview check needs two failed runs and a passing one, has %d and %d", len(failed), len(passed))
	}
	var want []string
	for _, s := range slices.Concat(failed, passed) {
		want = append(want, s.Name)
	}
	got := evalAll[string](b, `table.index tbody tr`, `e => e.dataset.name`)
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("the overview's order (-failed first by tier and tick +page):\n%s", d)
	}
	start := eval[string](b, `p.start-here a`, `e => e.querySelector("b").textContent`)
	if start != failed[0].Name {
		t.Errorf("start here names %q, want the first failed run %q", start, failed[0].Name)
	}
	for _, s := range failed {
		bottom := eval[float64](b, fmt.Sprintf(`table.index tr[data-name=%q]`, s.Name), `e => e.getBoundingClientRect().bottom`)
		if bottom > 1000 {
			t.Errorf("the failed run %s's overview row ends at %.0f px, below the fold of 1000", s.Name, bottom)
		}
	}
	// Failed only hides the passing rows and sections.
	b.do(chromedp.Click(chromedp.CSS(`input.failedonly`)))
	rows := evalAll[string](b, `table.index tbody tr`, `e => e.offsetParent === null ? "" : e.dataset.name`)
	if d := gocmp.Diff(slices.Concat(names(failed), make([]string, len(passed))), rows); d != "" {
		t.Errorf("with failed only, the overview shows (-want +page):\n%s", d)
	}
	b.do(chromedp.Click(chromedp.CSS(`input.failedonly`)))
	b.shootViewport("page-overview.png")
}

func names(ss []*page.Section) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return out
}

// checkT32 walks the failing T3.2: from a deep link to a belief reached
// by report, along its evidence to the encounter and its roll, over the
// map at that tick, to the comparison with the golden and its first
// divergent record, and back from a failure line to the belief it names.
func checkT32(t *testing.T, ctx context.Context, url string, m *page.Section) {
	t.Helper()
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="T3.2"]`}
	// The first belief that arrived by report, and the encounter behind it.
	var holder, claim string
	var ev page.Evidence
	for _, bl := range m.Lineage.Beliefs {
		for _, e := range m.Evidence[[2]string{bl.Holder, bl.Claim}] {
			if e.Type == "reported" && holder == "" {
				holder, claim, ev = bl.Holder, bl.Claim, e
			}
		}
	}
	if holder == "" {
		t.Fatal("the failing T3.2 has no reported evidence: the evidence walk examines nothing")
	}
	recs, _ := m.FeedAt(ev.Tick)
	i := slices.IndexFunc(recs, func(r page.Record) bool { return r.Kind == page.KindEncounter && r.ID == ev.Via })
	if i < 0 {
		t.Fatalf("the model has no encounter %s at tick %d", ev.Via, ev.Tick)
	}
	enc := recs[i]
	tick := int(ev.Tick)

	// A deep link to the belief opens exactly that row.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.FragmentTo("T3.2", ev.Tick, page.BeliefTarget(holder, claim))), b.ready())
	b.waitTick(tick)
	row := fmt.Sprintf(`%s table.beliefs tr.target[data-holder=%q][data-claim=%q]`, b.sec, holder, claim)
	if n := eval[int](b, "body", fmt.Sprintf(`() => document.querySelectorAll(%q).length`, row)); n != 1 {
		t.Fatalf("the deep link to belief %s:%s marks %d rows, want 1", holder, claim, n)
	}
	if !eval[bool](b, row, `e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }`) {
		t.Error("the belief the deep link names is not in view")
	}
	b.shootViewport("page-belief.png")

	// Its evidence link reaches the encounter's roll row.
	via := fmt.Sprintf(`%s a.via`, row)
	if got := eval[string](b, via, `e => e.textContent`); got != ev.Via {
		t.Errorf("the evidence link reads %q, want %q", got, ev.Via)
	}
	b.do(chromedp.Click(chromedp.CSS(via)))
	b.waitTick(tick)
	marked := evalAll[string](b, b.sec+` ol.feed li.target`, `e => e.dataset.kind + "|" + e.dataset.seq + "|" + e.querySelector(".text").textContent`)
	wantEnc := fmt.Sprintf("encounter|%d|%s & %s at %s: roll %s %s %s", enc.Seq, enc.Fields[1], enc.Fields[2], enc.Fields[0], enc.Fields[3],
		map[bool]string{true: "<", false: "≥"}[enc.Fired], enc.Fields[4])
	if enc.Fields[5] != "" {
		wantEnc += " (pinned)"
	}
	if len(marked) == 0 || marked[0] != wantEnc {
		t.Errorf("following the evidence marks %q in the feed, want the encounter's roll row %q first", marked, wantEnc)
	}
	if !slices.ContainsFunc(marked, func(s string) bool { return strings.HasPrefix(s, "transmission|") }) {
		t.Errorf("following the evidence does not mark the transmission that carried it: %q", marked)
	}
	if h := eval[string](b, "body", `() => location.hash`); h != "#"+page.FragmentTo("T3.2", ev.Tick, page.TraceTarget(enc.Seq)) {
		t.Errorf("after following the evidence the address is %q", h)
	}
	b.shootViewport("page-evidence.png")

	// The map at that tick: a dot per NPC where it is, coloured by the
	// stage of its strongest belief (T2.6's map is held to the model at
	// its last tick too, where people have moved and heard).
	b.checkMap(m, tick)
	b.shoot("page-map.png", b.sec+` .panel.map`)

	// The comparison with the golden names the first divergent record and
	// the drift as ladder compare does, and its link marks the record.
	var c *page.Comparison
	for _, o := range m.Others {
		if o.Name == "golden" {
			c = o.Cmp
		}
	}
	if c == nil || c.FirstRecord == nil {
		t.Fatal("the failing T3.2's model has no comparison with its golden naming a first divergent record")
	}
	cmpSel := b.sec + ` .panel.compare[data-other="golden"]`
	first := eval[string](b, cmpSel+` p.firstrecord a`, `e => e.textContent`)
	if want := fmt.Sprintf("tick %d, %s %s", c.FirstRecord.Tick, c.FirstRecord.Kind, c.FirstRecord.Key); first != want {
		t.Errorf("the comparison names the first divergent record %q, want %q", first, want)
	}
	if v := eval[string](b, cmpSel+` p.verdict`, `e => e.textContent`); v != "Drift: "+c.Verdict {
		t.Errorf("the comparison's drift reads %q, want %q", v, "Drift: "+c.Verdict)
	}
	b.do(chromedp.Click(chromedp.CSS(cmpSel + ` p.firstrecord a`)))
	b.waitTick(int(c.FirstRecord.Tick))
	if seqs := evalAll[string](b, b.sec+` ol.feed li.target`, `e => e.dataset.seq`); !slices.Equal(seqs, []string{fmt.Sprint(c.FirstRecord.Seq)}) {
		t.Errorf("following the first divergent record marks feed rows %q, want seq %d", seqs, c.FirstRecord.Seq)
	}
	if n := eval[int](b, "body", fmt.Sprintf(`() => document.querySelectorAll(%q).length`, cmpSel+fmt.Sprintf(` table.tracediff tr.first[data-seq="%d"]`, c.FirstRecord.Seq))); n != 1 {
		t.Errorf("the side-by-side records at tick %d mark %d rows as the first divergent record, want 1", c.FirstRecord.Tick, n)
	}
	b.shoot("page-compare.png", cmpSel)

	// A failure line about a belief links to that belief's row.
	for _, fl := range m.Failures {
		if fl.Link.Target.Kind != "belief" {
			continue
		}
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#T3.2"), b.ready())
		b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s ol.failures a[href=%q]`, b.sec, "#"+page.FragmentTo("T3.2", fl.Link.Tick, fl.Link.Target)))))
		b.waitTick(int(fl.Link.Tick))
		h, c, _ := strings.Cut(fl.Link.Target.Value, ":")
		// The link is followed when the address changes (hashchange, after
		// the click returns): wait for its row, not for the tick, which
		// may be the one the section already showed.
		if !b.waitFor(fmt.Sprintf(`document.querySelectorAll('%s table.beliefs tr.target[data-holder=%q][data-claim=%q]').length === 1`, b.sec, h, c)) {
			t.Errorf("the failure line %q does not open its belief's row", fl.Text)
		}
		return
	}
	t.Error("no failure line of the failing T3.2 links to a belief")
}

// checkMap holds every dot of the section's map at a tick to the model:
// where the NPC is and the stage of its strongest belief (the highest
// confidence, the first claim on a tie; unheard when it holds none), in
// that stage's colour, the legend's.
func (b browser) checkMap(m *page.Section, tick int) {
	b.t.Helper()
	want := mapDots(m, int64(tick))
	stages := map[string]bool{}
	for _, d := range want {
		stages[d.Stage] = true
	}
	colours := map[string]string{}
	for _, st := range page.Stages {
		colours[st] = eval[string](b, fmt.Sprintf(`%s .legend .stage-%s i`, b.sec, st), `e => getComputedStyle(e).backgroundColor`)
	}
	for i := range want {
		want[i].Colour = colours[want[i].Stage]
	}
	got := evalAll[mapDot](b, b.sec+` svg.mapview g.dots circle:not(.gone)`, `e => ({NPC: e.dataset.npc, At: e.dataset.at, Stage: e.dataset.stage, Colour: getComputedStyle(e).fill})`)
	if d := gocmp.Diff(want, got); d != "" {
		b.t.Errorf("the map at tick %d (-model +page):\n%s", tick, d)
	}
	if len(stages) < 2 {
		b.t.Errorf("the map at tick %d shows %d stages: the colour check examined too little", tick, len(stages))
	}
	if len(slices.Compact(slices.Sorted(mapValues(colours)))) != len(page.Stages) {
		b.t.Errorf("the five stages are not five colours: %v", colours)
	}
}

// mapDot is one NPC's dot on the map: where it is, the stage of its
// strongest belief and the colour the page gives it.
type mapDot struct{ NPC, At, Stage, Colour string }

// mapDots are the model's dots of the map at a tick, without colours: a
// dot per living NPC that is somewhere, at the stage of its strongest
// belief (the highest confidence, the first claim on a tie; unheard
// when it holds none).
func mapDots(m *page.Section, tick int64) []mapDot {
	var out []mapDot
	where := map[string]page.Row{}
	best := map[string]page.Row{}
	for _, r := range m.BeliefsAt(tick) {
		where[r.Holder] = r
		if cur, ok := best[r.Holder]; r.Held && (!ok || numeric(r.Confidence) > numeric(cur.Confidence)) {
			best[r.Holder] = r
		}
	}
	for _, n := range m.Actual.NPCs {
		r := where[n.ID]
		if !r.Alive || r.At == "" {
			continue
		}
		stage := "unheard"
		if b, ok := best[n.ID]; ok {
			stage = b.Stage
		}
		out = append(out, mapDot{n.ID, r.At, stage, ""})
	}
	return out
}

func numeric(s string) float64 {
	var f float64
	fmt.Sscan(s, &f)
	return f
}

func mapValues(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// checkCarriers opens T2.6 at its last tick: every carrier the model
// names has its route drawn, and the roads between holds are drawn as
// such.
func checkCarriers(t *testing.T, ctx context.Context, url string, m *page.Section) {
	t.Helper()
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="T2.6"]`}
	last := m.Rows.To
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment("T2.6", last)), b.ready())
	b.waitTick(int(last))
	if m.Map == nil || len(m.Map.Carriers) == 0 {
		t.Fatal("T2.6's model names no carrier: the map's routes check examines nothing")
	}
	// Its dots at the last tick: where the carriers took people and what
	// they had heard by then, a tick far from the first.
	if !slices.Equal(mapDots(m, last), mapDots(m, 0)) {
		b.checkMap(m, int(last))
	} else {
		t.Error("T2.6's map at its last tick is its map at tick 0: the map's tick check examines nothing")
	}
	routes := evalAll[string](b, b.sec+` svg.mapview polyline.route`, `e => e.dataset.npc`)
	if d := gocmp.Diff(m.Map.Carriers, routes); d != "" {
		t.Errorf("carriers' routes on T2.6's map (-model +page):\n%s", d)
	}
	cross := 0
	for _, r := range m.Map.Roads {
		if r.Cross {
			cross++
		}
	}
	if n := eval[int](b, "body", fmt.Sprintf(`() => document.querySelectorAll('%s svg.mapview line.road.cross').length`, b.sec)); n != cross || n == 0 {
		t.Errorf("T2.6's map draws %d roads between holds, the model has %d", n, cross)
	}
	b.shoot("page-carriers.png", b.sec+` .panel.map`)
}

// checkWhyNot opens T2.6 at tick 100, follows the "why not?" link of the
// first NPC there that does not hold a claim, and holds what the page
// shows to what `ladder why-not` answers from the same run's files
// (package whynot, the command's own code), line for line.
func checkWhyNot(t *testing.T, ctx context.Context, url string, in page.Input) {
	t.Helper()
	const at = 100
	f := loadRung(t, "T2.6-carrier.yaml")[0]
	run, err := whynot.Open(f.Name(), filepath.Dir(string(in.Trace.(page.Path))), whynot.WorldOf(f))
	if err != nil {
		t.Fatal(err)
	}
	var want *whynot.Answer
	for _, npc := range run.NPCs() {
		for _, claim := range run.Claims() {
			if want == nil && !run.Holds(npc, claim, at) {
				if want, err = run.Explain(npc, claim, at); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if want == nil {
		t.Fatalf("everyone in T2.6 holds every claim at tick %d: the why-not link check examines nothing", at)
	}
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="T2.6"]`}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment("T2.6", at)), b.ready())
	b.waitTick(at)
	link := fmt.Sprintf(`%s table.beliefs tr[data-holder=%q] a.whynot[href$=%q]`, b.sec, want.NPC, "/whynot="+want.NPC+":"+want.Claim)
	b.do(chromedp.Click(chromedp.CSS(link)))
	if !b.waitFor(fmt.Sprintf(`!document.querySelector('%s .panel.whynot').hidden`, b.sec)) {
		t.Fatal("following the why-not link shows no answer")
	}
	var lines []string
	for _, l := range want.Body() {
		lines = append(lines, strings.TrimSpace(l))
	}
	got := evalAll[string](b, b.sec+` .panel.whynot ol.whynot li`, `e => e.textContent`)
	if d := gocmp.Diff(lines, got); d != "" {
		t.Errorf("the why-not answer for %s and %s at tick %d (-ladder why-not +page):\n%s", want.NPC, want.Claim, at, d)
	}
	question := fmt.Sprintf("Why doesn't %s hold %s at tick %d?", want.NPC, want.Claim, at)
	if q := eval[string](b, b.sec+` .panel.whynot .wnq`, `e => e.textContent`); q != question {
		t.Errorf("the why-not panel asks %q, want %q", q, question)
	}
	if h, frag := eval[string](b, "body", `() => location.hash`), "#"+page.FragmentTo("T2.6", at, page.WhyNotTarget(want.NPC, want.Claim)); h != frag {
		t.Errorf("after following the why-not link the address is %q, want %q", h, frag)
	}
	b.shoot("page-whynot.png", b.sec+` .panel.whynot`)
}

// checkSweep opens the failing sweep: its bounds table row by row, a plot
// of each aggregate with a dot per seed, and the link that opens the kept
// seed's world as an ordinary section.
func checkSweep(t *testing.T, ctx context.Context, url string, models map[string]*page.Section, ins []page.Input) {
	t.Helper()
	m, world := models[ins[0].Name], models[ins[1].Name]
	b := browser{t: t, ctx: ctx, sec: fmt.Sprintf(`section.rung[data-name=%q]`, m.Name)}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment(m.Name, -1)), b.ready())
	v := m.Sweep
	if v == nil || len(v.Bounds) == 0 {
		t.Fatal("the sweep's model has no bounds")
	}
	var want []string
	for _, bd := range v.Bounds {
		verdict := "holds"
		if !bd.Holds {
			verdict = "does not hold"
		}
		want = append(want, bd.Aggregate+"|"+bd.Text(bd.Mean)+"|"+bd.Text(bd.Deviation)+"|"+bd.Text(bd.HalfWidth)+"|"+verdict)
	}
	got := evalAll[string](b, b.sec+` table.bounds tbody tr`, `e => [0, 3, 4, 5, 7].map(i => e.children[i].textContent).join("|")`)
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("the bounds table (-summary +page):\n%s", d)
	}
	dots := evalAll[int](b, b.sec+` figure.distribution`, `e => e.querySelectorAll("circle.seed").length`)
	if len(dots) != len(v.Columns) {
		t.Errorf("%d distribution plots, want one per aggregate (%d)", len(dots), len(v.Columns))
	}
	for i, n := range dots {
		if n != len(v.SeedIDs) {
			t.Errorf("plot %d has %d seeds, want %d", i, n, len(v.SeedIDs))
		}
	}
	b.shoot("page-sweep.png", b.sec+` .panel.sweep`)
	b.do(chromedp.Click(chromedp.CSS(b.sec + ` p.seedworld a`)))
	// The link is a plain one: the address changes, then the page opens
	// the section (hashchange comes after the click returns).
	w := browser{t: t, ctx: ctx, sec: fmt.Sprintf(`section.rung[data-name=%q]`, world.Name)}
	if !w.waitFor(fmt.Sprintf(`document.querySelector('%s').classList.contains("focus") && document.querySelector('%[1]s details').open`, w.sec)) {
		t.Fatal("the seed world's link does not open its section")
	}
	w.waitTick(int(w.defaultTick(world)))
	if n := eval[int](w, "body", fmt.Sprintf(`() => document.querySelectorAll('%s table.beliefs tbody tr[data-holder]').length`, w.sec)); n == 0 {
		t.Error("the seed world's section shows no belief row")
	}
}

func (b browser) defaultTick(s *page.Section) int64 {
	return int64(eval[int](b, b.sec, `e => +e.dataset.default`))
}

// checkPlainLoad loads #T3.2@40 as a person's browser does, with no
// driver waiting for the script: Chromium's own --dump-dom and
// --screenshot. The dumped page must show the T3.2 section alone at tick
// 40, and the picture must not be blank.
func checkPlainLoad(t *testing.T, exe, url string, m *page.Section) {
	t.Helper()
	tick := min(40, int(m.Rows.To))
	frag := url + "#" + page.Fragment("T3.2", int64(tick))
	args := func(extra ...string) []string {
		return append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
			"--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir(), "--window-size=1400,1000"}, extra...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dom, err := exec.CommandContext(ctx, exe, args("--dump-dom", frag)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	// The section as the script left it: focused, open, every view at the
	// tick.
	sec := regexp.MustCompile(`(?s)<section class="([^"]*)"[^>]*data-name="T3\.2"[^>]*>(.*?)</section>`).FindSubmatch(dom)
	switch {
	case !bytes.Contains(dom, []byte(`<body class="focused" data-ready="1">`)):
		t.Errorf("a plain load of #T3.2@%d does not end with the page focused on a section and ready", tick)
	case sec == nil || !strings.Contains(string(sec[1]), "focus"):
		t.Errorf("a plain load of #T3.2@%d does not show the T3.2 section alone", tick)
	default:
		nows := regexp.MustCompile(`<span class="now">(\d+)</span>`).FindAllSubmatch(sec[2], -1)
		if len(nows) < 3 {
			t.Errorf("the T3.2 section of a plain load has %d views as of a tick, want the map, beliefs, feed…", len(nows))
		}
		for _, n := range nows {
			if string(n[1]) != fmt.Sprint(tick) {
				t.Errorf("a plain load of #T3.2@%d shows a view at tick %s", tick, n[1])
			}
		}
		if !bytes.Contains(sec[2], []byte("<details open")) || !bytes.Contains(sec[2], []byte(`<tr class=`)) {
			t.Errorf("a plain load of #T3.2@%d leaves the section closed or its belief table empty", tick)
		}
	}
	out := filepath.Join(root, "reports", "page-cli-T3.2.png")
	if err := report.Adopt(filepath.Dir(out)); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.CommandContext(ctx, exe, args("--screenshot="+out, frag)...).Output(); err != nil {
		t.Fatalf("chromium --screenshot: %v", err)
	}
	img, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := colours(t, img); n < 16 {
		t.Errorf("chromium --screenshot of #T3.2@%d has %d colours: it is blank", tick, n)
	}
}

// colours counts the distinct colours of a PNG.
func colours(t *testing.T, b []byte) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[4]uint32]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			c := img.At(x, y)
			k := [4]uint32{}
			k[0], k[1], k[2], k[3] = c.RGBA()
			seen[k] = true
		}
	}
	return len(seen)
}

// checkSocialPanels walks T3.3 from before its first grudge to after it,
// and T5.1 from the steward's vacancy to the successor's appointment —
// both found in the engine's own state, not written here — checking the
// panel against the engine at each end; then, from T5.1's last tick,
// follows the steward's last record to the rule evaluation behind it.
func checkSocialPanels(t *testing.T, ctx context.Context, url string, models []*page.Section, engine [][][]socialRow) {
	t.Helper()
	first := func(rows [][]socialRow, ok func(socialRow) bool) int {
		for tick, rs := range rows {
			if slices.ContainsFunc(rs, ok) {
				return tick
			}
		}
		return -1
	}
	grudge := first(engine[0], func(r socialRow) bool { return r.Block == "grudge" })
	vacant := first(engine[1], func(r socialRow) bool { return r.Block == "role" && strings.Contains(r.Values, "|True|") })
	appointed := -1
	if vacant >= 0 {
		appointed = first(engine[1][vacant:], func(r socialRow) bool {
			return r.Block == "role" && !strings.HasPrefix(r.Values, "|") && strings.Contains(r.Values, "|False|")
		})
		if appointed >= 0 {
			appointed += vacant
		}
	}
	if grudge < 1 || vacant < 0 || appointed < 0 {
		t.Fatalf("the engine shows no grudge forming in T3.3 (%d) or no vacancy and appointment in T5.1 (%d, %d): the walk examines nothing", grudge, vacant, appointed)
	}
	for i, walk := range []struct {
		name     string
		from, to int
	}{{"T3.3", grudge - 1, min(grudge+5, len(engine[0])-1)}, {"T5.1", vacant, appointed}} {
		b := browser{t: t, ctx: ctx, sec: fmt.Sprintf(`section.rung[data-name=%q]`, walk.name)}
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment(walk.name, int64(walk.from))), b.ready())
		if n := eval[int](b, "body", fmt.Sprintf(`() => document.querySelectorAll('%s .panel.social').length`, b.sec)); n != 1 {
			t.Fatalf("section %s has %d social-state panels, want 1", walk.name, n)
		}
		b.waitTick(walk.from)
		b.checkSocial(models[i], engine[i], walk.from)
		b.do(chromedp.Focus(chromedp.CSS(b.sec + ` input.scrub`)))
		for range walk.to - walk.from {
			b.do(chromedp.KeyEvent(kb.ArrowRight))
		}
		b.waitTick(walk.to)
		b.checkSocial(models[i], engine[i], walk.to)
	}
	m := models[1]
	last := int(m.Rows.To)
	var steward *page.SocialRow
	for _, r := range m.SocialAt(int64(last)) {
		if r.Block == "role" && r.Last != nil {
			steward = &r
		}
	}
	if steward == nil || steward.Last.RuleSeq < 0 {
		t.Fatal("T5.1's model has no role whose last record names a rule evaluation")
	}
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="T5.1"]`}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment("T5.1", int64(last))), b.ready())
	b.waitTick(last)
	b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s table.social[data-block="role"] tr[data-key=%q] td.c-last a`, b.sec, steward.Key))))
	b.waitTick(int(steward.Last.Tick))
	if seqs := evalAll[string](b, b.sec+` table.rulelog tr.linked`, `e => e.dataset.seq`); !slices.Equal(seqs, []string{fmt.Sprint(steward.Last.RuleSeq)}) {
		t.Errorf("following the role's last record marks rule-log rows %q, want seq %d", seqs, steward.Last.RuleSeq)
	}
	if h := eval[string](b, "body", `() => location.hash`); h != "#"+page.Fragment("T5.1", steward.Last.Tick) {
		t.Errorf("following the role's last record leaves the fragment %q, want #%s", h, page.Fragment("T5.1", steward.Last.Tick))
	}
}

// checkSocial compares the social-state panel the page shows with the
// engine's social state at the tick, cell by visible cell, and each row's
// last record with the model's.
func (b browser) checkSocial(model *page.Section, engine [][]socialRow, tick int) {
	b.t.Helper()
	fields := map[string][]string{}
	for _, bl := range page.Blocks {
		fields[bl.Name] = bl.Fields
	}
	type shown struct {
		Row  socialRow
		Last string
	}
	var want []shown
	for i, r := range engine[tick] {
		last := "—"
		if rows := model.SocialAt(int64(tick)); i < len(rows) && rows[i].Last != nil {
			last = rows[i].Last.Text()
		}
		want = append(want, shown{r, last})
	}
	got := evalAll[shown](b, b.sec+` table.social tbody tr`, fmt.Sprintf(`e => { const block = e.closest("table").dataset.block, fields = %s[block];
		const v = f => { const t = e.querySelector(".c-" + f).firstChild.nodeValue; return t === "—" ? "" : t; };
		return {Row: {Block: block, Key: e.dataset.key, Values: fields.map(v).join("|")}, Last: e.querySelector(".c-last").textContent}; }`, mustJSON(b.t, fields)))
	if d := gocmp.Diff(want, got); d != "" {
		b.t.Errorf("social-state panel at tick %d (-engine and model +page):\n%s", tick, d)
	}
	if len(got) == 0 {
		b.t.Errorf("the social-state panel at tick %d is empty: the check examined nothing", tick)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// browser is one tab on the page under test.
type browser struct {
	t   *testing.T
	ctx context.Context
	sec string // the section's selector
}

func (b browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// ready waits for the page's script to finish setting up.
func (b browser) ready() chromedp.Action[chromedp.Void] {
	return chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]`))
}

// tick returns the tick the section's scrubber is at.
func (b browser) tick() int {
	b.t.Helper()
	return eval[int](b, b.sec+` input.scrub`, `e => +e.value`)
}

// waitTick waits until the scrubber, the tick number and the panels'
// headings all say tick.
func (b browser) waitTick(tick int) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { const s = document.querySelector(%q);
		return s.querySelector("input.scrub").value === "%[2]d" && s.querySelector("input.tickno").value === "%[2]d" &&
			[...s.querySelectorAll(".now")].every(e => e.textContent === "%[2]d"); })()`, b.sec, tick)
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js)); err != nil {
		state := eval[string](b, b.sec, `s => s.querySelector("input.scrub").value + "/" + s.querySelector("input.tickno").value + "/" + [...s.querySelectorAll(".now")].map(e => e.textContent).join(",")`)
		b.t.Fatalf("the page never showed tick %d (scrubber/number/headings: %s): %v", tick, state, err)
	}
}

// waitFor polls a condition for up to ten seconds and reports whether it
// came true.
func (b browser) waitFor(js string) bool {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool]("(() => "+js+")()"))
	return err == nil
}

// checkBeliefs compares the belief table the page shows with the engine's
// state at the tick, cell by visible cell.
func (b browser) checkBeliefs(engine [][]beliefRow, tick int) {
	b.t.Helper()
	var want []beliefRow
	for _, r := range engine[tick] {
		if r.Claim == "" {
			r.Claim, r.Variant, r.Confidence = "—", "—", "—"
		}
		want = append(want, r)
	}
	got := evalAll[beliefRow](b, b.sec+` table.beliefs tbody tr:not([data-held="0"]:not([data-claim=""]))`,
		`e => { const c = k => e.querySelector(".c-" + k).firstChild.textContent;
			return {Holder: e.dataset.holder, Claim: c("claim"), Variant: c("variant"), Confidence: c("confidence"), Stage: c("stage")}; }`)
	if d := gocmp.Diff(want, got); d != "" {
		b.t.Errorf("belief table at tick %d (-engine +page):\n%s", tick, d)
	}
}

// checkEvidence holds every evidence chain and every golden value the
// table shows at a tick to the model's.
func (b browser) checkEvidence(model *page.Section, tick int) {
	b.t.Helper()
	type row struct {
		Holder, Claim string
		Evidence      []string
		Golden        string
	}
	var want []row
	for _, r := range model.BeliefsAt(int64(tick)) {
		if !r.Held {
			continue
		}
		w := row{Holder: r.Holder, Claim: r.Claim, Evidence: []string{}}
		for _, e := range r.Evidence {
			who := "saw it"
			if e.Type != "witnessed" {
				who = strings.Join(append(slices.Clone(e.Chain), r.Holder), " → ")
			}
			text := fmt.Sprintf("t%d %s: %s via %s, %s at %s", e.Tick, e.Type, who, e.Via, e.Variant, e.Confidence)
			if !e.Counted {
				text += " (not counted)"
			}
			w.Evidence = append(w.Evidence, text)
		}
		if r.Golden != nil && r.Golden.Confidence != r.Confidence {
			w.Golden = "golden: " + r.Golden.Confidence
		}
		want = append(want, w)
	}
	got := evalAll[row](b, b.sec+` table.beliefs tbody tr[data-held="1"]`, `e => ({Holder: e.dataset.holder, Claim: e.dataset.claim,
		Evidence: [...e.querySelectorAll("td.ev div")].map(d => d.textContent), Golden: (e.querySelector(".c-confidence .golden") || {}).textContent || ""})`)
	if d := gocmp.Diff(want, got); d != "" {
		b.t.Errorf("evidence chains and golden values at tick %d (-model +page):\n%s", tick, d)
	}
	if !slices.ContainsFunc(want, func(r row) bool { return r.Golden != "" }) {
		b.t.Errorf("no belief at tick %d differs from the golden: the overlay check examined nothing", tick)
	}
}

// checkFeed compares the feed the page shows with the page model's.
func (b browser) checkFeed(model *page.Section, tick int) {
	b.t.Helper()
	recs, _ := model.FeedAt(int64(tick))
	var want []string
	for _, r := range recs {
		want = append(want, fmt.Sprintf("%s %d", r.Kind, r.Seq))
	}
	got := evalAll[string](b, b.sec+` ol.feed li:not(.empty)`, `e => e.dataset.kind + " " + e.dataset.seq`)
	if d := gocmp.Diff(want, got); d != "" {
		b.t.Errorf("feed at tick %d (-model +page):\n%s", tick, d)
	}
	if len(got) == 0 {
		b.t.Errorf("feed at tick %d is empty: the check examined nothing", tick)
	}
}

// shoot leaves a picture of one element in reports/.
func (b browser) shoot(name, sel string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatal(err)
	}
	b.save(name, png)
}

// shootViewport leaves a picture of what the window shows.
func (b browser) shootViewport(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatal(err)
	}
	b.save(name, png)
}

func (b browser) save(name string, png []byte) {
	b.t.Helper()
	out := filepath.Join(root, "reports", name)
	if err := writeAtomic(out, png); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: reports/%s (%d bytes)", name, len(png))
}

// styleJS summarises what makes a feed line stand out.
const styleJS = `const style = e => { const s = getComputedStyle(e);
	return [s.fontSize, s.fontWeight, s.fontFamily, s.opacity, s.color, s.borderLeftWidth].join(";"); };`

// eval runs fn on the first element matching sel and returns its result.
func eval[T any](b browser, sel, fn string) T {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { %s const e = document.querySelector(%q); if (!e) throw new Error("no element " + %[2]q); return (%s)(e); })()`, styleJS, sel, fn)
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%s: %v", sel, err)
	}
	return v
}

// evalAll runs fn on every element matching sel.
func evalAll[T any](b browser, sel, fn string) []T {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { %s return [...document.querySelectorAll(%q)].map(%s); })()`, styleJS, sel, fn)
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]T](js))
	if err != nil {
		b.t.Fatalf("%s: %v", sel, err)
	}
	return v
}

// writeAtomic writes data to a temporary file beside path, then renames
// it. Its directory is reports/, made as a run makes it (report.Adopt),
// so that a later make ladder may clear it.
func writeAtomic(path string, data []byte) error {
	if err := report.Adopt(filepath.Dir(path)); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// checkCauses follows a sample of every kind of cause link in T2.2 (a
// mutation, then a contest the loser's holder switched in) and holds each
// to the record the page model says it names: the belief table's
// strengths, its variant (to the mutation, and to the contest), confidence
// and sources cells; a transmission's encounter, a mutation roll's
// transmission and a belief change's contest in the feed; a variant's slot
// diff in the tree.
func checkCauses(t *testing.T, ctx context.Context, url string, m *page.Section) {
	t.Helper()
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="` + m.Name + `"]`}
	// The first contest in which a holder switched to another variant,
	// and the mutation that made that variant.
	var sup page.Record
	for _, r := range m.Feed {
		if r.Kind == page.KindSupersession && r.Fields[5] == "switched" {
			sup = r
			break
		}
	}
	if sup.Kind == "" {
		t.Fatalf("%s has no contest a holder switched in: the cause links examine nothing", m.Name)
	}
	holder, claim, variant := sup.Fields[0], sup.Fields[1], sup.Fields[2]
	var made page.Maker
	for _, mk := range m.Makers() {
		if mk.Variant == variant {
			made = mk
		}
	}
	mut := recordBySeq(m, made.Seq)
	if mut == nil || mut.Kind != page.KindRule || mut.Fields[0] != "mutation-policy" || !mut.Fired {
		t.Fatalf("%s: the record that made %s is %+v, want a fired mutation-policy evaluation", m.Name, variant, mut)
	}
	// follow clicks a link and returns the feed rows it marks, as
	// "kind seq", at the tick it moves to.
	follow := func(sel string, tick int64) []string {
		t.Helper()
		b.do(chromedp.Click(chromedp.CSS(sel)))
		b.waitTick(int(tick))
		// A link with no handler of its own (the tree's) is followed
		// when the address changes, after the click returns.
		b.waitFor(fmt.Sprintf(`document.querySelectorAll('%s ol.feed li.target').length > 0`, b.sec))
		return evalAll[string](b, b.sec+` ol.feed li.target`, `e => e.dataset.kind + " " + e.dataset.seq`)
	}
	open := func(tick int64) {
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment(m.Name, tick)), b.ready())
		b.waitTick(int(tick))
	}
	row := func(h, c string) string {
		return fmt.Sprintf(`%s table.beliefs tr[data-holder=%q][data-claim=%q]`, b.sec, h, c)
	}
	want := func(what string, got []string, r *page.Record) {
		t.Helper()
		if w := fmt.Sprintf("%s %d", r.Kind, r.Seq); len(got) == 0 || got[0] != w {
			t.Errorf("%s marks %q, want %q", what, got, w)
		}
	}

	// The strengths: every held row's verbatim and gist are the model's
	// (the dense CSV's), and present.
	open(sup.Tick)
	type strength struct{ Holder, Claim, Verbatim, Gist string }
	var wantStr []strength
	for _, r := range m.BeliefsAt(sup.Tick) {
		if r.Held {
			if r.Verbatim == "" || r.Gist == "" {
				t.Errorf("the model has no strengths for %s/%s at tick %d", r.Holder, r.Claim, sup.Tick)
			}
			wantStr = append(wantStr, strength{r.Holder, r.Claim, r.Verbatim, r.Gist})
		}
	}
	gotStr := evalAll[strength](b, b.sec+` table.beliefs tbody tr[data-held="1"]`, `e => ({Holder: e.dataset.holder, Claim: e.dataset.claim,
		Verbatim: e.querySelector(".c-verbatim").textContent, Gist: e.querySelector(".c-gist").textContent})`)
	if d := gocmp.Diff(wantStr, gotStr); d != "" || len(wantStr) == 0 {
		t.Errorf("verbatim and gist at tick %d (-model +page):\n%s", sup.Tick, d)
	}

	// The switched holder's variant links the contest; its confidence the
	// belief record that set it; its sources the evidence counted.
	want("the switched holder's variant", follow(row(holder, claim)+` td.c-variant a`, sup.Tick), &sup)
	// Confidence: a belief whose last record kept the value an earlier
	// one set (a retelling, say), so that the link must reach past it.
	setBy := func(h, c string, tick int64) (set, last *page.Record) {
		for i := range m.Feed {
			if r := &m.Feed[i]; r.Kind == page.KindBelief && r.Tick <= tick && r.Fields[0] == h && r.Fields[1] == c {
				if set == nil || set.Fields[4] != r.Fields[4] {
					set = r
				}
				last = r
			}
		}
		return set, last
	}
	var set *page.Record
	var at page.Record
	for _, r := range m.Feed {
		if r.Kind != page.KindBelief {
			continue
		}
		if s, last := setBy(r.Fields[0], r.Fields[1], r.Tick); s != last && set == nil {
			set, at = s, r
		}
	}
	if set == nil {
		t.Fatalf("%s has no belief whose last record kept its confidence: the confidence link examines nothing", m.Name)
	}
	open(at.Tick)
	want("the confidence of "+at.Fields[0]+"/"+at.Fields[1], follow(row(at.Fields[0], at.Fields[1])+` td.c-confidence a`, set.Tick), set)
	open(sup.Tick)
	counted := 0
	for _, r := range m.BeliefsAt(sup.Tick) {
		if r.Holder == holder && r.Claim == claim {
			for _, e := range r.Evidence {
				if e.Counted {
					counted++
				}
			}
		}
	}
	b.do(chromedp.Click(chromedp.CSS(row(holder, claim) + ` td.c-sources a`)))
	if !b.waitFor(fmt.Sprintf(`document.querySelectorAll('%s td.ev div.evidence.counted.target').length === %d`, row(holder, claim), counted)) || counted == 0 {
		t.Errorf("following %s's sources does not mark its %d counted evidence items", holder, counted)
	}

	// The mutated variant's first holder: its variant links the mutation.
	var first *page.Record
	for i := range m.Feed {
		if r := &m.Feed[i]; r.Kind == page.KindBelief && r.Fields[2] == variant && first == nil {
			first = r
		}
	}
	open(first.Tick)
	want("the mutated variant's first holder's variant", follow(row(first.Fields[0], claim)+` td.c-variant a`, mut.Tick), mut)

	// The feed: the mutation's roll links the transmission it decided,
	// which links its encounter; the switched holder's belief change
	// links its contest.
	open(mut.Tick)
	var tr, enc *page.Record
	recs, _ := m.FeedAt(mut.Tick)
	for i := range recs {
		r := &recs[i]
		if r.Kind == page.KindTransmission && r.Seq > mut.Seq && r.Fields[3] == variant && tr == nil {
			tr = r
		}
	}
	for i := range recs {
		if r := &recs[i]; r.Kind == page.KindEncounter && tr != nil && r.ID == tr.Fields[6] {
			enc = r
		}
	}
	if tr == nil || enc == nil {
		t.Fatalf("no transmission of %s and its encounter at tick %d", variant, mut.Tick)
	}
	listener, _, _ := strings.Cut(mut.Fields[1], "<-")
	b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s ol.feed li[data-seq="%d"] .subject a`, b.sec, mut.Seq))))
	if !b.waitFor(fmt.Sprintf(`document.querySelectorAll('%s table.beliefs tr.target[data-holder=%q]').length > 0`, b.sec, listener)) {
		t.Errorf("following the subject %s of the mutation record marks no belief of %s", mut.Fields[1], listener)
	}
	open(mut.Tick)
	want("the mutation roll", follow(fmt.Sprintf(`%s ol.feed li[data-seq="%d"] a.ref`, b.sec, mut.Seq), mut.Tick), tr)
	want("the transmission's via", follow(fmt.Sprintf(`%s ol.feed li[data-seq="%d"] a.ref`, b.sec, tr.Seq), mut.Tick), enc)
	open(sup.Tick)
	var change *page.Record
	for i := range m.Feed {
		if r := &m.Feed[i]; r.Kind == page.KindBelief && r.Tick == sup.Tick && r.Seq > sup.Seq && r.Fields[0] == holder && change == nil {
			change = r
		}
	}
	want("the switched holder's belief change", follow(fmt.Sprintf(`%s ol.feed li[data-seq="%d"] a.ref`, b.sec, change.Seq), sup.Tick), &sup)

	// The rule log as of the tick: exactly the tick's evaluations, and a
	// button to the next tick that has any.
	open(mut.Tick)
	checkRuleLog(b, m, mut.Tick)

	// The variant tree: the mutated variant's slot diff links its mutation.
	open(mut.Tick)
	sel := fmt.Sprintf(`%s .panel.variants li.variant[data-tick="%d"] a.diff`, b.sec, made.Tick)
	want("the slot diff of "+variant, follow(sel, mut.Tick), mut)
}

// checkTrigger follows a social change's trigger ("← death@…") in
// T5.1's social diff to its event's record.
func checkTrigger(t *testing.T, ctx context.Context, url string, m *page.Section) {
	t.Helper()
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="` + m.Name + `"]`}
	var c page.SocialChange
	var evt *page.Record
	for _, x := range m.Social {
		for i := range m.Feed {
			if r := &m.Feed[i]; r.Kind == page.KindEvent && r.Fields[0] == x.Cause && evt == nil {
				c, evt = x, r
			}
		}
	}
	if evt == nil {
		t.Fatalf("%s has no social change triggered by an event: the trigger link examines nothing", m.Name)
	}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment(m.Name, c.Tick)), b.ready())
	b.waitTick(int(c.Tick))
	sel := fmt.Sprintf(`%s ol.socialdiff a.trigger`, b.sec)
	if got := eval[string](b, sel, `e => e.textContent`); got != c.Cause {
		t.Errorf("the first trigger link reads %q, want %q", got, c.Cause)
	}
	b.do(chromedp.Click(chromedp.CSS(sel)))
	b.waitTick(int(evt.Tick))
	if got := evalAll[string](b, b.sec+` ol.feed li.target`, `e => e.dataset.seq`); !slices.Equal(got, []string{fmt.Sprint(evt.Seq)}) {
		t.Errorf("following the trigger %s marks %q, want the event's seq %d", c.Cause, got, evt.Seq)
	}
}

// recordBySeq returns the embedded record with a seq, nil when none.
func recordBySeq(m *page.Section, seq int64) *page.Record {
	for i := range m.Feed {
		if m.Feed[i].Seq == seq {
			return &m.Feed[i]
		}
	}
	return nil
}

// checkRuleLog holds the rule log at a tick to the model's evaluations of
// that tick, then follows its "next" button to the next tick that has
// any and holds the log there too.
func checkRuleLog(b browser, m *page.Section, tick int64) {
	b.t.Helper()
	rulesAt := func(t int64) []string {
		out := []string{}
		recs, _ := m.FeedAt(t)
		for _, r := range recs {
			if r.Kind == page.KindRule {
				out = append(out, fmt.Sprint(r.Seq))
			}
		}
		return out
	}
	next := int64(-1)
	for _, r := range m.Feed {
		if r.Kind == page.KindRule && r.Tick > tick {
			next = r.Tick
			break
		}
	}
	if len(rulesAt(tick)) == 0 || next < 0 {
		b.t.Fatalf("%s has no rule evaluation at tick %d or none after it: the rule log check examines nothing", m.Name, tick)
	}
	for _, t := range []int64{tick, next} {
		if t == next {
			b.do(chromedp.Click(chromedp.CSS(b.sec + ` .rulenav button.next`)))
			b.waitTick(int(t))
		}
		if got := evalAll[string](b, b.sec+` table.rulelog tbody tr[data-seq]`, `e => e.dataset.seq`); !slices.Equal(got, rulesAt(t)) {
			b.t.Errorf("the rule log at tick %d shows seqs %q, want the tick's evaluations %q", t, got, rulesAt(t))
		}
	}
}
