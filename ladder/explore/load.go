package explore

import (
	"fmt"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chronicle/ladder/ladder/fixture"
)

// Case is one generated world as the ladder sees it: the YAML written for
// it and the fixture the loader made of those bytes. Every run of the
// explorer is of Loaded, never of the generated struct, so what runs is
// exactly what a person replaying the file runs.
type Case struct {
	World  World
	YAML   []byte
	Loaded *fixture.Fixture
	// Parent is the corpus world this one mutates (nil: drawn from
	// scratch), and Mutation what was changed.
	Parent   *World
	Mutation string
}

// Load writes f as YAML and loads it back with the fixture loader. A
// refusal, or a loaded world that is not the one written, is an error
// naming which: the generator drew something the language cannot say (a
// generator bug), or the writer and the loader disagree.
func Load(w World, f *fixture.Fixture) (*Case, error) {
	data, err := Marshal(f, nil, nil)
	if err != nil {
		return nil, err
	}
	return parse(w, f, data)
}

func parse(w World, f *fixture.Fixture, data []byte) (*Case, error) {
	fs, err := fixture.Parse(FileName(f), data)
	if err != nil {
		return nil, fmt.Errorf("%s: the loader refused a generated fixture: %w", w, err)
	}
	got := fs[0]
	if d := cmp.Diff(worldOf(f), worldOf(got), cmpopts.EquateEmpty()); d != "" {
		return nil, fmt.Errorf("%s: the loaded world differs from the generated one (-generated +loaded):\n%s", w, d)
	}
	return &Case{World: w, YAML: data, Loaded: got}, nil
}

// worldOf is what a fixture says about its world, for the round trip.
func worldOf(f *fixture.Fixture) any {
	c := worldConfig(f)
	c.Branch = f.Branch
	return struct {
		Rung, Tier, SeedID string
		Ticks              int64
		Disabled           []string
		Config             any
	}{f.Rung, f.Tier, f.SeedID, f.Ticks, f.Disabled, struct {
		Defines, Locations, Cast, Relationships, Kin, Roles, Injections, Items any
	}{c.Defines, c.Locations, c.Cast, c.Relationships, c.Kin, c.Roles, c.Injections, c.Items}}
}
