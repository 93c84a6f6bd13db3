package history_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/history"
	"github.com/chronicle/ladder/ladder/seal"
)

var _ = Describe("Entry", func() {
	It("is one line of canonical JSON, with no date, that Read gives back", func() {
		b, err := third.Encode()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"by":"goldens","cells":1,"code_hash":"cccccccccccccccc","drift":"value drift",` +
			`"first":{"after":"0.7","artifact":"trace.jsonl","before":"0.5","field":"confidence","key":"\"a/theft@1 formed\"","kind":"belief","line":4,"tick":2},` +
			`"fixture":"fixtures/T9.1-tiny.yaml","fixture_hash":"1111111111111111","reason":"the second tick's belief firms up","records":1,"state":"changed"}` + "\n"))
		all := entry(created) + entry(second) + string(b)
		Expect(history.Read([]byte(all))).To(Equal([]history.Entry{created, second, third}))
	})

	It("holds only who, the hashes and the reason for a new set", func() {
		Expect(entry(created)).To(Equal(`{"by":"goldens","code_hash":"aaaaaaaaaaaaaaaa","fixture":"fixtures/T9.1-tiny.yaml","fixture_hash":"1111111111111111","state":"new"}` + "\n"))
	})

	It("reads as one line for accept and blame to print", func() {
		Expect(second.String()).To(Equal(`changed by accept (value drift): first dense.csv at tick 1, column "a/t@1/confidence": 0.5 → 0.6; 4 cells, 0 records changed; why: "retelling is surer"`))
		Expect(third.String()).To(Equal(`changed by goldens (value drift): first trace.jsonl at tick 2, line 4 (belief "a/theft@1 formed"): confidence 0.5 → 0.7; 1 cell, 1 record changed; why: "the second tick's belief firms up"`))
		Expect(created.String()).To(Equal("new by goldens"))
	})

	DescribeTable("Read refuses a line that is not an entry, naming it",
		func(line, message string) {
			_, err := history.Read([]byte(entry(created) + line + "\n"))
			Expect(err).To(MatchError(HavePrefix("history.jsonl line 2: " + message)))
		},
		Entry("not JSON", "{", "not a history entry: "),
		Entry("a field no entry has", `{"state":"new","when":"today"}`, `not a history entry: json: unknown field "when"`),
		Entry("another state", `{"state":"moved"}`, `not a history entry: state "moved" is neither "new" nor "changed"`),
	)
})

var _ = Describe("the history's seal", func() {
	var dir string
	run := func() []byte {
		GinkgoHelper()
		m, err := seal.Make(dir, "T9.1", []string{"dense.csv"})
		Expect(err).NotTo(HaveOccurred())
		b, err := m.Encode()
		Expect(err).NotTo(HaveOccurred())
		return b
	}
	put := func(name, content string) string {
		GinkgoHelper()
		p := filepath.Join(dir, name)
		Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
		return p
	}
	BeforeEach(func() {
		dir = filepath.Join(GinkgoT().TempDir(), "goldens", "T9.1-tiny")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		put("dense.csv", dense1)
	})

	It("Seal makes the run's manifest seal the history too, so seal.Check holds the history to it", func() {
		hist := entry(created)
		put(history.File, hist)
		m, err := history.Seal(run(), []byte(hist))
		Expect(err).NotTo(HaveOccurred())
		put(seal.File, string(m))
		r := seal.Check(dir, "T9.1")
		Expect(r.Breaches).To(BeEmpty())
		Expect(r.Verified).To(HaveKey(history.File))

		put(history.File, strings.Replace(hist, "goldens", "accept", 1))
		r = seal.Check(dir, "T9.1")
		Expect(r.OK()).To(BeFalse(), "a hand edit of the history breaks the seal")
		Expect(r.Breaches[0].File).To(Equal(history.File))
		Expect(r.Breaches[0].Kind).To(Equal(seal.Edited))
	})

	It("SameSeal compares a run's manifest with a golden one by what they seal, the history aside", func() {
		fresh := put("run.json", string(run()))
		m, err := history.Seal(run(), []byte(entry(created)))
		Expect(err).NotTo(HaveOccurred())
		Expect(history.SameSeal(put(seal.File, string(m)), fresh)).To(BeTrue())
		Expect(history.SameSeal(put(seal.File, string(run())), fresh)).To(BeTrue())
		put("dense.csv", dense2)
		Expect(history.SameSeal(filepath.Join(dir, seal.File), put("run.json", string(run())))).To(BeFalse(), "a sealed file moved")
		Expect(history.SameSeal(put(seal.File, " "+string(m)), fresh)).To(BeFalse(), "a manifest that does not verify seals nothing the same")
	})

	Describe("Prior", func() {
		root := func() string { return filepath.Dir(filepath.Dir(dir)) }

		It("is nothing for a set without a history, and the history its seal vouches for", func() {
			Expect(history.Prior(root(), "goldens/T9.1-tiny", "T9.1")).To(BeNil())
			put(history.File, entry(created))
			m, err := history.Seal(run(), []byte(entry(created)))
			Expect(err).NotTo(HaveOccurred())
			put(seal.File, string(m))
			Expect(history.Prior(root(), "goldens/T9.1-tiny", "T9.1")).To(Equal([]byte(entry(created))))
		})

		It("refuses a history its seal does not vouch for, with how to restore it", func() {
			m, err := history.Seal(run(), []byte(entry(created)))
			Expect(err).NotTo(HaveOccurred())
			put(seal.File, string(m))
			put(history.File, entry(second))
			_, err = history.Prior(root(), "goldens/T9.1-tiny", "T9.1")
			Expect(err).To(MatchError(MatchRegexp(`^goldens/T9.1-tiny/history.jsonl does not match its seal \(sealed sha256 [0-9a-f]{12}…, now [0-9a-f]{12}…\): ` +
				"restore it and its seal \\(`git checkout HEAD -- goldens/T9.1-tiny/history.jsonl goldens/T9.1-tiny/manifest.json`\\): " +
				"a history is appended to only as its seal vouches for it$")))
			put(seal.File, string(run()))
			_, err = history.Prior(root(), "goldens/T9.1-tiny", "T9.1")
			Expect(err).To(MatchError(HavePrefix("goldens/T9.1-tiny/history.jsonl is in the set but not in its seal: ")))
		})

		It("takes the history as it stands when the set has no seal to hold it to", func() {
			put(history.File, entry(second))
			Expect(history.Prior(root(), "goldens/T9.1-tiny", "T9.1")).To(Equal([]byte(entry(second))))
		})
	})
})
