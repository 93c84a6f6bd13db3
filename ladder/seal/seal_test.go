package seal_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/seal"
)

// set writes a golden set of three small files and returns its directory.
func set() string {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	for name, body := range map[string]string{
		"dense.csv":        "tick,a\n0,1.0\n",
		"checkpoints.json": "{\"checkpoints\":[{\"tick\":0,\"values\":{\"a\":0.9}}]}\n",
		"trace.jsonl":      "{\"kind\":\"header\"}\n",
	} {
		Expect(os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)).To(Succeed())
	}
	return dir
}

var names = []string{"dense.csv", "checkpoints.json", "trace.jsonl"}

func sealed() string {
	GinkgoHelper()
	dir := set()
	Expect(seal.Write(dir, "T0.9/case", names)).To(Succeed())
	return dir
}

// described lists a report's breaches as text.
func described(r seal.Report) []string {
	var out []string
	for _, b := range r.Breaches {
		out = append(out, b.String())
	}
	return out
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

var _ = Describe("Write and Check", func() {
	It("seal every file by name and verify a set nobody touched, counting what they examined", func() {
		dir := sealed()
		r := seal.Check(dir, "T0.9/case")
		Expect(r.Breaches).To(BeEmpty())
		Expect(r.OK()).To(BeTrue())
		Expect(r.Examined).To(Equal(3))
	})

	It("write the canonical payload whose manifest_sha256 is the hash of itself with that field blank", func() {
		dir := sealed()
		got, err := os.ReadFile(filepath.Join(dir, seal.File))
		Expect(err).NotTo(HaveOccurred())
		files := `{"checkpoints.json":"` + sha("{\"checkpoints\":[{\"tick\":0,\"values\":{\"a\":0.9}}]}\n") +
			`","dense.csv":"` + sha("tick,a\n0,1.0\n") + `","trace.jsonl":"` + sha("{\"kind\":\"header\"}\n") + `"}`
		blank := `{"files":` + files + `,"format":"chronicle.golden-seal.v1","manifest_sha256":"","set":"T0.9/case"}`
		want := `{"files":` + files + `,"format":"chronicle.golden-seal.v1","manifest_sha256":"` + sha(blank) + `","set":"T0.9/case"}` + "\n"
		Expect(string(got)).To(Equal(want))
		m, err := seal.Parse(got)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Hash).To(Equal(sha(blank)))
	})

	It("name a sealed file whose bytes changed, with both digests", func() {
		dir := sealed()
		Expect(os.WriteFile(filepath.Join(dir, "checkpoints.json"),
			[]byte("{\"checkpoints\":[{\"tick\":0,\"values\":{\"a\":0.900000001}}]}\n"), 0o644)).To(Succeed())
		r := seal.Check(dir, "T0.9/case")
		Expect(r.Examined).To(Equal(3))
		Expect(r.Breaches).To(HaveLen(1))
		b := r.Breaches[0]
		Expect(b.Kind).To(Equal(seal.Edited))
		Expect(b.File).To(Equal("checkpoints.json"))
		Expect(b.Sealed).To(Equal(sha("{\"checkpoints\":[{\"tick\":0,\"values\":{\"a\":0.9}}]}\n")))
		Expect(b.String()).To(MatchRegexp(`^checkpoints\.json does not match its seal \(sealed sha256 [0-9a-f]{12}…, now [0-9a-f]{12}…\)$`))
	})

	It("name a sealed file that is gone, and one that is no longer a file", func() {
		dir := sealed()
		Expect(os.Remove(filepath.Join(dir, "trace.jsonl"))).To(Succeed())
		Expect(os.Remove(filepath.Join(dir, "dense.csv"))).To(Succeed())
		Expect(os.Mkdir(filepath.Join(dir, "dense.csv"), 0o755)).To(Succeed())
		r := seal.Check(dir, "T0.9/case")
		Expect(described(r)).To(Equal([]string{
			"dense.csv cannot be read: not a regular file (d---------)",
			"trace.jsonl is sealed but missing",
		}))
		Expect(r.Examined).To(Equal(1))
	})

	It("name a file in the set that the seal does not name, and leave hidden files and case directories alone", func() {
		dir := sealed()
		Expect(os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte("{}\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".checkpoints.json.swp"), []byte("x"), 0o644)).To(Succeed())
		Expect(os.Mkdir(filepath.Join(dir, "swapped"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "swapped", "dense.csv"), []byte("tick\n"), 0o644)).To(Succeed())
		Expect(described(seal.Check(dir, "T0.9/case"))).To(Equal([]string{"events.jsonl is in the set but not in its seal"}))
	})

	It("say a set without a manifest is not sealed", func() {
		dir := set()
		r := seal.Check(dir, "T0.9/case")
		Expect(described(r)).To(Equal([]string{"manifest.json is missing: the set is not sealed"}))
		Expect(r.Breaches[0].Kind).To(Equal(seal.NoManifest))
	})

	It("refuse a manifest copied from another set", func() {
		dir := sealed()
		Expect(described(seal.Check(dir, "T0.9"))).To(Equal([]string{
			`manifest.json does not verify: it seals the set "T0.9/case", not "T0.9" (copied from another set's directory?)`}))
	})

	It("refuse a manifest that seals nothing: it would examine nothing", func() {
		dir := set()
		m := seal.Manifest{Set: "T0.9/case"}
		b, err := m.Encode()
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, seal.File), b, 0o644)).To(Succeed())
		r := seal.Check(dir, "T0.9/case")
		Expect(described(r)).To(Equal([]string{"manifest.json does not verify: it seals no file, so it proves nothing"}))
		Expect(r.Examined).To(BeZero())
	})

	It("fail on every one-byte edit of the manifest", func() {
		dir := sealed()
		path := filepath.Join(dir, seal.File)
		orig, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		for i := range orig {
			for _, edit := range []byte{orig[i] ^ 0x01, ' '} {
				if edit == orig[i] {
					continue
				}
				b := bytes.Clone(orig)
				b[i] = edit
				Expect(os.WriteFile(path, b, 0o644)).To(Succeed())
				Expect(seal.Check(dir, "T0.9/case").OK()).To(BeFalse(), "byte %d (%q) changed to %q", i, orig[i], edit)
			}
		}
		Expect(os.WriteFile(path, orig, 0o644)).To(Succeed())
		Expect(seal.Check(dir, "T0.9/case").OK()).To(BeTrue())
	})

	It("say which way a manifest was edited: its content, its spelling, its format", func() {
		dir := sealed()
		path := filepath.Join(dir, seal.File)
		orig, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		m, err := seal.Parse(orig)
		Expect(err).NotTo(HaveOccurred())

		// A file's digest rewritten to match an edited golden, the
		// manifest's own hash left as it was.
		forged := strings.Replace(string(orig), m.Files["dense.csv"], sha("tick,a\n0,2.0\n"), 1)
		Expect(os.WriteFile(path, []byte(forged), 0o644)).To(Succeed())
		Expect(described(seal.Check(dir, "T0.9/case"))).To(ConsistOf(MatchRegexp(
			`^manifest\.json does not verify: its manifest_sha256 is [0-9a-f]{12}… but its content hashes to [0-9a-f]{12}…: the manifest was edited$`)))

		// The same content, indented: its hash still verifies, its
		// spelling does not.
		var indented bytes.Buffer
		Expect(json.Indent(&indented, bytes.TrimSpace(orig), "", "  ")).To(Succeed())
		Expect(os.WriteFile(path, append(indented.Bytes(), '\n'), 0o644)).To(Succeed())
		Expect(described(seal.Check(dir, "T0.9/case"))).To(Equal([]string{
			"manifest.json does not verify: not in canonical form (sorted keys, no spaces, one trailing newline): it was rewritten by hand"}))

		other := strings.Replace(string(orig), "chronicle.golden-seal.v1", "chronicle.golden-seal.v2", 1)
		Expect(os.WriteFile(path, []byte(other), 0o644)).To(Succeed())
		Expect(described(seal.Check(dir, "T0.9/case"))).To(Equal([]string{
			`manifest.json does not verify: format "chronicle.golden-seal.v2" is not "chronicle.golden-seal.v1"`}))

		Expect(os.WriteFile(path, []byte(`{"files":{},"set":"T0.9/case","extra":1}`+"\n"), 0o644)).To(Succeed())
		Expect(described(seal.Check(dir, "T0.9/case"))).To(ConsistOf(ContainSubstring(`not a manifest: json: unknown field "extra"`)))
	})

	It("refuse to seal nothing, a hidden file, a path or the manifest itself", func() {
		dir := set()
		Expect(seal.Write(dir, "T0.9", nil)).To(MatchError("seal T0.9: no files to seal"))
		Expect(seal.Write(dir, "T0.9", []string{".dense.csv"})).To(MatchError(ContainSubstring("hidden files are never goldens")))
		Expect(seal.Write(dir, "T0.9", []string{"../dense.csv"})).To(MatchError(ContainSubstring("is not a file name")))
		Expect(seal.Write(dir, "T0.9", []string{seal.File})).To(MatchError(ContainSubstring("a manifest does not seal itself")))
		Expect(seal.Write(dir, "T0.9", []string{"absent.csv"})).To(MatchError(ContainSubstring("no such file")))
		Expect(filepath.Join(dir, seal.File)).NotTo(BeAnExistingFile())
	})
})

