package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Go's coverage blocks are statement lists: a switch clause's block starts
// after the colon of its `case`, so the case expression itself lies in no
// block, and gremlins, which only tries a mutant inside a block some test
// ran, reports every mutant of a case expression as not covered and never
// tries it. A clause body that ran means its case expression was
// evaluated, so coverCases adds, for every block that ran and starts on a
// single-line `case ...:`, a block from the start of that line to the
// block's start. (A case expression evaluated to false whose body never
// ran stays not covered: erring toward fewer mutants tried, never toward
// a mutant wrongly counted.)

// coverCases rewrites a text coverage profile (one "file:L.C,L.C stmts
// count" per block after the mode line) with those blocks added. lines
// returns the lines of a profile file name (an import path).
func coverCases(profile []byte, lines func(file string) ([]string, error)) ([]byte, error) {
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(profile))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		out.WriteString(line)
		out.WriteByte('\n')
		if n == 1 || line == "" {
			continue
		}
		file, startLine, startCol, count, err := parseBlock(line)
		if err != nil {
			return nil, fmt.Errorf("profile line %d: %w", n, err)
		}
		if count == 0 {
			continue
		}
		src, err := lines(file)
		if err != nil {
			return nil, err
		}
		if startLine < 1 || startLine > len(src) || startCol < 1 || startCol-1 > len(src[startLine-1]) {
			return nil, fmt.Errorf("profile line %d: block %d.%d is outside %s", n, startLine, startCol, file)
		}
		head := strings.TrimSpace(src[startLine-1][:startCol-1])
		if strings.HasPrefix(head, "case ") && strings.HasSuffix(head, ":") {
			fmt.Fprintf(&out, "%s:%d.1,%d.%d 0 %d\n", file, startLine, startLine, startCol, count)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// parseBlock reads "file:L.C,L.C stmts count".
func parseBlock(line string) (file string, startLine, startCol int, count int64, err error) {
	colon := strings.LastIndexByte(line, ':')
	fields := strings.Fields(line[colon+1:])
	if colon < 0 || len(fields) != 3 {
		return "", 0, 0, 0, fmt.Errorf("not a block: %q", line)
	}
	start, _, ok := strings.Cut(fields[0], ",")
	l, c, ok2 := strings.Cut(start, ".")
	if !ok || !ok2 {
		return "", 0, 0, 0, fmt.Errorf("not a block: %q", line)
	}
	if startLine, err = strconv.Atoi(l); err != nil {
		return "", 0, 0, 0, fmt.Errorf("not a block: %q: %w", line, err)
	}
	if startCol, err = strconv.Atoi(c); err != nil {
		return "", 0, 0, 0, fmt.Errorf("not a block: %q: %w", line, err)
	}
	if count, err = strconv.ParseInt(fields[2], 10, 64); err != nil {
		return "", 0, 0, 0, fmt.Errorf("not a block: %q: %w", line, err)
	}
	return line[:colon], startLine, startCol, count, nil
}

// coverCasesFile is the wrapper's `cover-cases <profile> <module root>`:
// it rewrites the profile in place (a temporary file, then a rename),
// reading sources under the module root.
func coverCasesFile(profile, root string) error {
	mod, err := modulePath(root)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(profile)
	if err != nil {
		return err
	}
	cache := map[string][]string{}
	out, err := coverCases(b, func(file string) ([]string, error) {
		if src, ok := cache[file]; ok {
			return src, nil
		}
		rel, ok := strings.CutPrefix(file, mod+"/")
		if !ok {
			return nil, fmt.Errorf("%s is not in module %s", file, mod)
		}
		src, err := readLines(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		cache[file] = src
		return src, nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", profile, err)
	}
	tmp := profile + ".cases"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, profile)
}

// modulePath reads the module path from root's go.mod.
func modulePath(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.Trim(strings.TrimSpace(p), `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod: no module line", root)
}
