package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle/ladder/ladder/shard"
)

// shardScope is -shard k/n: the engine's packages (or the -scope's) dealt
// into n parts balanced by the size of their non-test Go source — a
// mutant count's proxy: gremlins mutates operators, and they grow with
// the code — longest first to the lightest part, the same plan the
// ladder's shards use (ladder/shard.Plan), so every runner of a CI
// matrix computes the same parts. It returns part k's package
// directories.
func shardScope(spec string, dirs, scopes []string, size func(dir string) (int64, error)) ([]string, error) {
	s, err := shard.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	pkgs := scopes
	if len(pkgs) == 0 {
		pkgs = slices.DeleteFunc(slices.Clone(dirs), func(d string) bool { return !engine(d) })
	}
	costs := shard.Costs{}
	for _, d := range pkgs {
		if costs[d], err = size(d); err != nil {
			return nil, err
		}
	}
	part := shard.Plan(pkgs, costs, s.N)[s.K-1]
	if len(part) == 0 {
		return nil, fmt.Errorf("shard %s: no package to mutate: %d package(s) for %d shards", spec, len(pkgs), s.N)
	}
	return part, nil
}

// sourceBytes is the size of a package directory's non-test Go files.
func sourceBytes(dir string) (int64, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return 0, err
		}
		n += info.Size()
	}
	return n, nil
}

// mergeShards joins the gremlins reports that shards of one mutation run
// left in their -out directories (gremlins-<suite>.json for each suite,
// and the dry run's gremlins-reach.json) into out: each merged report
// lists every shard's files, once. The shards mutated disjoint packages,
// so a file in two shards' reports is an error.
func mergeShards(out string, shards []string, suites []string) error {
	for _, name := range append(slices.Clone(suites), "reach") {
		file := "gremlins-" + name + ".json"
		var merged map[string]any
		var files []any
		seen := map[string]string{}
		for _, dir := range shards {
			b, err := os.ReadFile(filepath.Join(dir, file))
			if errors.Is(err, fs.ErrNotExist) && name == "reach" {
				continue // a shard that ran the both pass needs no dry run
			}
			if err != nil {
				return fmt.Errorf("merge: %w", err)
			}
			var r map[string]any
			if err := json.Unmarshal(b, &r); err != nil {
				return fmt.Errorf("merge %s: %w", filepath.Join(dir, file), err)
			}
			list, _ := r["files"].([]any)
			for _, f := range list {
				m, _ := f.(map[string]any)
				n, _ := m["file_name"].(string)
				if prev, ok := seen[n]; ok {
					return fmt.Errorf("merge: %s was mutated in two shards (%s and %s)", n, prev, dir)
				}
				seen[n] = dir
				files = append(files, f)
			}
			if merged == nil {
				merged = r
			}
		}
		if merged == nil {
			continue
		}
		merged["files"] = files
		b, err := json.Marshal(merged)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, file), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
