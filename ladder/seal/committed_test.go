package seal_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/seal"
)

// goldens is the repository's goldens/: the suite runs in ladder/seal.
var goldens = filepath.Join("..", "..", "goldens")

// number finds the first JSON number with a fraction or exponent in a
// checkpoints.json: a checkpoint value.
var number = regexp.MustCompile(`: (-?[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?)(,?)\n`)

// copySet copies the regular files of a golden set into a fresh directory.
func copySet(dir string) string {
	GinkgoHelper()
	out := GinkgoT().TempDir()
	entries, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(out, e.Name()), b, 0o644)).To(Succeed())
	}
	return out
}

var _ = Describe("the committed goldens", func() {
	It("are sealed set by set, and a 1e-9 edit of a checkpoint value in any of them breaks its seal, naming checkpoints.json", func() {
		var sets, unsealed []string
		Expect(filepath.WalkDir(goldens, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == ".regen" {
				return filepath.SkipDir
			}
			if d.IsDir() || d.Name() != "checkpoints.json" {
				return nil
			}
			dir := filepath.Dir(path)
			if _, err := os.Stat(filepath.Join(dir, seal.File)); err != nil {
				unsealed = append(unsealed, dir)
				return nil
			}
			sets = append(sets, dir)
			return nil
		})).To(Succeed())
		Expect(unsealed).To(BeEmpty(), "golden sets without a manifest (run make goldens)")
		Expect(len(sets)).To(BeNumerically(">=", 45), "the walk found too few golden sets: it examined nothing like the ladder")

		for _, dir := range sets {
			b, err := os.ReadFile(filepath.Join(dir, seal.File))
			Expect(err).NotTo(HaveOccurred())
			m, err := seal.Parse(b)
			Expect(err).NotTo(HaveOccurred(), dir)
			r := seal.Check(dir, m.Set)
			Expect(r.Breaches).To(BeEmpty(), dir)
			Expect(r.Examined).To(Equal(len(m.Files)), dir)

			scratch := copySet(dir)
			path := filepath.Join(scratch, "checkpoints.json")
			cp, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			at := number.FindSubmatchIndex(cp)
			Expect(at).NotTo(BeNil(), "%s: no checkpoint value to edit", dir)
			v, err := strconv.ParseFloat(string(cp[at[2]:at[3]]), 64)
			Expect(err).NotTo(HaveOccurred())
			edited := strconv.FormatFloat(v+1e-9, 'g', -1, 64)
			Expect(edited).NotTo(Equal(string(cp[at[2]:at[3]])))
			cp = append(append(append([]byte{}, cp[:at[2]]...), edited...), cp[at[3]:]...)
			Expect(os.WriteFile(path, cp, 0o644)).To(Succeed())

			r = seal.Check(scratch, m.Set)
			Expect(r.Breaches).To(HaveLen(1), "%s: %v", dir, described(r))
			Expect(r.Breaches[0].File).To(Equal("checkpoints.json"), dir)
			Expect(r.Breaches[0].Kind).To(Equal(seal.Edited), dir)
		}
		AddReportEntry("sets", len(sets))
	})
})
