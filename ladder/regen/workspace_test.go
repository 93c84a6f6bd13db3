package regen_test

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/regen"
)

// The files every workspace spec switches: two golden directories, so a
// switch killed half way leaves one rung new and the other old.
var switched = []string{
	"goldens/T0.1-witness/checkpoints.json",
	"goldens/T0.1-witness/dense.csv",
	"goldens/T0.2-decay/dense.csv",
}

func contents(version string) map[string][]byte {
	out := map[string][]byte{}
	for _, p := range switched {
		out[p] = []byte(version + " " + p + "\n")
	}
	return out
}

// sources writes version's contents into files under dir and returns them
// as Commit takes them: each golden path to the file holding its bytes.
func sources(dir, version string) (map[string]string, error) {
	out := map[string]string{}
	for p, b := range contents(version) {
		src := filepath.Join(dir, "src-"+strings.ReplaceAll(p, "/", "_"))
		if err := os.WriteFile(src, b, 0o644); err != nil {
			return nil, err
		}
		out[p] = src
	}
	return out, nil
}

// newSources is sources of the "new" contents in a scratch directory of
// the spec.
func newSources() map[string]string {
	GinkgoHelper()
	files, err := sources(GinkgoT().TempDir(), "new")
	Expect(err).NotTo(HaveOccurred())
	return files
}

func writeTree(root string, files map[string][]byte) {
	GinkgoHelper()
	for p, b := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		Expect(os.MkdirAll(filepath.Dir(full), 0o755)).To(Succeed())
		Expect(os.WriteFile(full, b, 0o644)).To(Succeed())
	}
}

// tree lists every file under root/goldens (workspace included) with its
// content.
func tree(root string) map[string]string {
	GinkgoHelper()
	out := map[string]string{}
	Expect(filepath.WalkDir(filepath.Join(root, "goldens"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})).To(Succeed())
	return out
}

// settled is the tree of a root whose goldens are all of one version and
// whose workspace holds nothing but its lock.
func settled(version string) map[string]string {
	out := map[string]string{"goldens/.regen/lock": ""}
	for p, b := range contents(version) {
		out[p] = string(b)
	}
	return out
}

// killChildAt runs this test binary as a child that opens the workspace
// under root and commits the "new" contents, stopping at point; it kills
// the child with SIGKILL once it has reported reaching the point.
// The point "render" stops after writing part of a rendering instead.
func killChildAt(root, point string) {
	GinkgoHelper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRegen$")
	cmd.Env = append(os.Environ(), "REGEN_CHILD_ROOT="+root, "REGEN_CHILD_STOP="+point)
	out, err := cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	cmd.Stderr = GinkgoWriter
	Expect(cmd.Start()).To(Succeed())
	line, err := bufio.NewReader(out).ReadString('\n')
	Expect(err).NotTo(HaveOccurred(), "the child ended before reaching %q", point)
	Expect(line).To(Equal("stopped at " + point + "\n"))
	Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
	err = cmd.Wait()
	var exit *exec.ExitError
	Expect(errors.As(err, &exit)).To(BeTrue(), "%v", err)
	Expect(exit.Sys().(syscall.WaitStatus).Signal()).To(Equal(syscall.SIGKILL))
}

