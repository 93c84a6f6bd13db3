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

	"github.com/chronicle/ladder/ladder/confine"
	"github.com/chronicle/ladder/ladder/regen"
)

// The files every workspace spec switches: two golden directories, so a
// switch killed half way leaves one rung new and the other old, and a
// third set the switch adds (a new rung: no old bytes).
var (
	switched = []string{
		"goldens/T0.1-witness/checkpoints.json",
		"goldens/T0.1-witness/dense.csv",
		"goldens/T0.2-decay/dense.csv",
	}
	added = "goldens/T0.9-added/dense.csv"
	// every is what a switch moves, in its order.
	every = append(slices.Clone(switched), added)
)

func contents(version string) map[string][]byte {
	out := map[string][]byte{}
	for _, p := range switched {
		out[p] = []byte(version + " " + p + "\n")
	}
	if version == "new" {
		out[added] = []byte("new " + added + "\n")
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
	killChildDoing(root, "commit", point)
}

// killChildDoing is killChildAt for a child that does one of "commit",
// "abandon" (regen.Abandon, as `make goldens ABANDON=1`) or "finish"
// (regen.Open, which finishes a committed switch, as FINISH=1).
func killChildDoing(root, do, point string) {
	GinkgoHelper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRegen$")
	cmd.Env = append(os.Environ(), "REGEN_CHILD_ROOT="+root, "REGEN_CHILD_DO="+do, "REGEN_CHILD_STOP="+point)
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

// childMain is the child's side of killChildDoing.
func childMain(root, do, point string) {
	stop := func(p string) {
		if p == point {
			fmt.Printf("stopped at %s\n", p)
			select {} // wait for SIGKILL
		}
	}
	switch do {
	case "abandon":
		regen.SetTestStep(stop)
		_, err := regen.Abandon(root)
		fmt.Fprintf(os.Stderr, "the child never reached %q (%v)\n", point, err)
		os.Exit(3)
	case "finish":
		regen.SetTestStep(stop)
		_, _, err := regen.Open(root)
		fmt.Fprintf(os.Stderr, "the child never reached %q (%v)\n", point, err)
		os.Exit(3)
	}
	ws, _, err := regen.Open(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
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

	It("refuses to switch a golden set committed as a symlink, writing nothing where it leads", func() {
		outside := GinkgoT().TempDir()
		writeTree(outside, map[string][]byte{"dense.csv": []byte("someone's\n")})
		set := filepath.Join(root, "goldens", "T0.2-decay")
		Expect(os.RemoveAll(set)).To(Succeed())
		Expect(os.Symlink(outside, set)).To(Succeed())
		ws, _ := open()
		err := ws.Commit(newSources())
		var link *confine.LinkError
		Expect(errors.As(err, &link)).To(BeTrue(), "got %v", err)
		Expect(link.Path).To(Equal(set))
		Expect(ws.Close()).To(Succeed())
		Expect(os.ReadFile(filepath.Join(outside, "dense.csv"))).To(Equal([]byte("someone's\n")))
		entries, err := os.ReadDir(outside)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1))
		Expect(os.Remove(set)).To(Succeed()) // tree reads files, and the link leads to a directory
		want := settled("old")
		delete(want, switched[2])
		Expect(tree(root)).To(Equal(want), "nothing staged is left and no other set was switched")
	})

	It("refuses a symlinked workspace (or goldens/), clearing nothing where it leads", func() {
		outside := GinkgoT().TempDir()
		writeTree(outside, map[string][]byte{"stage/keep": []byte("someone's\n")})
		Expect(os.Symlink(outside, filepath.Join(root, "goldens", ".regen"))).To(Succeed())
		_, _, err := regen.Open(root)
		Expect(err).To(MatchError(ContainSubstring(filepath.Join(root, "goldens", ".regen") + " is a symlink (to " + outside + "): refused")))
		_, err = regen.Abandon(root)
		Expect(err).To(MatchError(ContainSubstring("is a symlink")))
		Expect(os.ReadFile(filepath.Join(outside, "stage", "keep"))).To(Equal([]byte("someone's\n")))
		entries, err := os.ReadDir(outside)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1), "no lock file written there")
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
		Entry("committed, before the first rename", "switch "+switched[0], []string{"goldens/.regen/journal"}, "new", every),
		Entry("half way through the switch", "switch "+switched[1], []string{"goldens/.regen/journal", "goldens/.regen/stage/" + switched[2]}, "new", every[1:]),
	)

	// Abandoning is the way back from any committed switch: every file as
	// it was before, the set the switch added gone, nothing left over.
	DescribeTable("after a kill inside the switch window, Abandon puts every file back as it was before the switch",
		func(point string) {
			killChildAt(root, point)
			p := regen.Interrupted(root)
			Expect(p).NotTo(BeNil())
			Expect(p.Stale).To(BeEmpty())
			Expect(p.Files).To(Equal(len(every)))
			Expect(p.Sets).To(Equal([]string{"goldens/T0.1-witness", "goldens/T0.2-decay", "goldens/T0.9-added"}))
			Expect(p.Advice()).To(HaveSuffix("finish it with `make goldens FINISH=1`, or abandon it with `make goldens ABANDON=1`, which puts back every file as it was before the switch"))

			a, err := regen.Abandon(root)
			Expect(err).NotTo(HaveOccurred())
			Expect(a.Restored).To(Equal(switched))
			Expect(a.Removed).To(Equal([]string{added}))
			Expect(a.Overwrote).To(BeEmpty())
			Expect(tree(root)).To(Equal(settled("old")), "the added set's directory is gone too")
			Expect(regen.Interrupted(root)).To(BeNil())
		},
		Entry("committed, before the first rename", "switch "+switched[0]),
		Entry("half way through the switch", "switch "+switched[1]),
		Entry("before the last rename", "switch "+added),
	)

	// Recovery can be killed too: ABANDON=1 and FINISH=1 are killed at
	// every step that changes a golden (each rename or removal, and the
	// dropping of the journal), once and then again at a later step, and
	// the same command run once more ends the switch.
	abandonSteps := append(slices.Clone(every), "journal")
	for i, first := range abandonSteps {
		It("finishes an abandon killed at "+first+" when ABANDON=1 is run again, also after a second kill", func() {
			killChildAt(root, "switch "+switched[2]) // the two T0.1 files moved, the rest not
			killChildDoing(root, "abandon", "abandon "+first)

			p := regen.Interrupted(root)
			Expect(p).NotTo(BeNil())
			Expect(p.Abandoning).To(BeTrue())
			Expect(p.Advice()).To(HavePrefix("goldens are half switched back: abandoning a killed switch of 4 golden file(s) in goldens/T0.1-witness, goldens/T0.2-decay, goldens/T0.9-added was itself interrupted: " +
				"run `make goldens ABANDON=1` again"))
			_, _, err := regen.Open(root)
			var stale *regen.StaleError
			Expect(errors.As(err, &stale)).To(BeTrue(), "FINISH=1 and make goldens must not roll a half-abandoned switch forward: got %v", err)

			if i+1 < len(abandonSteps) {
				killChildDoing(root, "abandon", "abandon "+abandonSteps[i+1])
			}
			a, err := regen.Abandon(root)
			Expect(err).NotTo(HaveOccurred())
			Expect(a.Overwrote).To(BeEmpty(), "what the killed abandon put back is its own doing, not a change since")
			Expect(tree(root)).To(Equal(settled("old")))
			Expect(regen.Interrupted(root)).To(BeNil())
			ws, rec := open()
			Expect(ws.Close()).To(Succeed())
			Expect(rec.Finished).To(BeEmpty())
		})
	}

	for _, first := range every {
		It("finishes a FINISH=1 killed at its rename of "+first+" when it is run again", func() {
			killChildAt(root, "switch "+switched[0]) // committed, nothing moved
			killChildDoing(root, "finish", "switch "+first)
			Expect(regen.Interrupted(root)).NotTo(BeNil())
			Expect(regen.Interrupted(root).Stale).To(BeEmpty())
			ws, _ := open()
			Expect(ws.Close()).To(Succeed())
			Expect(tree(root)).To(Equal(settled("new")))
			Expect(regen.Interrupted(root)).To(BeNil())
		})
	}

	It("refuses to replay a switch over a file restored since (git checkout), and abandoning it restores the sealed state", func() {
		killChildAt(root, "switch "+switched[2]) // the two T0.1 files moved, T0.2 and the added set not
		Expect(tree(root)[switched[0]]).To(HavePrefix("new "))
		// What the seal's advice used to send a person to do: restore the
		// half-switched set from git.
		writeTree(root, map[string][]byte{switched[0]: []byte("old " + switched[0] + "\n"), switched[1]: []byte("old " + switched[1] + "\n")})
		before := tree(root)

		p := regen.Interrupted(root)
		Expect(p).NotTo(BeNil())
		Expect(p.Moved).To(Equal(2))
		Expect(p.Stale).To(Equal([]regen.Stale{{Path: switched[0], Moved: true}, {Path: switched[1], Moved: true}}))
		Expect(p.Advice()).To(ContainSubstring("and " + switched[0] + " (and 1 more) has changed since (it had already moved; a `git checkout`?), " +
			"so the switch will not be replayed over it: abandon it with `make goldens ABANDON=1`"))
		Expect(p.Advice()).NotTo(ContainSubstring("FINISH"), "one piece of advice: a stale switch can only be abandoned")

		_, _, err := regen.Open(root)
		var stale *regen.StaleError
		Expect(errors.As(err, &stale)).To(BeTrue(), "got %v", err)
		Expect(tree(root)).To(Equal(before), "refused, not replayed: the restored files were not moved back over")

		a, err := regen.Abandon(root)
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Overwrote).To(BeEmpty(), "the restored files hold their old bytes: nothing of the person's is undone")
		Expect(tree(root)).To(Equal(settled("old")))
		ws, rec := open()
		Expect(ws.Close()).To(Succeed())
		Expect(rec.Finished).To(BeEmpty())
	})

	It("says when abandoning undoes a change made after the kill", func() {
		killChildAt(root, "switch "+switched[1])
		writeTree(root, map[string][]byte{switched[2]: []byte("edited by hand\n")})
		p := regen.Interrupted(root)
		Expect(p.Stale).To(Equal([]regen.Stale{{Path: switched[2], Moved: false}}))
		a, err := regen.Abandon(root)
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Overwrote).To(Equal([]string{switched[2]}))
		Expect(a.String()).To(HaveSuffix("these had been changed since and that change is undone: " + switched[2]))
		Expect(tree(root)).To(Equal(settled("old")))
	})

	It("sees no interrupted switch while one is being made, and none to abandon when there is none", func() {
		Expect(regen.Interrupted(root)).To(BeNil())
		a, err := regen.Abandon(root)
		Expect(err).NotTo(HaveOccurred())
		Expect(a.String()).To(Equal("no interrupted switch to abandon"))
		ws, _ := open()
		defer ws.Close()
		writeTree(root, map[string][]byte{"goldens/.regen/journal": []byte(`{"version":1,"files":[]}`)})
		Expect(regen.Interrupted(root)).To(BeNil(), "the workspace is held: a switch in progress, not an interrupted one")
		_, err = regen.Abandon(root)
		Expect(err).To(MatchError(regen.ErrBusy))
	})

	It("refuses a journal it cannot read, with advice that needs no journal", func() {
		writeTree(root, map[string][]byte{"goldens/.regen/journal": []byte("goldens/T0.1-witness/dense.csv\n")}) // an older tool's format
		p := regen.Interrupted(root)
		Expect(p).NotTo(BeNil())
		Expect(p.Unreadable).NotTo(BeEmpty())
		Expect(p.Advice()).To(HaveSuffix("nothing will replay it; remove goldens/.regen and restore the goldens from git (`git checkout HEAD -- goldens/`)"))
		_, _, err := regen.Open(root)
		Expect(err).To(MatchError(ContainSubstring("cannot be read")))
	})

	It("refuses to replay a journal that names a file outside goldens/", func() {
		writeTree(root, map[string][]byte{"goldens/.regen/journal": []byte(`{"version":1,"files":[{"path":"goldens/T0.1-witness/dense.csv","old":"","new":""},{"path":"../outside","old":"","new":""}]}`)})
		_, _, err := regen.Open(root)
		Expect(err).To(MatchError(ContainSubstring(`"../outside" is not a golden file path`)))
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
