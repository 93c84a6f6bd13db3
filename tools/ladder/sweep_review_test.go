package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/pending"
	"github.com/chronicle/ladder/ladder/regen"
	"github.com/chronicle/ladder/ladder/verdict"
)

// tinySweep is a sweep rung small enough to run in a spec: a market of
// three, one theft, two towns, three seeds.
const tinySweep = `rung: T2.9
title: Tiny sweep
tier: 2
seed_id: ladder-T2.9
ticks: 24
defines:
  encounter_probability: 0.3
locations:
  market: {hold: whiterun}
cast:
  merchant: {schedule: [{at: market, from: 8, to: 18, daily: true}]}
  witness: {schedule: [{at: market, from: 8, to: 18, daily: true}]}
  baker: {schedule: [{at: market, from: 8, to: 18, daily: true}]}
events:
  - {tick: 9, kind: theft, actor: player, victim: merchant, item: apple, at: market, witnesses: [witness]}
sweep:
  seeds: 3
  towns: 2
  at: [23]
  bounds:
    informed@23: {mean: 5, sd: 1, pilot: 50, z: 3.89}
`

var _ = Describe("review of a sweep rung", Serial, func() {
	It("says how many seeds' counts moved and from which line", func() {
		root := GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(root, "fixtures"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "fixtures", "T2.9-tiny-sweep.yaml"), []byte(tinySweep), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example\n"), 0o644)).To(Succeed())
		chdir(root)
		fs, err := regen.Select(".", []string{"T2.9"})
		Expect(err).NotTo(HaveOccurred())
		f := fs[0]
		// The goldens are a run whose second seed counted one more.
		golden := filepath.Join("goldens", "T2.9-tiny-sweep")
		_, err = ladder.Run(f, ladder.Options{Dir: golden})
		Expect(err).NotTo(HaveOccurred())
		path := filepath.Join(golden, artifact.AggregatesFile)
		b, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(string(b), "\n")
		Expect(lines[2]).To(HavePrefix("ladder-T2.9/1,"))
		lines[2] += "0"
		Expect(os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)).To(Succeed())

		res, err := ladder.Run(f, ladder.Options{Dir: pending.Dir("reports", f), Goldens: "."})
		Expect(err).NotTo(HaveOccurred())
		code, err := pending.CodeHash(".")
		Expect(err).NotTo(HaveOccurred())
		m, err := pending.Save("reports", ".", f, pending.Run{CodeHash: code, Problems: verdict.Lines(verdict.Problems(res, nil, verdict.Verify(res)))})
		Expect(err).NotTo(HaveOccurred())
		Expect(m).NotTo(BeNil())

		out, err := invoke("review")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("\n  aggregates.csv: 1 of 3 seed lines differ, the first at line 3\n  summary.json: unchanged\n  manifest.json: unchanged\n"))
	})
})
