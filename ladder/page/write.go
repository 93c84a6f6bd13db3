package page

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Page builds each input's section and renders them all, in order. A
// section that cannot be built (a malformed artifact) keeps its failure
// lines and shows the error instead of its panels, as does one whose
// data cannot be embedded (Render), so one bad run never costs the whole
// page: Page then returns the page and an error naming every such
// section.
func Page(inputs []Input, opt Options) ([]byte, error) {
	sections := make([]*Section, 0, len(inputs))
	var errs []error
	for _, in := range inputs {
		s, err := Build(in, opt)
		if err != nil {
			errs = append(errs, err)
			s, _ = Build(Input{Name: in.Name, Title: in.Title, Source: in.Source, Failures: in.Failures,
				Notes: append(slices.Clone(in.Notes), fmt.Sprintf("This section could not be built: %v.", err))}, opt)
		}
		sections = append(sections, s)
	}
	html, err := Render(sections, opt)
	return html, errors.Join(append(errs, err)...)
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
