package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Known is a kept finding (Options.Findings) replayed before an
// exploration draws its first world.
type Known struct {
	File     string
	Property string // the property its header names
	// Failing is how it fails today, nil when every property holds: the
	// engine was fixed, and the file should become a rung (explore
	// -promote) or be deleted in the commit that fixed it.
	Failing *Finding
}

// replayKnown checks every kept finding, in file-name order.
func replayKnown(opt Options, c *Checker) ([]Known, error) {
	if opt.Findings == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(opt.Findings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("explore: kept findings: %w", err)
	}
	var known []Known
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		path := filepath.Join(opt.Findings, e.Name())
		cs, prop, err := Read(path)
		if err != nil {
			return nil, fmt.Errorf("explore: kept finding %s: %w", path, err)
		}
		if prop == "" {
			return nil, fmt.Errorf("explore: kept finding %s names no property (its header has no \"# property:\" line)", path)
		}
		k := Known{File: path, Property: prop}
		out := c.Check(cs)
		for _, x := range out.Findings {
			if x.Property == prop {
				k.Failing = x
				break
			}
		}
		if run := opt.childRun(prop); run != nil && out.Hash != "" {
			// Only another process can say whether this one still fails.
			got, err := run([]string{path})
			if h := got[path]; err != nil || h != out.Hash {
				k.Failing = &Finding{Property: prop, Tick: -1, Message: fmt.Sprintf("a child process wrote dense, trace and checkpoints digests %q, this process %q (%v)", h, out.Hash, err)}
			}
		}
		if k.Failing != nil {
			fmt.Fprintf(opt.Progress, "explore: kept finding %s still fails: %s\n", path, k.Failing)
		} else {
			fmt.Fprintf(opt.Progress, "explore: kept finding %s is fixed (%s holds): promote it (%s -promote %s T<tier>.<n>) or delete it, in the commit that fixed it\n", path, prop, opt.Command, path)
		}
		known = append(known, k)
	}
	return known, nil
}

// keep writes a new failure's file under Options.Findings as well,
// named by its rung id, its property and the hash of its world, so that
// the same world found twice is one file. data is the file as written
// under Options.Out, relocated: a campaign's merge keeps its winners the
// same way.
func keep(opt Options, s Shrunk, x *Finding, data []byte) (string, error) {
	sum := sha256.Sum256(s.Case.YAML)
	// The rung id first: the loader reads a file named <rung>-<slug>.yaml.
	path := filepath.Join(opt.Findings, fmt.Sprintf("%s-%s-%s.yaml", s.Case.Loaded.Rung, x.Property, hex.EncodeToString(sum[:8])))
	data, err := Relocate(data, path)
	if err == nil {
		err = os.MkdirAll(opt.Findings, 0o755)
	}
	if err == nil {
		err = writeAtomic(path, data)
	}
	return path, err
}

// StillFailing lists the kept findings that fail today, by file.
func (s Summary) StillFailing() []string {
	var out []string
	for _, k := range s.Known {
		if k.Failing != nil {
			out = append(out, k.File)
		}
	}
	slices.Sort(out)
	return out
}
