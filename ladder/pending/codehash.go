package pending

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// CodeHash is the first 16 hex digits of SHA-256 over the code that
// renders artifacts: every .go file of the module under root that is not a
// test, outside tools/ (the command line does not render, and editing it
// between a run and an accept must not void the run), skipping what the go
// command skips (testdata, directories starting with . or _), plus go.mod
// and go.sum. Each file enters as its slash path, its length and its bytes,
// in path order, so moving or renaming code moves the hash too.
func CodeHash(root string) (string, error) {
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if d.IsDir() {
			if rel != "." && (name == "testdata" || name == "tools" && !strings.Contains(rel, "/") ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") || rel == "go.mod" || rel == "go.sum" {
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("code hash: %w", err)
	}
	if !slices.Contains(paths, "go.mod") {
		return "", fmt.Errorf("code hash: %s holds no go.mod", root)
	}
	slices.Sort(paths)
	h := sha256.New()
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return "", fmt.Errorf("code hash: %w", err)
		}
		h.Write([]byte(p + "\x00" + strconv.Itoa(len(b)) + "\x00"))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}
