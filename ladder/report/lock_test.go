package report_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/report"
)

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

	It("clears everything but the lock", func() {
		dir := GinkgoT().TempDir()
		lock, err := report.Lock(dir)
		Expect(err).NotTo(HaveOccurred())
		defer lock.Close()
		Expect(os.MkdirAll(filepath.Join(dir, "T0.1", "case"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "junit.xml"), nil, 0o644)).To(Succeed())
		Expect(report.Clear(dir)).To(Succeed())
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1))
		Expect(entries[0].Name()).To(Equal(report.LockFile))
		_, err = report.Lock(dir)
		Expect(err).To(HaveOccurred(), "still held after the clear")
	})
})