// childMain is the child's side of killChildAt.
func childMain(root, point string) {
	ws, _, err := regen.Open(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	stop := func(p string) {
		if p == point {
			fmt.Printf("stopped at %s\n", p)
			select {} // wait for SIGKILL
		}
	}
	if point == "render" {
		dir := filepath.Join(ws.RunDir(1), "goldens", "T0.1-witness")
		if err := os.MkdirAll(dir, 0o755); err == nil {
			err = os.WriteFile(filepath.Join(dir, "dense.csv"), []byte("tick\n0\n"), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		stop("render")
	}
	ws.SetStep(stop)
	scratch, err := os.MkdirTemp("", "regen-child-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	files, err := sources(scratch, "new")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := ws.Commit(files); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "the child never reached %q\n", point)
	os.Exit(3)
}

var _ = Describe("Workspace", func() {
	var root string
	BeforeEach(func() {
		root = GinkgoT().TempDir()
		writeTree(root, contents("old"))
	})

	open := func() (*regen.Workspace, regen.Recovery) {
		GinkgoHelper()
		ws, rec, err := regen.Open(root)
		Expect(err).NotTo(HaveOccurred())
		return ws, rec
	}

	It("commits every file and leaves nothing but the lock", func() {
		ws, rec := open()
		Expect(rec.Empty()).To(BeTrue())
		Expect(ws.Commit(newSources())).To(Succeed())
		Expect(ws.Close()).To(Succeed())
		Expect(tree(root)).To(Equal(settled("new")))
	})

	It("refuses a path outside goldens/ or inside the workspace, writing nothing", func() {
		ws, _ := open()
		defer ws.Close()
		for _, p := range []string{"fixtures/T0.1-witness.yaml", "goldens/../go.mod", "goldens/.regen/lock", "/etc/passwd"} {
			files := newSources()
			files[p] = files[switched[0]]
			Expect(ws.Commit(files)).To(MatchError(fmt.Sprintf("%q is not a golden file path", p)))
		}
		Expect(ws.Close()).To(Succeed())
		Expect(tree(root)).To(Equal(settled("old")))
	})

	It("is exclusive: a second Open fails while the first holds it, and succeeds after", func() {
		ws, _ := open()
		_, _, err := regen.Open(root)
		Expect(err).To(MatchError(regen.ErrBusy))
		Expect(ws.Close()).To(Succeed())
		again, _ := open()
		Expect(again.Close()).To(Succeed())
	})

	It("removes the temporary files older versions left beside goldens", func() {
		writeTree(root, map[string][]byte{
			"goldens/T0.1-witness/.dense.csv.tmp-123456":         []byte("torn"),
			"goldens/T0.1-witness/case/.trace.jsonl.tmp-98":      []byte("torn"),
			"goldens/T0.1-witness/.notes.tmp-1":                  []byte("not ours"),
			"goldens/T0.1-witness/.checkpoints.json.tmp-1/inner": []byte("a directory is not ours"),
		})
		ws, rec := open()
		Expect(ws.Close()).To(Succeed())
		Expect(rec.Finished).To(BeEmpty())
		Expect(rec.Removed).To(Equal([]string{"goldens/T0.1-witness/.dense.csv.tmp-123456", "goldens/T0.1-witness/case/.trace.jsonl.tmp-98"}))
		want := settled("old")
		want["goldens/T0.1-witness/.notes.tmp-1"] = "not ours"
		want["goldens/T0.1-witness/.checkpoints.json.tmp-1/inner"] = "a directory is not ours"
		Expect(tree(root)).To(Equal(want))
	})

	// The recovery specs kill a real process with SIGKILL at each point of
	// a switch and check what the next Open finds and leaves.
	DescribeTable("after a run killed with SIGKILL, the next Open removes the debris and leaves the goldens all old or all new",
		func(point string, debris []string, version string, finished []string) {
			killChildAt(root, point)
			before := tree(root)
			for _, d := range debris {
				Expect(before).To(HaveKey(d), "the kill at %q should have left %s", point, d)
			}
			if point == "switch "+switched[1] {
				Expect(before[switched[0]]).To(HavePrefix("new "), "killed half way through the switch: the first file is new…")
				Expect(before[switched[1]]).To(HavePrefix("old "), "…and the next one old")
			}

			ws, rec := open()
			Expect(ws.Close()).To(Succeed())
			Expect(rec.Finished).To(Equal(finished))
			Expect(rec.Empty()).To(BeFalse(), "the kill left debris; Open must say what it did with it")
			for _, r := range rec.Removed {
				Expect(r).To(HavePrefix("goldens/.regen/"))
			}
			Expect(tree(root)).To(Equal(settled(version)))
		},
		Entry("while rendering", "render", []string{"goldens/.regen/run-1/goldens/T0.1-witness/dense.csv"}, "old", nil),
		Entry("while staging", "stage "+switched[1], []string{"goldens/.regen/stage/" + switched[0]}, "old", nil),
		Entry("staged, before the commit", "journal", []string{"goldens/.regen/stage/" + switched[2]}, "old", nil),
		Entry("committed, before the first rename", "switch "+switched[0], []string{"goldens/.regen/journal"}, "new", switched),
		Entry("half way through the switch", "switch "+switched[1], []string{"goldens/.regen/journal", "goldens/.regen/stage/" + switched[2]}, "new", switched[1:]),
	)

	It("refuses to replay a journal that names a file outside goldens/", func() {
		writeTree(root, map[string][]byte{"goldens/.regen/journal": []byte("goldens/T0.1-witness/dense.csv\n../outside\n")})
		_, _, err := regen.Open(root)
		Expect(err).To(MatchError(`interrupted switch: journal goldens/.regen/journal: "../outside" is not a golden file path`))
		Expect(slices.Collect(func(yield func(string) bool) {
			for p := range tree(root) {
				if strings.HasPrefix(p, "goldens/T0") && !yield(p) {
					return
				}
			}
		})).To(ConsistOf(switched))
	})
})

var _ = Describe("Workspace.Inherit", func() {
	It("keeps the workspace locked while a child that inherited it lives, after its parent let go", func() {
		root := GinkgoT().TempDir()
		ws, _, err := regen.Open(root)
		Expect(err).NotTo(HaveOccurred())
		child := exec.Command("sleep", "30")
		child.ExtraFiles = []*os.File{ws.Inherit()}
		Expect(child.Start()).To(Succeed())
		DeferCleanup(func() { child.Process.Kill(); child.Wait() })
		Expect(ws.Close()).To(Succeed())

		_, _, err = regen.Open(root)
		Expect(err).To(MatchError(regen.ErrBusy), "the orphaned child still holds the lock")

		Expect(child.Process.Signal(syscall.SIGKILL)).To(Succeed())
		_ = child.Wait()
		again, _, err := regen.Open(root)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Close()).To(Succeed())
	})
})
