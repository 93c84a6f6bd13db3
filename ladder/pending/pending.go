package pending

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/seal"
)

// ManifestFile is the name of a pending change's manifest, beside the
// artifacts it describes.
const ManifestFile = "pending.json"

// Manifest describes one rung's (or case's) pending change.
type Manifest struct {
	Name        string `json:"name"` // "T2.3" or "T2.3/swapped"
	Rung        string `json:"rung"`
	Case        string `json:"case"`
	Fixture     string `json:"fixture"` // repository-relative, e.g. fixtures/T2.3-conflicting-variants.yaml
	FixtureHash string `json:"fixture_hash"`
	CodeHash    string `json:"code_hash"`
	GoldenDir   string `json:"golden_dir"`
	// State is "new" (the rung has no goldens) or "changed".
	State string `json:"state"`
	// Changed lists the artifacts whose bytes differ from the goldens, or
	// that have no golden, in artifact order.
	Changed []string `json:"changed"`
	// Artifacts digests (SHA-256, hex) every artifact left beside the
	// manifest: what accept copies, byte for byte.
	Artifacts map[string]string `json:"artifacts"`
	// Problems are the run's failure lines, earliest divergence first.
	Problems []string `json:"problems"`
	// Expectations are the rung's own failing expectations: a golden must
	// not record behaviour its fixture says is wrong, so accept refuses.
	Expectations []string `json:"expectations"`
	// Aborted is why the run stopped before its end; accept refuses.
	Aborted string `json:"aborted,omitempty"`
}

// Run is what the suite knows about one run besides its artifacts.
type Run struct {
	CodeHash     string
	Problems     []string
	Expectations []string
	Aborted      error
	// GoldenSealed says the caller checked the golden set against its
	// seal before the run and found it whole (verdict.CheckSeals): the
	// digests the seal records are then the golden files' own, and a
	// sealed artifact is compared with its golden by digest, not by
	// reading both again.
	GoldenSealed bool
}

// Dir returns the directory under reports where f's artifacts go.
func Dir(reports string, f *fixture.Fixture) string {
	return filepath.Join(reports, filepath.FromSlash(f.Name()))
}

func (m Manifest) dir(reports string) string {
	return filepath.Join(reports, filepath.FromSlash(m.Name))
}

// Save records a run whose artifacts are already under
// reports/<rung>[/<case>]/ (ladder.Run wrote them there, Dir(reports, f)):
// when they differ from the goldens under root, or the run aborted, it
// writes the manifest that makes them a pending change. It returns the
// manifest, or nil when nothing is pending. Artifacts are digested and
// compared with the goldens in chunks, never read whole.
func Save(reports, root string, f *fixture.Fixture, run Run) (*Manifest, error) {
	dir := Dir(reports, f)
	m := &Manifest{
		Name: f.Name(), Rung: f.Rung, Case: f.Case, Fixture: f.File, FixtureHash: f.Hash, CodeHash: run.CodeHash,
		GoldenDir: f.GoldenDir(), Artifacts: map[string]string{}, Problems: nonNil(run.Problems),
		Expectations: nonNil(run.Expectations), Changed: []string{},
	}
	names := ladder.Artifacts(f)
	sealed := runSeal(dir, f.Name())
	fresh := map[string]string{}
	for _, name := range names {
		fresh[name] = filepath.Join(dir, name)
		d, ok := sealed[name]
		if !ok {
			var err error
			if d, err = seal.Digest(fresh[name]); err != nil {
				return nil, err
			}
		}
		m.Artifacts[name] = d
	}
	var golden map[string]string
	if run.GoldenSealed {
		golden = runSeal(filepath.Join(root, filepath.FromSlash(f.GoldenDir())), f.Name())
	}
	var changes []regen.Change
	for _, name := range names {
		g, inGolden := golden[name]
		if d, inRun := sealed[name]; inGolden && inRun {
			if d != g {
				changes = append(changes, regen.Change{Name: name, Path: f.GoldenDir() + "/" + name})
			}
			continue
		}
		c, err := regen.Changes(root, f.GoldenDir(), []string{name}, fresh)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c...)
	}
	m.State = "changed"
	for _, c := range changes {
		m.Changed = append(m.Changed, c.Name)
		if c.New {
			m.State = "new"
		}
	}
	if run.Aborted != nil {
		m.Aborted = run.Aborted.Error()
	}
	if len(changes) == 0 && m.Aborted == "" {
		return nil, nil
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return m, os.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'), 0o644)
}

