package ladder_test

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/confine"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/pageinput"
	"github.com/chronicle/ladder/ladder/pending"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/report"
	"github.com/chronicle/ladder/ladder/rerun"
	"github.com/chronicle/ladder/ladder/verdict"
)

// root is the repository root: the suite runs in ladder/.
const root = ".."

// reports is where a run leaves its evidence: LADDER_REPORTS, or reports/
// at the repository root.
var reports = cmp.Or(os.Getenv("LADDER_REPORTS"), filepath.Join(root, "reports"))

// TestLadder builds one spec per rung (and per case) from the fixtures
// before RunSpecs, so the spec tree is fixed when Ginkgo starts; a fixture
// that does not load becomes a failing spec pointing at its first error.
func TestLadder(t *testing.T) {
	RegisterFailHandler(Fail)
	lockReports(t)
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		t.Fatal(err)
	}
	halfSwitched = regen.Interrupted(root)
	cfg, _ := GinkgoConfiguration()
	subsetRun = cfg.LabelFilter != "" || len(cfg.FocusStrings) > 0 || len(cfg.FocusFiles) > 0
	if subsetRun {
		obsoleteDirs, _, obsoleteErr = verdict.ObsoleteGoldens(root, files)
	}
	if stall, err = ladder.StallLimit(); err != nil {
		t.Fatal(err)
	}
	if GinkgoParallelProcess() == 1 {
		beforeRun()
	}
	for _, file := range files {
		if file.Err != nil {
			invalidFixture(file)
			continue
		}
		family(file.Fixtures)
	}
	goldensHealth(files)
	noteRuns(files)
	RunSpecs(t, "Chronicle ladder")
}

// stall is how long a run may finish no tick before it is given up as
// hung (ladder.StallLimit: LADDER_STALL, or a minute).
var stall time.Duration

// halfSwitched is the switch a killed `make goldens` or `accept` committed
// and did not finish, nil when there is none: the goldens are part old,
// part new, which every run — a RUNG= subset too — says before anything
// else, with the one thing to do about it.
var halfSwitched *regen.Pending

// subsetRun says that a label filter or focus selects part of the ladder
// (RUNG=, SHARD=): there is no goldens-health spec then, so each selected
// rung's spec fails on what that spec would have said of its own sets
// (setProblems, inSwitch). obsoleteDirs are then the golden directories
// no fixture owns (ObsoleteGoldens), or obsoleteErr why they are unknown.
var (
	subsetRun    bool
	obsoleteDirs []string
	obsoleteErr  error
)

// beforeRun prints what a person must know before reading any rung's
// result: a half-finished switch of the goldens, and — on a subset run,
// which has no goldens-health spec — golden directories no fixture owns.
func beforeRun() {
	if halfSwitched != nil {
		fmt.Fprintf(os.Stdout, "\nladder: %s\n\n", halfSwitched.Advice())
	}
	if !subsetRun {
		return // the full run's goldens-health spec fails on them
	}
	if obsoleteErr != nil {
		fmt.Fprintf(os.Stdout, "ladder: warning: could not look for obsolete golden directories: %v\n", obsoleteErr)
	}
	for _, dir := range obsoleteDirs {
		fmt.Fprintf(os.Stdout, "ladder: warning: %s\n", obsoleteLine(dir))
	}
}

// setProblems are the problems of f's golden set that its seal does not
// show. Every run: a set that is a symlink, or holds one, which `make
// goldens` and accept refuse to write through and whose seal would be
// read wherever it leads. A subset run, for the rung's own spec: an obsolete directory
// under the rung's set, or one named for the rung — what the full run's
// goldens-health spec fails on, for the sets this run selects.
func setProblems(f *fixture.Fixture) []verdict.Problem {
	problem := func(msg string) verdict.Problem {
		return verdict.Problem{Rung: f.Rung, Case: f.Case, Check: "goldens", Tick: -1, File: f.File, Line: f.Pos.Line, Message: f.Name() + " goldens: " + msg}
	}
	var out []verdict.Problem
	var link *confine.LinkError
	err := confine.Check(root, f.GoldenDir())
	if err == nil {
		// a golden file that is a link (the set's own, or a case's)
		if err = confine.Tree(filepath.Join(root, filepath.FromSlash(f.GoldenDir()))); errors.Is(err, fs.ErrNotExist) {
			err = nil // a new rung: no goldens yet
		}
	}
	switch {
	case errors.As(err, &link):
		at := strings.TrimPrefix(filepath.ToSlash(link.Path), root+"/")
		what := fmt.Sprintf("a symlink (to %s)", link.Target)
		if link.Odd {
			what = "neither a directory nor a regular file"
		}
		out = append(out, problem(fmt.Sprintf("%s is %s: goldens live only in real directories and files of the repository — "+
			"`make goldens` and accept refuse to write through a link, and the seal would vouch for what it leads to; "+
			"remove it (`git rm %s`), then `make goldens RUNG=%s`", at, what, at, f.Rung)))
	case err != nil:
		out = append(out, problem(err.Error()))
	}
	if !subsetRun || f.Case != "" {
		return out
	}
	for _, dir := range obsoleteDirs {
		if rung, _ := fixture.RungOfFile(path.Base(dir) + ".yaml"); strings.HasPrefix(dir, f.GoldenDir()+"/") || rung == f.Rung && path.Dir(dir) == "goldens" {
			out = append(out, problem(obsoleteLine(dir)))
		}
	}
	return out
}

