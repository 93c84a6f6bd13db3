//go:build browser

package page_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/chronicle/ladder/ladder/page"
)

// Screenshot is where TestBrowser leaves a picture of the failing
// section, relative to the repository root.
const Screenshot = "reports/page-screenshot.png"

// findBrowser returns the Chromium to drive: $LADDER_CHROME, or the first
// of chromium, chromium-browser and google-chrome on PATH.
func findBrowser() (string, []string) {
	names := []string{"chromium", "chromium-browser", "google-chrome"}
	if p := os.Getenv("LADDER_CHROME"); p != "" {
		return p, names
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p, names
		}
	}
	return "", names
}

// TestBrowser opens the triage page of a failing run in headless Chromium
// and uses it as a person would: it checks that the failing section and
// its failure lines are shown, moves the scrubber with the keyboard and
// compares the belief table with the engine's own state at that tick,
// follows a failure line's link, checks the feed shows a declined
// encounter exactly as it shows a fired one, checks the URL fragment
// follows the scrubber, reloads and loads fresh URLs with fragments, and
// leaves a screenshot in reports/.
func TestBrowser(t *testing.T) {
	exe, names := findBrowser()
	if exe == "" {
		banner := strings.Repeat("!", 78)
		fmt.Fprintf(os.Stderr, "\n%s\nbrowser: WARNING: SKIPPED the triage page's browser test: no %s on PATH\n"+
			"browser: (and LADDER_CHROME is not set). Install one, e.g. apt-get install chromium; .ci/run does.\n%s\n\n",
			banner, strings.Join(names, ", "), banner)
		t.Skip("no browser: the triage page was not tested in a browser")
	}

	f, failing := failingRun(t)
	passing := passingRun(t, loadRung(t, "T0.1-witness.yaml")[0])
	favours, vacancy := loadRung(t, "T3.3-favor-ledger.yaml")[0], loadRung(t, "T5.1-vacancy.yaml")[0]
	socialInputs := []page.Input{passingRun(t, favours), passingRun(t, vacancy)}
	html, err := page.Page(append([]page.Input{passing, failing}, socialInputs...), page.Options{})
	if err != nil {
		t.Fatal(err)
	}
	model, err := page.Build(failing, page.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if model.Divergence != 12 {
		t.Fatalf("the planted failure should diverge at tick 12, the model says %d", model.Divergence)
	}
	file := filepath.Join(t.TempDir(), "index.html")
	if err := page.Write(file, html); err != nil {
		t.Fatal(err)
	}
	url := "file://" + file
	engine := engineRows(t, f)

	base, stop := context.WithTimeout(context.Background(), 2*time.Minute)
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
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="T1.1"]`}
	b.do(chromedp.Navigate(url+"#"+page.Fragment("T1.1", -1)), b.ready())

	// The failing section is open and leads with the gate's failure lines,
	// each naming a tick linked to it; the passing one stays closed.
	if !eval[bool](b, b.sec+` details`, `e => e.open && e.getBoundingClientRect().height > 0`) {
		t.Fatal("the failing section T1.1 is not open")
	}
	if eval[bool](b, `section.rung[data-name="T0.1"] details`, `e => e.open`) {
		t.Error("the passing section T0.1 is open")
	}
	shown := evalAll[string](b, b.sec+` ol.failures li`, `e => e.textContent`)
	if d := cmp.Diff(failing.Failures, shown); d != "" {
		t.Errorf("failure lines shown (-gate +page):\n%s", d)
	}
	for i, visible := range evalAll[bool](b, b.sec+` ol.failures li`, `e => e.offsetParent !== null && e.getBoundingClientRect().height > 0`) {
		if !visible {
			t.Errorf("failure line %d is in the page but not shown", i+1)
		}
	}
	links := evalAll[string](b, b.sec+` ol.failures li a`, `e => e.getAttribute("href")`)
	if len(links) == 0 || !slices.Contains(links, "#T1.1@12") {
		t.Errorf("no failure line links to the divergence #T1.1@12: %q", links)
	}
	if got := b.tick(); got != 12 {
		t.Errorf("the scrubber opens at tick %d, want the first divergence 12", got)
	}

	// Moving the scrubber: the table is the engine's state at that tick,
	// and the fragment follows.
	b.do(chromedp.Focus(chromedp.CSS(b.sec + ` input.scrub`)))
	for range 18 {
		b.do(chromedp.KeyEvent(kb.ArrowRight))
	}
	b.waitTick(30)
	b.checkBeliefs(engine, 30)
	if h := eval[string](b, "body", `() => location.hash`); h != "#T1.1@30" {
		t.Errorf("after moving the scrubber the fragment is %q, want #T1.1@30", h)
	}
	ev := evalAll[string](b, b.sec+` table.beliefs tr[data-holder="neighbor"] td.ev div`, `e => e.textContent`)
	if want := "t12 reported: witness → neighbor via encounter@12/whiterun_market/[neighbor,witness], theft@2#v0 at 0.63"; !slices.Contains(ev, want) {
		t.Errorf("neighbor's evidence chain at tick 30 is %q, want it to contain %q", ev, want)
	}
	golden := evalAll[string](b, b.sec+` table.beliefs tr[data-holder="neighbor"] .c-confidence .golden`, `e => e.textContent`)
	if d := cmp.Diff([]string{"golden: 0.7200000000000001"}, golden); d != "" {
		t.Errorf("the golden's confidence beside the run's (-want +got):\n%s", d)
	}

	// Reloading keeps the state; a fresh load of a URL with a fragment
	// restores the state it names.
	b.do(chromedp.Reload(), b.ready())
	b.waitTick(30)
	b.checkBeliefs(engine, 30)
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#T1.1@5"), b.ready())
	b.waitTick(5)
	b.checkBeliefs(engine, 5)

	// A failure line's link goes to its tick; the feed there shows the
	// fired encounter, and two ticks earlier the declined one, listed the
	// same way: same font, same weight, nothing faded.
	b.do(chromedp.Click(chromedp.CSS(b.sec + ` ol.failures li a[href="#T1.1@12"]`)))
	b.waitTick(12)
	b.checkBeliefs(engine, 12)
	b.checkFeed(model, 12)
	fired := eval[string](b, b.sec+` ol.feed li[data-kind="encounter"]`, `e => e.textContent + "|" + style(e)`)
	b.do(chromedp.Focus(chromedp.CSS(b.sec+` input.scrub`)), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft))
	b.waitTick(10)
	b.checkBeliefs(engine, 10)
	b.checkFeed(model, 10)
	declined := eval[string](b, b.sec+` ol.feed li[data-kind="encounter"]`, `e => e.textContent + "|" + style(e)`)
	wantFired := "metencounterneighbor & witness at whiterun_market: roll 0.01 < 0.5 (pinned)"
	wantDeclined := "did not meetencounterneighbor & witness at whiterun_market: roll 0.99 ≥ 0.5 (pinned)"
	fText, fStyle, _ := strings.Cut(fired, "|")
	dText, dStyle, _ := strings.Cut(declined, "|")
	if fText != wantFired || dText != wantDeclined {
		t.Errorf("encounters in the feed:\n got %q\n and %q\nwant %q\n and %q", fText, dText, wantFired, wantDeclined)
	}
	if fStyle != dStyle {
		t.Errorf("a declined encounter is styled %q, a fired one %q: negative results must carry equal weight", dStyle, fStyle)
	}

	// The social-state panel: none for the Tier 0–2 sections, one for
	// each social rung, showing the engine's state at the scrubber's tick.
	for _, name := range []string{"T0.1", "T1.1"} {
		if n := eval[int](b, "body", fmt.Sprintf(`() => document.querySelectorAll('section.rung[data-name=%q] .panel.social').length`, name)); n != 0 {
			t.Errorf("the Tier 0–2 section %s has %d social-state panels, want none", name, n)
		}
	}
	checkSocialPanels(t, ctx, url, []*page.Section{buildSection(t, socialInputs[0]), buildSection(t, socialInputs[1])},
		[][][]socialRow{engineSocial(t, favours), engineSocial(t, vacancy)})

	// The picture a person gets: the failing section at its divergence.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#T1.1@12"), b.ready())
	b.waitTick(12)
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(b.sec)))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, filepath.FromSlash(Screenshot))
	if err := writeAtomic(out, png); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the failing section: %s (%d bytes)", Screenshot, len(png))
}

func buildSection(t *testing.T, in page.Input) *page.Section {
	t.Helper()
	s, err := page.Build(in, page.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkSocialPanels opens T3.3 at tick 19, before any grudge, and moves
// its scrubber to tick 25, where jon bears the player a grudge for the
// refused favour; then T5.1 at tick 20, the steward vacant, moved to tick
// 33, where irileth holds the role. At each tick the panel must show the
// engine's social state cell by cell and the model's last records; at
// the last, following the steward's last record must mark the rule
// evaluation that appointed irileth in the rule-firing log.
func checkSocialPanels(t *testing.T, ctx context.Context, url string, models []*page.Section, engine [][][]socialRow) {
	t.Helper()
	for i, walk := range []struct {
		name     string
		from, to int
	}{{"T3.3", 19, 25}, {"T5.1", 20, 33}} {
		b := browser{t: t, ctx: ctx, sec: fmt.Sprintf(`section.rung[data-name=%q]`, walk.name)}
		if n := eval[int](b, "body", fmt.Sprintf(`() => document.querySelectorAll('%s .panel.social').length`, b.sec)); n != 1 {
			t.Fatalf("section %s has %d social-state panels, want 1", walk.name, n)
		}
		b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#"+page.Fragment(walk.name, int64(walk.from))), b.ready())
		b.waitTick(walk.from)
		b.checkSocial(models[i], engine[i], walk.from)
		b.do(chromedp.Focus(chromedp.CSS(b.sec + ` input.scrub`)))
		for range walk.to - walk.from {
			b.do(chromedp.KeyEvent(kb.ArrowRight))
		}
		b.waitTick(walk.to)
		b.checkSocial(models[i], engine[i], walk.to)
	}
	b := browser{t: t, ctx: ctx, sec: `section.rung[data-name="T3.3"]`}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#T3.3@25"), b.ready())
	b.waitTick(25)
	grudge := eval[string](b, b.sec+` table.social[data-block="grudge"] tr[data-key="jon/player"]`,
		`e => [...e.children].map(c => c.textContent).join("|")`)
	if want := "jon|player|0.3995189373000725|0.44918845081999265|False|t20 formed — grudge-creation ← invoke@20 (trace seq 61)"; grudge != want {
		t.Errorf("T3.3's grudge at tick 25:\n got %q\nwant %q", grudge, want)
	}
	b = browser{t: t, ctx: ctx, sec: `section.rung[data-name="T5.1"]`}
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#T5.1@40"), b.ready())
	b.waitTick(40)
	holder := eval[string](b, b.sec+` table.social[data-block="role"] tr[data-key="steward"] td.c-holder`, `e => e.textContent`)
	if holder != "irileth" {
		t.Errorf("T5.1's steward at tick 40 is %q, want irileth", holder)
	}
	b.do(chromedp.Click(chromedp.CSS(b.sec + ` table.social[data-block="role"] tr[data-key="steward"] td.c-last a`)))
	b.waitTick(33)
	marked := evalAll[string](b, b.sec+` table.rulelog tr.linked`, `e => [...e.children].map(c => c.textContent).join("|")`)
	if want := []string{"33|role-succession|steward<-irileth|fired|appointed: the highest score|kin=0.0, score=0.5, trust=0.5"}; !cmp.Equal(want, marked) {
		t.Errorf("following the steward's last record marks %q in the rule-firing log, want %q", marked, want)
	}
	if h := eval[string](b, "body", `() => location.hash`); h != "#T5.1@33" {
		t.Errorf("following the steward's last record leaves the fragment %q, want #T5.1@33", h)
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
	if d := cmp.Diff(want, got); d != "" {
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
	sec string // the failing section's selector
}

func (b browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// ready waits for the page's script to finish setting up.
func (b browser) ready() chromedp.Action[chromedp.Void] {
	return chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"]`))
}