// runSeal is the digest of each file the seal in dir (manifest.json) holds
// for set: for the run's own, which ladder.Run writes after its artifacts,
// Save need not read a long run's gigabytes again to digest them, nor,
// for a golden set checked against its seal (Run.GoldenSealed), to
// compare them with their goldens. A seal that is missing, broken or of
// another set gives none, and Save reads the files themselves.
func runSeal(dir, set string) map[string]string {
	b, err := os.ReadFile(filepath.Join(dir, artifact.ManifestFile))
	if err != nil {
		return nil
	}
	s, err := seal.Parse(b)
	if err != nil || s.Set != set {
		return nil
	}
	return s.Files
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// List reads every manifest under reports, ordered by name. A manifest
// that does not parse is an error naming it.
func List(reports string) ([]Manifest, error) {
	var out []Manifest
	err := filepath.WalkDir(reports, func(p string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist) && p == reports:
			return fs.SkipAll
		case err != nil:
			return err
		case d.IsDir() || d.Name() != ManifestFile:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var m Manifest
		if err := dec.Decode(&m); err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		if want := m.dir(reports); filepath.Dir(p) != want || m.Name != (&fixture.Fixture{Rung: m.Rung, Case: m.Case}).Name() {
			return fmt.Errorf("read %s: it describes %s, which belongs in %s", p, m.Name, want)
		}
		out = append(out, m)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list pending changes: %w", err)
	}
	slices.SortFunc(out, func(a, b Manifest) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Select keeps the manifests names address: a rung id addresses the rung
// and its cases, rung/case one case. Every name must address something.
func Select(ms []Manifest, names []string) ([]Manifest, error) {
	matches := func(m Manifest, n string) bool { return n == m.Rung || n == m.Name }
	for _, n := range names {
		if !slices.ContainsFunc(ms, func(m Manifest) bool { return matches(m, n) }) {
			return nil, fmt.Errorf("nothing pending for %s (pending: %s)", n, listNames(ms))
		}
	}
	var out []Manifest
	for _, m := range ms {
		if slices.ContainsFunc(names, func(n string) bool { return matches(m, n) }) {
			out = append(out, m)
		}
	}
	return out, nil
}

func listNames(ms []Manifest) string {
	if len(ms) == 0 {
		return "none; run make ladder first"
	}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return strings.Join(names, ", ")
}

// Repo is the repository pending changes are reviewed against and
// accepted into: its root and its fixtures, loaded once. A change's
// fixture and golden set are derived from its rung id and case here,
// never taken from its pending.json, which a crafted CI artifact (or a
// merge of one) can point at any file or set.
type Repo struct {
	root  string
	files []fixture.File
}

// OpenRepo loads the fixtures under root/fixtures; one that does not load
// blocks only the changes it would define.
func OpenRepo(root string) (*Repo, error) {
	files, err := fixture.Discover(filepath.Join(root, "fixtures"), "fixtures")
	if err != nil {
		return nil, err
	}
	return &Repo{root: root, files: files}, nil
}

// Fixture is the fixture that defines m's rung and case: exactly one
// must, among the fixtures that load.
func (r *Repo) Fixture(m Manifest) (*fixture.Fixture, error) {
	var found []*fixture.Fixture
	var broken, own error
	for _, file := range r.files {
		if file.Err != nil {
			broken = cmp.Or(broken, file.Err)
			if rung, _ := fixture.RungOfFile(file.Name); rung == m.Rung {
				own = cmp.Or(own, file.Err)
			}
			continue
		}
		for _, f := range file.Fixtures {
			if f.Rung == m.Rung && f.Case == m.Case {
				found = append(found, f)
			}
		}
	}
	switch {
	case len(found) > 1:
		return nil, fmt.Errorf("%s is defined by two fixtures, %s and %s", m.Name, found[0].File, found[1].File)
	case len(found) == 1:
		return found[0], nil
	case own != nil:
		return nil, &notLoadedError{own}
	case broken != nil:
		return nil, fmt.Errorf("no fixture that loads defines %s (and one does not load: %w)", m.Name, broken)
	}
	return nil, fmt.Errorf("no fixture under fixtures/ defines %s", m.Name)
}

// notLoadedError is a change whose rung's fixture file no longer loads.
type notLoadedError struct{ err error }

func (e *notLoadedError) Error() string { return "its fixture no longer loads: " + e.err.Error() }
func (e *notLoadedError) Unwrap() error { return e.err }

// Blockers returns every reason m cannot be accepted now, given the
// reports directory and the current code hash; none means it can. Its
// fixture and golden set must be the ones the repository derives for its
// rung and case, each refusal naming both.
func (r *Repo) Blockers(reports string, m Manifest, codeHash string) []string {
	var out []string
	if m.Aborted != "" {
		out = append(out, "the run aborted, so its artifacts are partial: "+m.Aborted)
	}
	if len(m.Expectations) > 0 {
		out = append(out, fmt.Sprintf("its expectations fail (%d), so its goldens would record wrong behaviour: %s",
			len(m.Expectations), strings.Join(m.Expectations, "; ")))
	}
	f, err := r.Fixture(m)
	var notLoaded *notLoadedError
	switch {
	case errors.As(err, &notLoaded):
		out = append(out, err.Error())
	case err != nil:
		out = append(out, fmt.Sprintf("its fixture cannot be found: %v", err))
	default:
		if f.File != m.Fixture {
			out = append(out, fmt.Sprintf("its pending.json names the fixture %q, but %s is defined by %s: refused, a change is accepted only for the fixture the repository has for its rung",
				m.Fixture, m.Name, f.File))
		}
		if f.GoldenDir() != m.GoldenDir {
			out = append(out, fmt.Sprintf("its pending.json names the golden set %q, but %s's golden set is %s: refused, a change is accepted only into the set the repository derives for its rung",
				m.GoldenDir, m.Name, f.GoldenDir()))
		}
		if f.Hash != m.FixtureHash {
			out = append(out, fmt.Sprintf("the fixture changed since the run (fixture hash %s then, %s now)", m.FixtureHash, f.Hash))
		}
	}
	if codeHash != m.CodeHash {
		out = append(out, fmt.Sprintf("the code changed since the run (code hash %s then, %s now)", m.CodeHash, codeHash))
	}
	dir := m.dir(reports)
	for _, name := range slices.Sorted(maps.Keys(m.Artifacts)) {
		d, err := seal.Digest(filepath.Join(dir, name))
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("its %s cannot be read: %v", name, err))
		case d != m.Artifacts[name]:
			out = append(out, fmt.Sprintf("its %s was changed after the run (it is not what the run produced)", name))
		}
	}
	return out
}

// RefusedError lists every reason an accept wrote nothing.
type RefusedError struct {
	Reasons map[string][]string // by pending name
	Order   []string            // names in order
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	b.WriteString("accept refused, nothing was written:")
	for _, n := range e.Order {
		for _, r := range e.Reasons[n] {
			fmt.Fprintf(&b, "\n  %s: %s", n, r)
		}
	}
	return b.String()
}

// Accepted is one pending change written into goldens/.
type Accepted struct {
	Name      string
	GoldenDir string
	Files     []string // the set's files written (those whose bytes differed), in artifact order
	// History is the entry appended to the set's history; nil when none
	// was (only the seal was written).
	History *history.Entry
}

// Accept copies the selected pending changes into goldens/ under root in
// one workspace commit — all or none, each file copied in chunks — after
// checking each with Blockers, with an entry appended to the history of
// each set that is new or changed, giving reason (regen.Chronicle);
// any blocker refuses the whole accept with a *RefusedError, and so does
// a set that changes, when reason is empty. Accepted
// manifests are removed. A switch that a killed run committed and did not
// finish refuses the accept with its advice (regen.Pending.Advice): the
// changes were reviewed against goldens part old, part new. Recovery
// reports what the workspace cleaned up from an earlier interrupted run.
func Accept(root, reports string, ms []Manifest, reason string) ([]Accepted, regen.Recovery, error) {
	code, err := CodeHash(root)
	if err != nil {
		return nil, regen.Recovery{}, err
	}
	repo, err := OpenRepo(root)
	if err != nil {
		return nil, regen.Recovery{}, err
	}
	refused := &RefusedError{Reasons: map[string][]string{}}
	for _, m := range ms {
		if b := repo.Blockers(reports, m, code); len(b) > 0 {
			refused.Reasons[m.Name] = b
			refused.Order = append(refused.Order, m.Name)
		}
	}
	if len(refused.Order) > 0 {
		return nil, regen.Recovery{}, refused
	}
	// The goldens these changes were reviewed against are half switched:
	// accepting now would mix a third state in. One way on: the advice.
	if p := regen.Interrupted(root); p != nil {
		return nil, regen.Recovery{}, fmt.Errorf("accept: nothing accepted: %s", p.Advice())
	}
	ws, rec, err := regen.Open(root)
	if err != nil {
		return nil, rec, err
	}
	defer ws.Close()
	note := regen.Note{By: "accept", Reason: reason, CodeHash: code}
	files := map[string]string{}
	var out []Accepted
	for _, m := range ms {
		dir := m.dir(reports)
		f, err := repo.Fixture(m)
		if err != nil {
			return nil, rec, err
		}
		// The set is the fixture's, as Blockers checked m's agrees.
		set := f.GoldenDir()
		names := ladder.Artifacts(f)
		arts := map[string]string{}
		for _, name := range names {
			arts[name] = filepath.Join(dir, name)
		}
		changes, err := regen.Changes(root, set, names, arts)
		if err != nil {
			return nil, rec, err
		}
		changed := map[string]string{}
		for _, c := range changes {
			changed[c.Path] = arts[c.Name]
		}
		entry, err := ws.Chronicle(f, arts, changed, note)
		switch {
		case errors.Is(err, regen.ErrNoReason):
			refused.Reasons[m.Name] = []string{fmt.Sprintf("%v: say why with -reason (`go run ./tools/ladder accept -reason \"…\" %s`); the set's history records it", err, m.Name)}
			refused.Order = append(refused.Order, m.Name)
			continue
		case err != nil:
			return nil, rec, fmt.Errorf("accept %s: %w", m.Name, err)
		}
		a := Accepted{Name: m.Name, GoldenDir: set, Files: []string{}, History: entry}
		for _, name := range ladder.ArtifactOrder(append(names, history.File)) {
			if src, ok := changed[set+"/"+name]; ok {
				files[set+"/"+name] = src
				a.Files = append(a.Files, name)
			}
		}
		out = append(out, a)
	}
	if len(refused.Order) > 0 {
		return nil, rec, refused
	}
	if err := ws.Commit(files); err != nil {
		return nil, rec, err
	}
	for _, m := range ms {
		if err := os.Remove(filepath.Join(m.dir(reports), ManifestFile)); err != nil {
			return out, rec, err
		}
	}
	return out, rec, nil
}

// Reject drops the selected pending changes' manifests; their artifacts
// stay under reports/ as the run's evidence.
func Reject(reports string, ms []Manifest) error {
	for _, m := range ms {
		if err := os.Remove(filepath.Join(m.dir(reports), ManifestFile)); err != nil {
			return fmt.Errorf("reject %s: %w", m.Name, err)
		}
	}
	return nil
}