// obsoleteLine says what an obsolete golden directory is and what to do.
func obsoleteLine(dir string) string {
	return fmt.Sprintf("%s is obsolete: no fixture has it (remove it with `git rm -r %s`, or restore its fixture)", dir, dir)
}

// invalidFixture is the failing spec of a fixture that does not load. It
// carries the rung's labels — the rung id written inside the file, else
// read off its name (fixture.File) — so it counts as a failed rung and
// `make ladder RUNG=<id>` selects it.
func invalidFixture(file fixture.File) {
	rel, err := file.Name, file.Err
	loc := types.CodeLocation{FileName: rel, LineNumber: 1}
	var list fixture.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		loc.LineNumber = list[0].Line
	}
	id, tier := file.Rung, file.Tier
	It(file.LoadFailureSpec(), Label("tier"+tier, id, "invalid-fixture"), loc, func() {
		msg := fmt.Sprintf("%v\n(reproduce: go run ./tools/ladder check %s)", err, rel)
		AddReportEntry(report.FailureEntry, verdict.Problem{Rung: id, Check: "fixture", Tick: -1, File: rel, Line: loc.LineNumber, Message: msg},
			ReportEntryVisibilityNever)
		Fail(msg)
	})
}

// goldensHealth is the spec that goldens/ holds nothing stale: no golden
// directory without a fixture (obsolete) and no half-finished switch. It
// has no rung label, so it runs on full runs and not under RUNG=.
func goldensHealth(files []fixture.File) {
	It("goldens/ holds no obsolete directory and no half-finished switch", Label("goldens"), func() {
		obsolete, examined, err := verdict.ObsoleteGoldens(root, files)
		Expect(err).NotTo(HaveOccurred())
		Expect(examined).To(BeNumerically(">", 0), "checked nothing: goldens/ holds no golden directory")
		AddReportEntry("examined", fmt.Sprintf("%d golden directories", examined), ReportEntryVisibilityFailureOrVerbose)
		var problems []string
		for _, dir := range obsolete {
			problems = append(problems, obsoleteLine(dir))
		}
		if halfSwitched != nil {
			problems = append(problems, halfSwitched.Advice())
		}
		if len(problems) > 0 {
			Fail(fmt.Sprintf("%s\n(examined %d golden directories)", strings.Join(problems, "\n"), examined))
		}
	})
}

// family adds the specs of one fixture file's runs. When some run's
// comparison expectation compares it with another, the file's specs run
// in an Ordered container, counterparts first (ladder.Order), so each run
// is made once and its roll index taken from there; ContinueOnFailure
// keeps a failing run from skipping the rest. The container has no text,
// so spec names and focus patterns are unchanged.
func family(fs []*fixture.Fixture) {
	if !slices.ContainsFunc(fs, func(f *fixture.Fixture) bool { return len(f.ComparedBy) > 0 }) {
		for _, f := range fs {
			rung(f)
		}
		return
	}
	Describe("", Ordered, ContinueOnFailure, func() {
		for _, f := range ladder.Order(fs) {
			rung(f)
		}
	})
}

