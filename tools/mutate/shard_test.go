package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("shardScope", func() {
	sizes := map[string]int64{"sim": 900, "sim/claims": 500, "sim/social": 400, "views": 100}
	size := func(d string) (int64, error) { return sizes[d], nil }

	It("deals the engine's packages into parts balanced by size, every package in exactly one part", func() {
		var all []string
		for k := 1; k <= 2; k++ {
			part, err := shardScope([]string{"1/2", "2/2"}[k-1], dirs, nil, size)
			Expect(err).NotTo(HaveOccurred())
			Expect(part).NotTo(BeEmpty())
			all = append(all, part...)
		}
		slices.Sort(all)
		Expect(all).To(Equal([]string{"sim", "sim/claims", "sim/social", "views"}), "only the engine's packages, each once")
		first, _ := shardScope("1/2", dirs, nil, size)
		Expect(first).To(Equal([]string{"sim", "views"}), "the largest first to the lightest part: 900+100 against 500+400")
	})

	It("shards a -scope's packages when one is given", func() {
		part, err := shardScope("2/2", dirs, []string{"sim/claims", "sim/social"}, size)
		Expect(err).NotTo(HaveOccurred())
		Expect(part).To(Equal([]string{"sim/social"}))
	})

	It("refuses a part with no package, and a malformed shard", func() {
		_, err := shardScope("5/5", dirs, nil, size)
		Expect(err).To(MatchError("shard 5/5: no package to mutate: 4 package(s) for 5 shards"))
		_, err = shardScope("3/2", dirs, nil, size)
		Expect(err).To(MatchError(ContainSubstring("want k/n with 1 <= k <= n")))
	})
})

var _ = Describe("mergeShards", func() {
	report := func(dir, suite string, files ...string) {
		GinkgoHelper()
		var fs []any
		for _, f := range files {
			fs = append(fs, map[string]any{"file_name": f, "mutations": []any{map[string]any{"type": "CONDITIONALS_BOUNDARY", "status": "KILLED", "line": 3, "column": 7}}})
		}
		b, err := json.Marshal(map[string]any{"go_module": "m", "files": fs})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, "gremlins-"+suite+".json"), b, 0o644)).To(Succeed())
	}
	files := func(path string) []string {
		GinkgoHelper()
		g, err := readReport(path)
		Expect(err).NotTo(HaveOccurred())
		var out []string
		for _, f := range g.Files {
			out = append(out, f.Name)
		}
		return out
	}

	It("joins every shard's report of each suite, and the dry runs' reach, into one", func() {
		a, b, out := GinkgoT().TempDir(), GinkgoT().TempDir(), GinkgoT().TempDir()
		report(a, "both", "sim/world.go")
		report(b, "both", "sim/social/grudge.go", "views/fear.go")
		report(a, "ladder", "sim/world.go")
		report(b, "ladder", "sim/social/grudge.go")
		report(b, "reach", "sim/social/grudge.go")
		Expect(mergeShards(out, []string{a, b}, []string{"both", "ladder"})).To(Succeed())
		Expect(files(filepath.Join(out, "gremlins-both.json"))).To(Equal([]string{"sim/world.go", "sim/social/grudge.go", "views/fear.go"}))
		Expect(files(filepath.Join(out, "gremlins-ladder.json"))).To(Equal([]string{"sim/world.go", "sim/social/grudge.go"}))
		Expect(files(filepath.Join(out, "gremlins-reach.json"))).To(Equal([]string{"sim/social/grudge.go"}))
	})

	It("refuses a file two shards mutated, and a shard without a suite's report", func() {
		a, b, out := GinkgoT().TempDir(), GinkgoT().TempDir(), GinkgoT().TempDir()
		report(a, "both", "sim/world.go")
		report(b, "both", "sim/world.go")
		Expect(mergeShards(out, []string{a, b}, []string{"both"})).To(MatchError("merge: sim/world.go was mutated in two shards (" + a + " and " + b + ")"))
		Expect(mergeShards(out, []string{a, GinkgoT().TempDir()}, []string{"both"})).To(MatchError(ContainSubstring("gremlins-both.json: no such file")))
	})
})