var _ = Describe("Check's verified files", func() {
	It("hold the digest and the file of each sealed file found as sealed, and of no other", func() {
		dir := sealed()
		Expect(os.WriteFile(filepath.Join(dir, "dense.csv"), []byte("tick,a\n0,2.0\n"), 0o644)).To(Succeed())
		r := seal.Check(dir, "T0.9/case")
		Expect(r.Breaches).To(HaveLen(1))
		Expect(r.Verified).To(HaveLen(2))
		Expect(r.Verified).NotTo(HaveKey("dense.csv"))
		v := r.Verified["trace.jsonl"]
		Expect(v.Digest).To(Equal(sha("{\"kind\":\"header\"}\n")))
		fi, err := os.Lstat(filepath.Join(dir, "trace.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		Expect(v.Unchanged(fi)).To(BeTrue())
	})

	It("no longer vouch for a file rewritten in place, grown, replaced, or another file", func() {
		dir := sealed()
		v := seal.Check(dir, "T0.9/case").Verified["trace.jsonl"]
		path := filepath.Join(dir, "trace.jsonl")
		stat := func(p string) os.FileInfo {
			GinkgoHelper()
			fi, err := os.Lstat(p)
			Expect(err).NotTo(HaveOccurred())
			return fi
		}
		// The same bytes written again in place, at another instant.
		Expect(os.WriteFile(path, []byte("{\"kind\":\"header\"}\n"), 0o644)).To(Succeed())
		later := v.Info.ModTime().Add(time.Second)
		Expect(os.Chtimes(path, later, later)).To(Succeed())
		Expect(v.Unchanged(stat(path))).To(BeFalse())
		// Its time put back, but a byte longer.
		Expect(os.WriteFile(path, []byte("{\"kind\":\"header\"} \n"), 0o644)).To(Succeed())
		Expect(os.Chtimes(path, v.Info.ModTime(), v.Info.ModTime())).To(Succeed())
		Expect(v.Unchanged(stat(path))).To(BeFalse())
		// Replaced by another file of the same size and time.
		other := filepath.Join(dir, ".other")
		Expect(os.WriteFile(other, []byte("{\"kind\":\"header\"}\n"), 0o644)).To(Succeed())
		Expect(os.Chtimes(other, v.Info.ModTime(), v.Info.ModTime())).To(Succeed())
		Expect(os.Rename(other, path)).To(Succeed())
		Expect(v.Unchanged(stat(path))).To(BeFalse())
		Expect(v.Unchanged(nil)).To(BeFalse())
		Expect(seal.Verified{}.Unchanged(stat(path))).To(BeFalse())
	})
})

var _ = Describe("Digester and WriteDigested", func() {
	It("digest what was written through them as Digest digests the file, and seal as Write does", func() {
		dir := set()
		want, err := os.ReadFile(filepath.Join(sealed(), seal.File))
		Expect(err).NotTo(HaveOccurred())

		digested := map[string]string{}
		for _, name := range []string{"dense.csv", "trace.jsonl"} {
			body, err := os.ReadFile(filepath.Join(dir, name))
			Expect(err).NotTo(HaveOccurred())
			var out bytes.Buffer
			d := seal.NewDigester(&out)
			for _, part := range [][]byte{body[:3], body[3:]} {
				_, err := d.Write(part)
				Expect(err).NotTo(HaveOccurred())
			}
			Expect(out.Bytes()).To(Equal(body))
			Expect(seal.Digest(filepath.Join(dir, name))).To(Equal(d.Sum()))
			digested[name] = d.Sum()
		}
		Expect(seal.WriteDigested(dir, "T0.9/case", names, digested)).To(Succeed())
		Expect(os.ReadFile(filepath.Join(dir, seal.File))).To(Equal(want))
	})

	It("take a given digest as given, reading only the files it lacks", func() {
		dir := set()
		Expect(os.Remove(filepath.Join(dir, "trace.jsonl"))).To(Succeed())
		given := map[string]string{"trace.jsonl": sha("{\"kind\":\"header\"}\n")}
		Expect(seal.WriteDigested(dir, "T0.9/case", names, given)).To(Succeed())
		Expect(os.Remove(filepath.Join(dir, "dense.csv"))).To(Succeed())
		Expect(seal.WriteDigested(dir, "T0.9/case", names, given)).To(MatchError(ContainSubstring("no such file")))
	})
})
