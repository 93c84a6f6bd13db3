package page

import (
	"fmt"
	"os"
	"path/filepath"
)

// Page builds each input's section and renders them all, in order.
func Page(inputs []Input, opt Options) ([]byte, error) {
	sections := make([]*Section, 0, len(inputs))
	for _, in := range inputs {
		s, err := Build(in, opt)
		if err != nil {
			return nil, err
		}
		sections = append(sections, s)
	}
	return Render(sections)
}

// Write writes the page atomically: to a temporary file in the same
// directory, then renamed over path, so a reader (or a browser reloading)
// never sees half a page.
func Write(path string, page []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write triage page: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".index-*.html")
	if err != nil {
		return fmt.Errorf("write triage page: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(page); err != nil {
		tmp.Close()
		return fmt.Errorf("write triage page: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write triage page: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write triage page: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write triage page: %w", err)
	}
	return nil
}
