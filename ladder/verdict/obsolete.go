package verdict

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/fixture"
)

// ObsoleteGoldens lists the golden directories under root that no fixture
// owns — a rung directory whose fixture file is gone or renamed, or a case
// directory its rung no longer has — and how many directories it examined.
// A fixture that does not load still owns its rung's directory (its cases
// are unknown, so their directories are left alone). Hidden entries (the
// regeneration workspace) are not golden directories.
func ObsoleteGoldens(root string, files []fixture.File) (obsolete []string, examined int, err error) {
	cases := map[string][]string{} // golden dir → its cases; nil when the fixture does not load
	for _, file := range files {
		dir := fixture.GoldenDirOfFile(file.Name)
		cases[dir] = nil
		if file.Err == nil {
			cs := []string{}
			for _, f := range file.Fixtures {
				if f.Case != "" {
					cs = append(cs, f.Case)
				}
			}
			cases[dir] = cs
		}
	}
	rungs, err := dirs(filepath.Join(root, "goldens"))
	if err != nil {
		return nil, 0, err
	}
	for _, r := range rungs {
		examined++
		dir := "goldens/" + r
		cs, owned := cases[dir]
		if !owned {
			obsolete = append(obsolete, dir)
			continue
		}
		subs, err := dirs(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return nil, examined, err
		}
		for _, c := range subs {
			examined++
			if cs != nil && !slices.Contains(cs, c) {
				obsolete = append(obsolete, dir+"/"+c)
			}
		}
	}
	return obsolete, examined, nil
}

// dirs lists the directories in dir, hidden ones aside, in name order; a
// missing dir has none.
func dirs(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list golden directories: %w", err)
	}
	var out []string
	for _, d := range des {
		if d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, d.Name())
		}
	}
	return out, nil
}
