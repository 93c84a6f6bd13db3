package verdict

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/seal"
)

// SealCheck is the check name of a seal problem.
const SealCheck = "seal"

// Seals is the verification of the golden sets a run is compared with.
type Seals struct {
	// Problems holds one problem per set that does not match its seal.
	Problems []Problem `json:"-"`
	// Checked lists the sets checked, each with the sealed files hashed.
	Checked []SetCheck `json:"checked"`
	// verified holds every sealed file found as sealed, by its path (the
	// root and the set's directory joined as Run joins Options.Goldens
	// and a fixture's GoldenDir), for a run given these Seals.
	verified map[string]seal.Verified
}

// Sealed returns the check's finding for the golden at path, if it found
// the file as sealed.
func (s *Seals) Sealed(path string) (seal.Verified, bool) {
	if s == nil {
		return seal.Verified{}, false
	}
	v, ok := s.verified[filepath.Clean(path)]
	return v, ok
}

// SetCheck is one golden set's seal check: its directory (relative to the
// ladder's root, slash-separated) and how many sealed files were hashed.
type SetCheck struct {
	Dir   string `json:"dir"`
	Files int    `json:"files"`
}

// Has reports whether the golden set in dir was checked (its directory
// exists).
func (s Seals) Has(dir string) bool {
	return slices.ContainsFunc(s.Checked, func(c SetCheck) bool { return c.Dir == dir })
}

// CheckSeals verifies, before a run of f compares anything, every golden
// set the run compares with: its own, and for a same_run rung the set of
// the rung it must be a prefix of. A set whose directory does not exist
// is not checked: Verify reports its missing goldens.
//
// A golden changed by anything but `make goldens` or `ladder accept` —
// a hand edit, a bad merge, a tool writing into goldens/ — breaks its
// set's seal even when the comparisons would pass (a checkpoint value
// edited by less than regime 1's tolerance compares equal).
func CheckSeals(root string, f *fixture.Fixture) Seals {
	var out Seals
	check := func(dir, set string) {
		abs := filepath.Join(root, filepath.FromSlash(dir))
		if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
			return
		}
		r := seal.Check(abs, set)
		out.Checked = append(out.Checked, SetCheck{Dir: dir, Files: r.Examined})
		//determinism:order-free a set's file names are distinct plain names, so each writes its own entry, filepath.Join(abs, name)
		for name, v := range r.Verified {
			if out.verified == nil {
				out.verified = map[string]seal.Verified{}
			}
			out.verified[filepath.Join(abs, name)] = v
		}
		if !r.OK() {
			out.Problems = append(out.Problems, sealProblem(f, dir, set, r))
		}
	}
	check(f.GoldenDir(), f.Name())
	if sr := f.SameRunAs; sr.Rung != "" {
		check(sr.GoldenDir, sr.Rung)
	}
	return out
}

// sealProblem is one set's breaches as one line: which files, what to do.
func sealProblem(f *fixture.Fixture, dir, set string, r seal.Report) Problem {
	var what []string
	for _, b := range r.Breaches {
		what = append(what, dir+"/"+b.String())
	}
	first := r.Breaches[0]
	files := "files"
	if r.Examined == 1 {
		files = "file"
	}
	p := problem(f, SealCheck, -1, "%s (seal %s/%s, %d sealed %s examined): %s",
		strings.Join(what, "; "), dir, seal.File, r.Examined, files, sealAdvice(dir, set, first))
	p.Column = first.File
	if first.Kind == seal.Edited {
		p.Golden, p.Actual = first.Sealed, first.Now
	}
	return p
}

// sealAdvice says how to restore the committed goldens and how to change
// them on purpose.
func sealAdvice(dir, set string, first seal.Breach) string {
	manifest := dir + "/" + seal.File
	switch first.Kind {
	case seal.Unsealed:
		return fmt.Sprintf("a file that no regeneration wrote is in the set: remove it (`git rm %s/%s`, or rm if git does not have it); "+
			"a new kind of golden artifact is sealed once the run writes it and the rung is regenerated (`make goldens RUNG=%s`)", dir, first.File, set)
	case seal.NoManifest:
		return fmt.Sprintf("restore the manifest if git has it (`git checkout HEAD -- %s`); a set that was never sealed "+
			"(goldens from before seals, or merged from a branch without them) is sealed by `make goldens RUNG=%s`, "+
			"which writes only the manifest when the goldens are what the engine produces", manifest, set)
	case seal.BadManifest:
		return fmt.Sprintf("the seal itself was edited: restore it (`git checkout HEAD -- %s`; if the edit is committed, `git log -p -- %s` finds it), "+
			"or reseal the set by regenerating it (`make goldens RUNG=%s`)", manifest, manifest, set)
	}
	if first.File == artifact.HistoryFile {
		return fmt.Sprintf("the set's history was edited: it records why each change was made and only `make goldens` and `ladder accept` append to it, "+
			"so restore it (`git checkout HEAD -- %s/%s`; if the edit is committed, `git log -p -- %s/%s` finds it) — regenerating cannot give it back", dir, artifact.HistoryFile, dir, artifact.HistoryFile)
	}
	return fmt.Sprintf("a golden was changed outside `make goldens` and `ladder accept`: if that was not meant, restore the set "+
		"(`git checkout HEAD -- %s/`; if the edit is committed, `git log -p -- %s` finds it); to change goldens on purpose, "+
		"regenerate them (`make goldens RUNG=%s`) or accept a reviewed run (`go run ./tools/ladder accept -reason \"…\" %s`), which reseal the set, "+
		"and commit them with a line saying why", dir, dir, set, set)
}
