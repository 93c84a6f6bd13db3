package ladder

import (
	"path"
	"regexp"
	"strings"
)

// fileRung reads the rung id and tier off a fixture file name shaped as
// the loader's naming rule spells it (<rung>-<slug>.yaml, rung
// T<tier>.<n>). It is looser than the loader (any tier number, any
// letter), so a file the loader refuses for its rung id — T9.1, tiers
// stop at 6 — still gets the label `make ladder RUNG=T9.1` selects, and
// its load failure runs and fails there.
var fileRung = regexp.MustCompile(`^(T([0-9]+[a-z]?)(?:\.[0-9]+)?)-[^/]*\.yaml$`)

// RungOfFile returns the rung id and tier a fixture file's name gives it,
// without loading it — so a fixture that does not load still fails under
// its rung's labels and `make ladder RUNG=<id>` selects it. A name that
// does not follow the rule gives the file's base name and tier "-none".
func RungOfFile(name string) (rung, tier string) {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	if m := fileRung.FindStringSubmatch(base); m != nil {
		return m[1], m[2]
	}
	return strings.TrimSuffix(base, ".yaml"), "-none"
}

// LoadFailureSpec is the text of the spec that fails for a fixture file
// that does not load: its rung id (RungOfFile), its path, "does not load".
// The suite names the spec by it and the triage page finds the spec by it,
// so the two cannot drift apart.
func LoadFailureSpec(name string) string {
	rung, _ := RungOfFile(name)
	return rung + " " + name + " does not load"
}

// GoldenDirOfFile is the golden directory a fixture file's rung uses,
// relative to the repository root: goldens/<file name without .yaml>.
func GoldenDirOfFile(name string) string {
	return "goldens/" + strings.TrimSuffix(path.Base(strings.ReplaceAll(name, `\`, "/")), ".yaml")
}
