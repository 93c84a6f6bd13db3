package harness_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/verdict"
)

// run runs f with nothing to compare against, its artifacts in a scratch
// directory of the spec.
func run(f *fixture.Fixture) (*ladder.Result, error) {
	return ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir()})
}

// verify runs f comparing its artifacts with the goldens under root, as
// the suite does, and returns Verify's verdict.
func verify(f *fixture.Fixture, root string) verdict.Verdict {
	GinkgoHelper()
	res, err := ladder.Run(f, ladder.Options{Dir: GinkgoT().TempDir(), Goldens: root})
	Expect(err).NotTo(HaveOccurred())
	return verdict.Verify(res)
}

// artifacts reads a run's artifacts.
func artifacts(res *ladder.Result) map[string][]byte {
	GinkgoHelper()
	out := map[string][]byte{}
	for _, name := range artifact.RungNames {
		b, err := os.ReadFile(res.Path(name))
		Expect(err).NotTo(HaveOccurred())
		out[name] = b
	}
	return out
}

// kept is a run whose artifacts outlive it, for specs that share one run:
// the result and its artifacts' bytes.
type kept struct {
	res  *ladder.Result
	arts map[string][]byte
}

// keep runs f into a directory of its own and reads the artifacts back,
// for a run shared across specs (whose scratch directories do not last).
func keep(f *fixture.Fixture) (kept, error) {
	dir, err := os.MkdirTemp("", "harness-run-*")
	if err != nil {
		return kept{}, err
	}
	defer os.RemoveAll(dir)
	res, err := ladder.Run(f, ladder.Options{Dir: dir})
	if err != nil {
		return kept{}, err
	}
	out := kept{res: res, arts: map[string][]byte{}}
	for _, name := range artifact.RungNames {
		if out.arts[name], err = os.ReadFile(res.Path(name)); err != nil {
			return kept{}, err
		}
	}
	return out, nil
}

// entries lists a directory's names, hidden ones included.
func entries(dir string) []string {
	GinkgoHelper()
	des, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

var _ = Describe("a run that cannot write its artifacts", Label("unit"), func() {
	It("is an error naming the rung, and leaves nothing behind", func() {
		f := parse("fixtures/T0.9-unit.yaml", abortWorld)
		dir := GinkgoT().TempDir()
		blocked := filepath.Join(dir, "file")
		Expect(os.WriteFile(blocked, nil, 0o644)).To(Succeed())
		res, err := ladder.Run(f, ladder.Options{Dir: filepath.Join(blocked, "T0.9")})
		Expect(res).To(BeNil())
		Expect(err).To(MatchError(HavePrefix("T0.9: ")))
		Expect(entries(dir)).To(Equal([]string{"file"}))
	})
})
