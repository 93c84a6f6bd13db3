package explore

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/chronicle/ladder/ladder/fixture"
)

// Write is a shrunk failure as a fixture file: comments saying which
// property failed, where, under which seed and how to replay it, then the
// world, with the expectations a correct engine meets and this one does
// not (and, for a locality property, a case holding the changed world to
// the rung roll by roll). The file is already a rung: Promote only names
// it.
func Write(cs *Case, x *Finding, r Written, command string) ([]byte, error) {
	f := cs.Loaded
	var head bytes.Buffer
	fmt.Fprintf(&head, "# ladder explore: property %s failed\n", x.Property)
	fmt.Fprintf(&head, "# property: %s\n", x.Property)
	fmt.Fprintf(&head, "# first tick: %d\n", x.Tick)
	fmt.Fprintf(&head, "# exploration seed: %d, world %d\n", cs.World.Seed, cs.World.Index)
	fmt.Fprintf(&head, "# shrunk from %s in %d tries\n", r.Original, r.Tries)
	for _, line := range wrap(x.Message, 100) {
		fmt.Fprintf(&head, "# %s\n", line)
	}
	head.WriteString(replayLines(command, r.File))
	var cases *yaml.Node
	if x.Case != nil {
		cases = caseOf(f, x.Case)
	}
	g := *f
	g.Summary = fmt.Sprintf("Found by ladder explore (seed %d, world %d) and shrunk: %s", cs.World.Seed, cs.World.Index, x)
	body, err := Marshal(&g, x.Expect, cases)
	if err != nil {
		return nil, err
	}
	return append(head.Bytes(), body...), nil
}

// replayLines end a written failure's header: how to replay and promote
// the file, which they name.
func replayLines(command, path string) string {
	return fmt.Sprintf("# replay: %s -replay %s\n# promote: %s -promote %s T3.9\n", command, path, command, path)
}

// Relocate returns a written failure as Write would have written it at
// path: the replay and promote lines, the last two of its header, are
// the only ones that name the file. A kept finding is its report
// relocated under findings/, and a campaign's merge relocates each
// shard's report into the merged directory, so both are the bytes one
// exploration writes.
func Relocate(data []byte, path string) ([]byte, error) {
	// The header is the leading comment lines; the replay and promote
	// lines are its last two.
	var lines [][]byte
	rest := data
	for bytes.HasPrefix(rest, []byte("# ")) {
		line, after, ok := bytes.Cut(rest, []byte("\n"))
		if !ok {
			break
		}
		lines, rest = append(lines, line), after
	}
	n := len(lines)
	if n < 2 || !bytes.HasPrefix(lines[n-2], []byte("# replay: ")) || !bytes.HasPrefix(lines[n-1], []byte("# promote: ")) {
		return nil, errors.New("relocate: no replay and promote lines end the header: not a written failure")
	}
	replay := string(lines[n-2])
	cut := strings.LastIndex(replay, " -replay ")
	if cut < 0 {
		return nil, fmt.Errorf("relocate: the replay line %q names no file", replay)
	}
	command := strings.TrimPrefix(replay[:cut], "# replay: ")
	var out bytes.Buffer
	for _, l := range lines[:n-2] {
		out.Write(l)
		out.WriteByte('\n')
	}
	out.WriteString(replayLines(command, path))
	out.Write(rest)
	return out.Bytes(), nil
}

func wrap(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(out, line)
}

// caseOf is the locality variant as a case: the change, on a branch of
// its own, compared with the rung roll by roll.
func caseOf(f *fixture.Fixture, v *Variant) *yaml.Node {
	c := mapping()
	add(c, "summary", str("the world with "+v.What+": every roll both runs roll has the same value, and only the change's own rolls are new"))
	switch v.Property {
	case PropIsolatedNPC, PropIsolatedTown:
		add(c, "counterfactual_of", str(f.Rung))
		place := isolated + "place"
		if v.Property == PropIsolatedTown {
			place = isolated + "town"
		}
		add(c, "locations", flowMap(place, flowMap("hold", str(isolated+"hold"))))
		cast := flow(mapping())
		for _, n := range v.NPCs {
			add(cast, n, flowMap("home", str(place)))
		}
		add(c, "cast", cast)
		add(c, "expect", comparison(f.Rung, flowMap("npcs", flowSeq(strs(v.NPCs)...))))
	case PropUnusedRule:
		add(c, "counterfactual_of", str(f.Rung))
		add(c, "rules", flowMap("disable", flowSeq(strs(append(append([]string{}, f.Disabled...), v.Rule))...)))
		add(c, "expect", comparison(f.Rung, nil))
	default:
		return nil
	}
	out := mapping()
	add(out, "changed", c)
	return out
}