func rung(f *fixture.Fixture) {
	loc := types.CodeLocation{FileName: f.File, LineNumber: f.Pos.Line}
	It(f.Name()+" "+f.Title, Label("tier"+f.Tier, f.Rung), loc, func() {
		// Before anything is compared, the goldens must be what `make
		// goldens` or `ladder accept` last wrote: their seals are checked
		// first, and a broken seal is the rung's first problem.
		seals := verdict.CheckSeals(root, f)
		AddReportEntry("seal", seals, ReportEntryVisibilityNever) // counted in the seal summary
		seals.Problems = append(setProblems(f), inSwitch(f, seals.Problems)...)
		// The artifacts go straight to reports/<rung>/ as they are
		// produced, compared with the goldens as they are written.
		// Their seals, just checked, give the digests of the artifacts
		// that turn out to be links to them.
		res, err := ladder.Run(f, ladder.Options{Dir: pending.Dir(reports, f), Goldens: root, Seals: &seals, Stall: stall})
		if hung := (*ladder.StallError)(nil); errors.As(err, &hung) {
			abandon(f, seals.Problems, hung)
		}
		if res == nil {
			Fail(strings.Join(append(verdict.Lines(seals.Problems), fmt.Sprintf("%s: %v %s", f.Name(), err, verdict.Commands(f))), "\n"))
		}
		AddReportEntry("assertions", len(res.Expectations), ReportEntryVisibilityNever)
		// An aborted run is compared as far as it got: what it wrote
		// before it stopped names the first divergence, the abort second.
		v := verdict.Verify(res)
		for _, d := range v.Drift {
			AddReportEntry("input drift", d, ReportEntryVisibilityNever) // printed once per run, grouped
		}
		problems := append(seals.Problems, verdict.Problems(res, err, v)...)
		for i := range problems {
			problems[i].Link = problems[i].PageLink() // for failures.json, the seal's problems too
		}
		m := saveEvidence(res, problems, err, len(seals.Problems) == 0 && seals.Has(f.GoldenDir()))
		if m != nil && len(problems) == 0 && len(v.Drift) == 0 {
			// A run that met its goldens in every comparison, inputs
			// included, produced what they hold: a pending change then
			// means the comparison and pending.Save disagree about it.
			p := verdict.Problem{Rung: f.Rung, Case: f.Case, Check: "pending", Tick: -1, File: f.File, Line: f.Pos.Line,
				Message: fmt.Sprintf("%s passed against its goldens, yet its pending change says %s differ from them: the run's comparison and its pending change disagree (reports/%s/%s)",
					f.Name(), strings.Join(m.Changed, ", "), f.Name(), pending.ManifestFile)}
			p.Link = p.PageLink()
			problems = append(problems, p)
		}
		// The triage page is built from what this run wrote: its
		// artifacts, nothing else (report.PageInputs).
		if f.Sweep != nil && err == nil {
			// One seed's world, kept for the page to open as an ordinary
			// section: the seed farthest from the pilot.
			_, err := pageinput.RunSeedWorld(res)
			Expect(err).NotTo(HaveOccurred())
		}
		for _, p := range problems {
			AddReportEntry(report.FailureEntry, p, ReportEntryVisibilityNever) // reports/failures.json
		}
		if len(problems) > 0 {
			lines := make([]string, len(problems))
			for i, p := range problems {
				// Each line ends with the triage page, opened at the rung, the
				// tick where the problem first shows and what it is about.
				lines[i] = p.FailureLine()
			}
			Fail(strings.Join(lines, "\n"))
		}
	})
}

// abandon fails a run given up as hung, and the ladder with it: its
// goroutine still spins where it hangs and cannot be stopped, and every
// later run would likely hang in the same place, each costing the stall
// limit, so the rest is skipped (AbortSuite) and the closing report says
// the hang first. The spec carries StalledEntry, which the determinism
// rerun reads to leave the run alone.
func abandon(f *fixture.Fixture, seals []verdict.Problem, hung *ladder.StallError) {
	p := verdict.StallProblem(f, hung)
	p.Link = p.PageLink()
	for _, s := range seals {
		AddReportEntry(report.FailureEntry, s, ReportEntryVisibilityNever)
	}
	AddReportEntry(report.FailureEntry, p, ReportEntryVisibilityNever)
	AddReportEntry(StalledEntry, hung.Error(), ReportEntryVisibilityNever)
	AbortSuite(strings.Join(append(verdict.Lines(seals), p.FailureLine(), "the ladder stops here: the hung run cannot be stopped, and later runs would likely hang the same way"), "\n"))
}

// StalledEntry marks the spec of a run given up as hung.
const StalledEntry = "stalled"

// reportsLock is this run's hold on the reports directory, kept open (and
// so locked) until the process exits.
var reportsLock *os.File

