package report_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/confine"
	"github.com/chronicle/ladder/ladder/report"
)

func names(entries []fs.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// someonesFiles is a directory that is not a reports directory, holding
// files a person cares about; unchanged checks they all survived as they
// were and nothing was added.
func someonesFiles() (dir string, unchanged func()) {
	GinkgoHelper()
	dir = GinkgoT().TempDir()
	files := map[string]string{"notes.txt": "mine\n", "thesis.tex": "years of work\n", ".lock": "not a PID\n"}
	for name, body := range files {
		Expect(os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)).To(Succeed())
	}
	return dir, func() {
		GinkgoHelper()
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(len(files)), "nothing added, nothing removed")
		for name, body := range files {
			Expect(os.ReadFile(filepath.Join(dir, name))).To(Equal([]byte(body)), name)
		}
	}
}

var _ = Describe("Lock", func() {
	It("lets one run hold a reports directory and refuses a second, naming the first's PID", func() {
		dir := filepath.Join(GinkgoT().TempDir(), "reports")
		first, err := report.Lock(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.ReadFile(filepath.Join(dir, report.LockFile))).To(Equal([]byte(strconv.Itoa(os.Getpid()) + "\n")))

		// flock belongs to the open file, so a second open in this process
		// is refused as another process would be.
		_, err = report.Lock(dir)
		var busy *report.BusyError
		Expect(errors.As(err, &busy)).To(BeTrue(), "got %v", err)
		Expect(busy.PID).To(Equal(os.Getpid()))
		Expect(err.Error()).To(Equal(dir + " is in use by another run (PID " + strconv.Itoa(os.Getpid()) + "): a second run would clear it under the first; " +
			"wait for it to finish, or give this run a directory of its own with LADDER_REPORTS=<dir>"))

		Expect(first.Close()).To(Succeed())
		again, err := report.Lock(dir)
		Expect(err).NotTo(HaveOccurred(), "a released lock is free (the kernel releases it when its holder dies, however)")
		Expect(again.Close()).To(Succeed())
	})

	It("says only 'another run' when the lock file names no PID", func() {
		Expect((&report.BusyError{Dir: "reports/"}).Error()).To(HavePrefix("reports/ is in use by another run: "))
	})

	It("clears everything but the lock and the marker", func() {
		dir := GinkgoT().TempDir()
		lock, err := report.Lock(dir)
		Expect(err).NotTo(HaveOccurred())
		defer lock.Close()
		Expect(os.MkdirAll(filepath.Join(dir, "T0.1", "case"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "junit.xml"), nil, 0o644)).To(Succeed())
		Expect(report.Clear(dir)).To(Succeed())
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(entries)).To(Equal([]string{report.Marker, report.LockFile}))
		_, err = report.Lock(dir)
		Expect(err).To(HaveOccurred(), "still held after the clear")
	})

	It("refuses a directory that holds files but no marker, touching none of them", func() {
		dir, unchanged := someonesFiles()
		_, err := report.Lock(dir)
		var not *report.NotReportsError
		Expect(errors.As(err, &not)).To(BeTrue(), "got %v", err)
		Expect(err).To(MatchError(HavePrefix("not a reports directory: " + dir + " holds notes.txt, thesis.tex but no .ladder-reports")))
		unchanged()
	})

	It("refuses a symlinked reports directory, writing nothing where it leads", func() {
		target, unchanged := someonesFiles()
		Expect(os.Remove(filepath.Join(target, ".lock"))).To(Succeed())
		Expect(os.WriteFile(filepath.Join(target, report.Marker), nil, 0o644)).To(Succeed()) // even a marked one
		Expect(os.WriteFile(filepath.Join(target, ".lock"), []byte("not a PID\n"), 0o644)).To(Succeed())
		dir := filepath.Join(GinkgoT().TempDir(), "reports")
		Expect(os.Symlink(target, dir)).To(Succeed())
		_, err := report.Lock(dir)
		var link *confine.LinkError
		Expect(errors.As(err, &link)).To(BeTrue(), "got %v", err)
		Expect(link.Path).To(Equal(dir))
		Expect(os.Remove(filepath.Join(target, report.Marker))).To(Succeed())
		unchanged()
	})

	It("refuses a symlinked lock file, leaving its target as it was", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, report.Marker), nil, 0o644)).To(Succeed())
		target, unchanged := someonesFiles()
		Expect(os.Symlink(filepath.Join(target, "thesis.tex"), filepath.Join(dir, report.LockFile))).To(Succeed())
		_, err := report.Lock(dir)
		Expect(err).To(MatchError(HavePrefix(filepath.Join(dir, report.LockFile) + " is a symlink (to " + filepath.Join(target, "thesis.tex") + "): refused")))
		_, err = report.LockShared(dir)
		Expect(err).To(HaveOccurred(), "a reader does not follow it either")
		unchanged()
	})

	It("takes a new or empty directory and marks it", func() {
		dir := GinkgoT().TempDir()
		lock, err := report.Lock(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(lock.Close()).To(Succeed())
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(entries)).To(Equal([]string{report.Marker, report.LockFile}))
	})
})

var _ = Describe("LockShared", func() {
	It("is refused while a run holds the directory, and shares it with other readers", func() {
		dir := GinkgoT().TempDir()
		run, err := report.Lock(dir)
		Expect(err).NotTo(HaveOccurred())
		_, err = report.LockShared(dir)
		Expect(err).To(MatchError(HavePrefix(dir + " is being written by another run (PID " + strconv.Itoa(os.Getpid()) + ")")))
		Expect(run.Close()).To(Succeed())

		first, err := report.LockShared(dir)
		Expect(err).NotTo(HaveOccurred())
		second, err := report.LockShared(dir)
		Expect(err).NotTo(HaveOccurred())
		_, err = report.Lock(dir)
		Expect(err).To(BeAssignableToTypeOf(&report.BusyError{}), "a run waits for its readers")
		Expect(first.Close()).To(Succeed())
		Expect(second.Close()).To(Succeed())
	})

	It("reads a directory without the marker (a downloaded artifact) without a lock, writing nothing into it", func() {
		dir, unchanged := someonesFiles()
		lock, err := report.LockShared(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(lock).To(BeNil())
		unchanged()
	})
})

var _ = Describe("Adopt", func() {
	It("makes a missing directory a marked reports directory, which a run then clears, and leaves an existing one alone", func() {
		dir := filepath.Join(GinkgoT().TempDir(), "reports")
		Expect(report.Adopt(dir)).To(Succeed())
		Expect(os.MkdirAll(filepath.Join(dir, "explore"), 0o755)).To(Succeed())
		lock, err := report.Lock(dir)
		Expect(err).NotTo(HaveOccurred(), "what make explore wrote first does not make reports/ someone else's")
		Expect(lock.Close()).To(Succeed())

		mine, unchanged := someonesFiles()
		Expect(report.Adopt(mine)).To(Succeed())
		link := filepath.Join(GinkgoT().TempDir(), "reports")
		Expect(os.Symlink(mine, link)).To(Succeed())
		Expect(report.Adopt(link)).To(MatchError(ContainSubstring("reports is a symlink")))
		unchanged()
	})
})
