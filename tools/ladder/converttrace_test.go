package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/sim/trace"
)

// The facts version 3 leaves out of a record's line, by kind: what its
// expansion to version 2 must spell again.
var leftOut = map[string][]string{
	"encounter":    {"pair", "site", "roll.key", "roll.natural", "roll.pinned", "roll.purpose"},
	"transmission": {"claim"},
	"belief":       {"claim"},
	"supersession": {"claim"},
}

var _ = Describe("convert-trace", func() {
	// Every committed trace golden is version 3. Expanded to version 2 it
	// spells every fact version 2 did; converted back it is the golden,
	// byte for byte: the conversion loses nothing either way.
	It("expands every committed trace golden to version 2 and converts it back byte for byte", func() {
		goldens, err := filepath.Glob(filepath.Join(repo, "goldens", "*", "trace.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		cases, err := filepath.Glob(filepath.Join(repo, "goldens", "*", "*", "trace.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		goldens = append(goldens, cases...)
		Expect(len(goldens)).To(BeNumerically(">", 90), "the spec must see the committed goldens")
		records := 0
		for _, path := range goldens {
			golden, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(golden)).To(HavePrefix(`{"branches":`), "%s is not a version-3 trace", path)
			var v2, back bytes.Buffer
			Expect(trace.ExpandV3(bytes.NewReader(golden), &v2)).To(Succeed(), path)
			Expect(trace.ConvertV2(bytes.NewReader(v2.Bytes()), &back)).To(Succeed(), path)
			Expect(back.Bytes()).To(Equal(golden), "%s: converting its expansion does not give it back", path)
			lines := strings.Split(strings.TrimSuffix(v2.String(), "\n"), "\n")
			var head map[string]any
			Expect(json.Unmarshal([]byte(lines[0]), &head)).To(Succeed())
			Expect(head).To(HaveKey("branch"), "%s: the expanded header names its branch", path)
			Expect(head["version"]).To(BeElementOf(1.0, 2.0), path)
			for i, line := range lines[1:] {
				var rec map[string]any
				Expect(json.Unmarshal([]byte(line), &rec)).To(Succeed())
				Expect(rec["branch"]).To(Equal(head["branch"]), "%s line %d", path, i+2)
				for _, field := range leftOut[rec["kind"].(string)] {
					Expect(hasPath(rec, field)).To(BeTrue(), "%s line %d: the expansion does not spell %s", path, i+2, field)
				}
				records++
			}
		}
		GinkgoWriter.Printf("%d goldens, %d records\n", len(goldens), records)
	})

	It("writes the conversion with -o whole, and says which file it could not read", func() {
		dir := GinkgoT().TempDir()
		golden := filepath.Join(repo, "goldens", "T1.1-tell", "trace.jsonl")
		v2 := filepath.Join(dir, "v2.jsonl")
		_, err := invoke("convert-trace", "-expand", "-o", v2, golden)
		Expect(err).NotTo(HaveOccurred())
		out, err := invoke("convert-trace", v2)
		Expect(err).NotTo(HaveOccurred())
		want, err := os.ReadFile(golden)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal(string(want)))

		bad := filepath.Join(dir, "bad.jsonl")
		Expect(os.WriteFile(bad, []byte(`{"kind":"header","schema":"chronicle.trace","version":3}`+"\n"), 0o644)).To(Succeed())
		_, err = invoke("convert-trace", "-o", filepath.Join(dir, "out.jsonl"), bad)
		Expect(err).To(MatchError(bad + ": trace line 1: version 3: ConvertV2 reads versions 1 and 2"))
		Expect(filepath.Join(dir, "out.jsonl")).NotTo(BeAnExistingFile(), "nothing is left of a failed conversion")
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(2), "no temporary file is left behind")
		_, err = invoke("convert-trace")
		Expect(err).To(MatchError("usage: ladder convert-trace [-expand] [-o FILE] <trace.jsonl>"))
	})
})

// hasPath reports whether a decoded record holds the dotted field.
func hasPath(rec map[string]any, path string) bool {
	head, rest, nested := strings.Cut(path, ".")
	v, ok := rec[head]
	if !ok || !nested {
		return ok
	}
	m, _ := v.(map[string]any)
	return m != nil && hasPath(m, rest)
}