// lockReports takes the reports directory for this run, refusing with the
// holder's PID when another run holds it — a second `make ladder` in the
// same checkout would otherwise clear the first's reports under it — and
// then empties it, so that what it holds afterwards (artifacts, pending
// changes) is this run's alone. Under `ginkgo -p` only process 1 does
// this, before any spec runs: the others are the same run.
func lockReports(t *testing.T) {
	if GinkgoParallelProcess() != 1 {
		return
	}
	lock, err := report.Lock(reports)
	if busy := (*report.BusyError)(nil); errors.As(err, &busy) {
		busy.Dir = cmp.Or(os.Getenv("LADDER_REPORTS"), "reports/") // as the person who typed make ladder sees it
		t.Fatal(busy)
	}
	if err != nil {
		// reports/ as the person who typed make ladder sees it, not as
		// the suite, which runs in ladder/, reaches it
		t.Fatal(strings.Replace(err.Error(), reports, cmp.Or(os.Getenv("LADDER_REPORTS"), "reports"), 1))
	}
	reportsLock = lock
	if err := report.Clear(reports); err != nil {
		t.Fatal(err)
	}
}

// inSwitch replaces the seal problems of a rung whose golden set a
// half-finished switch touches with one line carrying the switch's advice:
// its seal is broken because the switch stopped part way, and the seal's
// own advice (restore the set from git) would leave a switch that can no
// longer be finished. On a full run, a set the switch touches whose seal
// holds (none of its files moved yet, or all) is compared as usual, the
// goldens-health spec failing on the switch; a subset run has no such
// spec, so there the line is the rung's failure whatever its seal says.
func inSwitch(f *fixture.Fixture, seals []verdict.Problem) []verdict.Problem {
	p := halfSwitched
	if p == nil || len(seals) == 0 && !subsetRun || !p.Switched(f.GoldenDir()) && (f.SameRunAs.Rung == "" || !p.Switched(f.SameRunAs.GoldenDir)) {
		return seals
	}
	return []verdict.Problem{{Rung: f.Rung, Case: f.Case, Check: verdict.SealCheck, Tick: -1, File: f.File, Line: f.Pos.Line,
		Message: fmt.Sprintf("%s seal: %s is in a half-finished switch, so it is part old, part new: %s", f.Name(), f.GoldenDir(), p.Advice())}}
}

// codeHash is the hash of the code this run was built from, recorded with
// every pending change so that accepting it later can refuse if the code
// has moved since.
var codeHash = sync.OnceValues(func() (string, error) { return pending.CodeHash(root) })

// saveEvidence keeps the run's artifacts, which the run wrote under
// reports/<rung>[/<case>]/, so CI keeps the trace of a failing rung, and —
// when they differ from the goldens — writes the manifest that makes them
// a pending change for `ladder review` and `ladder accept`; it points the
// spec's report at them.
func saveEvidence(res *ladder.Result, problems []verdict.Problem, aborted error, goldenSealed bool) *pending.Manifest {
	code, err := codeHash()
	Expect(err).NotTo(HaveOccurred())
	m, err := pending.Save(reports, root, res.Fixture,
		pending.Run{CodeHash: code, Problems: verdict.Lines(problems), Expectations: res.Failures, Aborted: aborted, GoldenSealed: goldenSealed})
	Expect(err).NotTo(HaveOccurred())
	AddReportEntry("trace", "reports/"+res.Fixture.Name()+"/"+artifact.TraceFile, ReportEntryVisibilityFailureOrVerbose)
	AddReportEntry("audit", rerun.AuditSummary(res.Audit), ReportEntryVisibilityFailureOrVerbose)
	if m != nil {
		AddReportEntry("pending", fmt.Sprintf("%s: review with `go run ./tools/ladder review %s`, then accept or reject it", m.State, m.Name),
			ReportEntryVisibilityFailureOrVerbose)
	}
	return m
}