// tick returns the tick the failing section's scrubber is at.
func (b browser) tick() int {
	b.t.Helper()
	return eval[int](b, b.sec+` input.scrub`, `e => +e.value`)
}

// waitTick waits until the scrubber, the tick number and the tables'
// headings all say tick.
func (b browser) waitTick(tick int) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { const s = document.querySelector(%q);
		return s.querySelector("input.scrub").value === "%[2]d" && s.querySelector("input.tickno").value === "%[2]d" &&
			[...s.querySelectorAll(".now")].every(e => e.textContent === "%[2]d"); })()`, b.sec, tick)
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js)); err != nil {
		state := eval[string](b, b.sec, `s => s.querySelector("input.scrub").value + "/" + s.querySelector("input.tickno").value + "/" + [...s.querySelectorAll(".now")].map(e => e.textContent).join(",")`)
		b.t.Fatalf("the page never showed tick %d (scrubber/number/headings: %s): %v", tick, state, err)
	}
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
		`e => { const c = k => e.querySelector(".c-" + k).firstChild.nodeValue;
			return {Holder: e.dataset.holder, Claim: c("claim"), Variant: c("variant"), Confidence: c("confidence"), Stage: c("stage")}; }`)
	if d := cmp.Diff(want, got); d != "" {
		b.t.Errorf("belief table at tick %d (-engine +page):\n%s", tick, d)
	}
}

// checkFeed compares the feed the page shows with the page model's.
func (b browser) checkFeed(model *page.Section, tick int) {
	b.t.Helper()
	recs, _ := model.FeedAt(int64(tick))
	var want []string
	for _, r := range recs {
		want = append(want, string(r.Kind))
	}
	got := evalAll[string](b, b.sec+` ol.feed li:not(.empty)`, `e => e.dataset.kind`)
	if d := cmp.Diff(want, got); d != "" {
		b.t.Errorf("feed at tick %d (-model +page):\n%s", tick, d)
	}
	if len(got) == 0 {
		b.t.Errorf("feed at tick %d is empty: the check examined nothing", tick)
	}
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

// writeAtomic writes data to a temporary file beside path, then renames it.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
