// Package golist reads the go command's own answer about the module's
// packages (`go list -json`), for the specs that hold the import graph
// to its layering: the engine never reaches views (views/imports_test.go),
// and inside ladder/ imports run one way (ladder/harness/imports_test.go).
// Asking the go command, rather than parsing import lines, sees build
// constraints and test imports exactly as a build does.
package golist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Package is what the specs read of one listed package.
type Package struct {
	ImportPath string
	Imports    []string
}

// List runs `go list -json` with args (flags, then patterns) and returns
// every package it lists, in its order. The error carries the go
// command's own message.
func List(args ...string) ([]Package, error) {
	out, err := exec.Command("go", append([]string{"list", "-json"}, args...)...).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return nil, fmt.Errorf("go list %s: %w: %s", strings.Join(args, " "), err, ee.Stderr)
	}
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", strings.Join(args, " "), err)
	}
	var pkgs []Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p Package
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list %s: %w", strings.Join(args, " "), err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}