// The closing report, one node so its steps run in this order whatever
// order the specs ran in: the triage page, the determinism rerun, the seal
// summary, the input drift, then the block a person reads first — "start
// here:" with the lowest-tier failed run's root cause, every failed run by
// tier then earliest divergent tick, and the count line — and the reports
// (junit.xml, failures.json). A run the rerun finds different counts as
// failed and is filed under its own name; the node fails when anything
// did, so the exit status agrees with the count.
var _ = ReportAfterSuite("ladder summary", func(r Report) {
	var passed, assertions int
	failed := map[string]bool{}
	var problems []verdict.Problem
	for _, s := range r.SpecReports {
		// Rungs carry their tier label.
		if s.LeafNodeType != types.NodeTypeIt || !slices.ContainsFunc(s.Labels(), func(l string) bool { return strings.HasPrefix(l, "tier") }) {
			continue
		}
		switch {
		case s.State.Is(types.SpecStatePassed):
			passed++
		case s.State.Is(types.SpecStateFailureStates):
			failed[report.RunName(s)] = true
			problems = append(problems, specProblems(s)...)
		}
		for _, e := range s.ReportEntries {
			if e.Name == "assertions" {
				// The raw value is lost when specs run in other processes
				// (ginkgo -p); its text survives.
				n, err := strconv.Atoi(e.Value.String())
				Expect(err).NotTo(HaveOccurred())
				assertions += n
			}
		}
	}
	harness := triagePage(r)
	late, more := determinismRerun(r)
	harness = append(append(harness, more...), sealSummary(r)...)
	for _, p := range late {
		name := p.Rung + strings.TrimSuffix("/"+p.Case, "/")
		if !failed[name] {
			failed[name] = true
			passed--
		}
	}
	warnings := printDrift(r)
	// A step that failed is filed as a problem of no rung, so that
	// failures.json and junit.xml fail with it: a CI reading either must
	// not see green where the exit status is not.
	steps := make([]verdict.Problem, len(harness))
	for i, h := range harness {
		steps[i] = verdict.Problem{Check: verdict.HarnessCheck, Tick: -1, Message: h}
	}
	var closing strings.Builder
	if runs := report.FailedRuns(append(problems, late...)); len(runs) > 0 {
		closing.WriteString("\n")
		for _, l := range report.ClosingLines(runs) {
			closing.WriteString(l + "\n")
		}
	}
	if len(steps) > 0 {
		fmt.Fprintf(&closing, "\nthe closing report failed (%s, in failures.json and junit.xml as %q):\n", plural(len(steps), "problem"), report.ClosingNode)
		for _, p := range steps {
			fmt.Fprintf(&closing, "  %s\n", strings.ReplaceAll(p.Message, "\n", "\n  "))
		}
	}
	fmt.Fprintf(&closing, "\nladder: %d rungs passed, %d failed, %s%d input-drift warnings, %d assertions evaluated\n",
		passed, len(failed), stepsFailed(len(steps)), warnings, assertions)
	fmt.Fprint(os.Stdout, closing.String())
	if len(failed) > 0 || len(steps) > 0 {
		// Ginkgo prints its own list of failures after every report node,
		// in the order the specs ran; `make ladder` prints this file after
		// Ginkgo has finished, so that the very end of a red run is the
		// block to read first.
		if err := artifact.Write(filepath.Join(reports, report.ClosingFile), []byte(closing.String())); err != nil {
			fmt.Fprintf(os.Stdout, "ladder: could not write %s: %v\n", report.ClosingFile, err)
		}
	}
	if len(harness) > 0 || len(late) > 0 {
		r.SuiteSucceeded = false // this node fails below, after the report is written
	}
	if err := report.Write(reports, root, r, append(late, steps...)...); err != nil {
		fmt.Fprintf(os.Stdout, "ladder: could not write the reports: %v\n", err)
	}
	for _, p := range late {
		harness = append(harness, p.Message)
	}
	if len(harness) > 0 {
		Fail(strings.Join(harness, "\n"))
	}
})

// stepsFailed is the count line's clause for the closing report's failed
// steps: nothing when none failed, so a green line reads as it always has.
func stepsFailed(n int) string {
	if n == 0 {
		return ""
	}
	return plural(n, "closing-report problem") + ", "
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// specProblems is a failed rung spec's problems as it filed them, or one
// made of its failure message when it filed none (a spec that failed
// before its checks, on a broken run).
func specProblems(s types.SpecReport) []verdict.Problem {
	var out []verdict.Problem
	for _, e := range s.ReportEntries {
		var p verdict.Problem
		if e.Name == report.FailureEntry && report.Decode(e, &p) == nil {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		rung, c, _ := strings.Cut(report.RunName(s), "/")
		out = append(out, verdict.Problem{Rung: rung, Case: c, Check: "spec", Tick: -1, Message: report.RunName(s) + " " + s.Failure.Message})
	}
	return out
}

// printDrift prints the run's input drift once, grouped by what moved
// across rungs, and returns how many lines that took.
func printDrift(r Report) int {
	var drift []verdict.RungDrift
	for _, s := range r.SpecReports {
		for _, e := range s.ReportEntries {
			if e.Name != "input drift" {
				continue
			}
			var d verdict.RungDrift
			if err := report.Decode(e, &d); err != nil {
				fmt.Fprintf(os.Stdout, "warning: unreadable input-drift entry %s: %v\n", e.Value, err)
				continue
			}
			drift = append(drift, d)
		}
	}
	lines := verdict.DriftLines(drift)
	if len(lines) > 0 {
		fmt.Fprintln(os.Stdout, "\ninput drift — values still compared; regenerate or accept to record the new inputs:")
	}
	for _, l := range lines {
		fmt.Fprintf(os.Stdout, "  %s\n", l)
	}
	return len(lines)
}