func comparison(against string, scope *yaml.Node) *yaml.Node {
	cmp := flowMap("against", str(against))
	if scope != nil {
		add(cmp, "only_in_one", scope)
	}
	e := mapping()
	add(e, "comparison", cmp)
	s := seq()
	s.Content = []*yaml.Node{e}
	return s
}

var propertyLine = regexp.MustCompile(`(?m)^# property: (\S+)$`)

// Read loads a written failure (or any fixture) as a world to explore:
// its expectations and cases are the report's, not the world's, so they
// are left out; and the property the report names, "" when none.
func Read(path string) (*Case, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	fs, err := fixture.Load(path)
	if err != nil {
		return nil, "", err
	}
	g, err := reparse(fs[0])
	if err != nil {
		return nil, "", err
	}
	prop := ""
	if m := propertyLine.FindSubmatch(data); m != nil {
		prop = string(m[1])
	}
	cs, err := parse(World{}, g, mustMarshal(g))
	return cs, prop, err
}

func mustMarshal(f *fixture.Fixture) []byte {
	b, _ := Marshal(f, nil, nil)
	return b
}

// promoteTarget is what -promote names the new rung: its id, and
// optionally its slug (T3.9, T3.9-reputation-once).
var promoteTarget = regexp.MustCompile(`^(T([0-6][ab]?)\.[1-9][0-9]*)(?:-([a-z0-9]+(?:-[a-z0-9]+)*))?$`)

// Promote turns a written failure into a rung skeleton: the same world,
// expectations and case under the rung id target gives (T3.9, or
// T3.9-<slug> to name the file). It returns the new file's name,
// <fixtures>/<rung>-<slug>.yaml, the slug "explored" when target gives
// none, and its bytes; the rung then fails the same way under make
// ladder, and once the engine is fixed, make goldens gives it its
// goldens. The name comes from target alone, never from the file's
// "# property:" line, which a crafted file could make a path of; and a
// rung id a fixture under fixtures already has is refused: one rung, one
// file.
func Promote(path, target, fixtures string) (string, []byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	m := promoteTarget.FindStringSubmatch(target)
	if m == nil {
		return "", nil, fmt.Errorf("promote: %q is not a rung id, or one with a slug (T<tier>.<n>[-<slug>], e.g. T3.9 or T3.9-reputation-once; a slug is lowercase words joined by '-')", target)
	}
	rung, tier, slug := m[1], m[2], cmp.Or(m[3], "explored")
	files, err := fixture.Discover(fixtures, fixtures)
	if err != nil {
		return "", nil, fmt.Errorf("promote: %w", err)
	}
	for _, f := range files {
		if strings.EqualFold(f.Rung, rung) {
			return "", nil, fmt.Errorf("promote: rung %s is %s already: one rung, one file (choose another rung id)", rung, f.Name)
		}
	}
	fs, err := fixture.Load(path)
	if err != nil {
		return "", nil, fmt.Errorf("promote: %w", err)
	}
	old := fs[0].Rung
	prop := "an explored world"
	if pm := propertyLine.FindSubmatch(data); pm != nil {
		prop = string(pm[1])
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return "", nil, fmt.Errorf("promote: %w", err)
	}
	root := doc.Content[0]
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.Value == old {
			n.Value = rung
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch k, v := root.Content[i].Value, root.Content[i+1]; k {
		case "tier":
			v.Value, v.Tag, v.Style = tier, "!!str", 0
		case "title":
			v.Value = "Explored — " + prop + " (promoted from " + fs[0].File + ")"
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return "", nil, err
	}
	_ = enc.Close()
	name := filepath.ToSlash(filepath.Join(fixtures, rung+"-"+slug+".yaml"))
	if _, err := fixture.Parse(name, buf.Bytes()); err != nil {
		return "", nil, fmt.Errorf("promote: the promoted fixture does not load: %w", err)
	}
	return name, buf.Bytes(), nil
}
