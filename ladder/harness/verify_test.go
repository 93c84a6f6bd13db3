package harness_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/ladder/checkpoint"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/ladder/seal"
	"github.com/chronicle/ladder/ladder/verdict"
	"github.com/chronicle/ladder/sim/canon"
	"github.com/chronicle/ladder/sim/detmath"
	"github.com/chronicle/ladder/sim/trace"
)

// These are specs of Verify: they run a synthetic copy of T0.2 (every
// define pinned, so an engine default change does not move them) once,
// write its own artifacts as goldens in a temporary root, break one golden
// at a time, run it again against them (a run compares as it writes) and
// pin the one-line message.

const t02Commands = "(reproduce: make ladder RUNG=T0.2; if intended: `go run ./tools/ladder review T0.2`, then `accept -reason \"…\" T0.2`)"

const t02Fixture = `rung: T0.2
title: Decay — a synthetic copy for the harness specs
tier: 0
seed_id: ladder-T0.2
ticks: 721
defines: {ticks_per_day: 24, witness_confidence: 0.9, verbatim_half_life_ticks: 72, gist_half_life_ticks: 960, dormant_gist: 0.5, forgotten_gist: 0.125, corroboration_window_ticks: 720, encounter_probability: 0.5, retell_decay: 0.8, trust_floor: 0.5, default_trust: 0.5, mutation_max: 0.25, contested_dent: 0.1}
locations:
  whiterun_market: {hold: whiterun}
cast:
  merchant: {}
  witness: {}
events:
  - {tick: 0, kind: theft, actor: player, victim: merchant, item: sweetroll, at: whiterun_market, witnesses: [witness]}
expect:
  - {always: true, belief: {holder: witness, claim: theft@0, stage: heard, confidence: 0.9}}
checkpoints:
  every: 24
  values:
    verbatim: belief(witness, theft@0).verbatim
    gist: belief(witness, theft@0).gist
`

var t02 = sync.OnceValues(func() (kept, error) {
	fs, err := fixture.Parse("fixtures/T0.2-decay.yaml", []byte(t02Fixture))
	if err != nil {
		return kept{}, err
	}
	return keep(fs[0])
})

// messages returns the messages of a verdict's problems.
func messages(v verdict.Verdict) []string { return verdict.Lines(v.Problems) }

var _ = Describe("Verify", Label("unit"), func() {
	var (
		res  *ladder.Result
		tmp  string
		dir  string // tmp/goldens/T0.2-decay
		arts map[string][]byte
	)

	read := func(name string) []byte {
		GinkgoHelper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		Expect(err).NotTo(HaveOccurred())
		return b
	}
	write := func(name string, b []byte) {
		GinkgoHelper()
		Expect(os.WriteFile(filepath.Join(dir, name), b, 0o644)).To(Succeed())
	}
	editCheckpoints := func(edit func(*checkpoint.File)) {
		GinkgoHelper()
		f, err := checkpoint.Parse("golden", read(artifact.CheckpointsFile))
		Expect(err).NotTo(HaveOccurred())
		edit(&f)
		b, err := f.Marshal()
		Expect(err).NotTo(HaveOccurred())
		write(artifact.CheckpointsFile, b)
	}

	BeforeEach(func() {
		run, err := t02()
		Expect(err).NotTo(HaveOccurred())
		res, arts = run.res, run.arts
		Expect(res.Failures).To(BeEmpty())
		tmp = GinkgoT().TempDir()
		dir = filepath.Join(tmp, "goldens", "T0.2-decay")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		for _, name := range artifact.RungNames {
			write(name, arts[name])
		}
	})

	It("passes a run against its own artifacts, with no warnings", func() {
		Expect(verify(res.Fixture, tmp)).To(Equal(verdict.Verdict{}))
	})

	It("ends every failure with the commands that reproduce and regenerate the rung", func() {
		Expect(verdict.Commands(res.Fixture)).To(Equal(t02Commands))
	})

	It("names the first divergent tick, column, golden and actual value of a changed dense cell", func() {
		lines := strings.Split(string(read(artifact.DenseFile)), "\n")
		header := strings.Split(lines[0], ",")
		col := -1
		for i, h := range header {
			if h == "witness/theft@0/verbatim" {
				col = i
			}
		}
		Expect(col).To(BeNumerically(">", 0))
		row := strings.Split(lines[5], ",") // tick 4
		Expect(row[0]).To(Equal("4"))
		Expect(row[col]).To(Equal(canon.FormatFloat(detmath.Exp2(-4.0 / 72))))
		Expect(row[col]).To(Equal("0.9622238368941451"))
		row[col] = "999.0"
		lines[5] = strings.Join(row, ",")
		write(artifact.DenseFile, []byte(strings.Join(lines, "\n")))

		Expect(messages(verify(res.Fixture, tmp))).To(Equal([]string{
			`T0.2 dense.csv: first divergence at tick 4, column "witness/theft@0/verbatim": golden 999.0, actual 0.9622238368941451 ` + t02Commands,
		}))
	})

	It("reports only the first divergence of the dense golden", func() {
		lines := strings.Split(string(read(artifact.DenseFile)), "\n")
		for i := 100; i < 110; i++ {
			lines[i] = strings.Replace(lines[i], ",heard,", ",dormant,", 1)
		}
		write(artifact.DenseFile, []byte(strings.Join(lines, "\n")))
		Expect(messages(verify(res.Fixture, tmp))).To(Equal([]string{
			`T0.2 dense.csv: first divergence at tick 99, column "witness/theft@0/stage": golden dormant, actual heard ` + t02Commands,
		}))
	})

	It("names the first divergent trace record when a golden line is missing", func() {
		lines := strings.SplitAfter(string(read(artifact.TraceFile)), "\n")
		Expect(lines[4]).To(ContainSubstring(`"rule":"witness-creates-belief"`))
		golden := strings.Join(append(lines[:4:4], lines[5:]...), "")
		write(artifact.TraceFile, []byte(golden))

		const branch = `"branch":0,`
		Expect(messages(verify(res.Fixture, tmp))).To(Equal([]string{
			`T0.2 trace.jsonl: first divergent record at line 5 (tick 0, belief "witness/theft@0 formed"): ` +
				`actual has rule "witness-creates-belief witness/theft@0" at tick 0 here instead (a record was added or removed) ` +
				t02Commands,
		}))
		Expect(lines[5]).To(HavePrefix("{" + branch + `"change":"formed"`))
	})

	// The specs of a missing golden ask git whether it had the file; they
	// live in tools/ladder (missing_test.go), outside the packages the
	// determinism matrix runs under qemu-user, where fork/exec crashes the
	// 386 Go runtime.

	DescribeTable("reports a golden it cannot read",
		func(name string) {
			Expect(os.Remove(filepath.Join(dir, name))).To(Succeed())
			Expect(os.Mkdir(filepath.Join(dir, name), 0o755)).To(Succeed())
			v := verify(res.Fixture, tmp)
			Expect(v.Warnings).To(BeEmpty())
			Expect(messages(v)).To(HaveLen(1))
			Expect(messages(v)[0]).To(HavePrefix("T0.2 " + name + ": cannot read the golden: "))
			Expect(messages(v)[0]).To(HaveSuffix(t02Commands))
		},
		Entry("trace.jsonl", artifact.TraceFile),
		Entry("dense.csv", artifact.DenseFile),
	)

	DescribeTable("reports a malformed golden",
		func(name string, golden func([]byte) []byte, want string) {
			write(name, golden(read(name)))
			Expect(messages(verify(res.Fixture, tmp))).To(Equal([]string{want + " " + t02Commands}))
		},
		Entry("dense.csv without its final newline", artifact.DenseFile,
			func(b []byte) []byte { return b[:len(b)-1] },
			"T0.2 dense.csv: golden goldens/T0.2-decay/dense.csv is malformed: dense: malformed golden at line 722: missing newline at end of file"),
		Entry("dense.csv with a row one field short", artifact.DenseFile,
			func(b []byte) []byte {
				lines := strings.Split(string(b), "\n")
				lines[3] = lines[3][:strings.LastIndexByte(lines[3], ',')]
				return []byte(strings.Join(lines, "\n"))
			},
			"T0.2 dense.csv: golden goldens/T0.2-decay/dense.csv is malformed: dense: malformed golden at line 4, column 13: wrong number of fields: got 12, want 13"),
		Entry("empty dense.csv", artifact.DenseFile,
			func([]byte) []byte { return nil },
			"T0.2 dense.csv: golden goldens/T0.2-decay/dense.csv is malformed: dense: malformed golden at line 1: missing header"),
		Entry("truncated checkpoints.json", artifact.CheckpointsFile,
			func([]byte) []byte { return []byte("{\n") },
			"T0.2 checkpoints.json: golden is malformed: goldens/T0.2-decay/checkpoints.json:2:1: unexpected end of JSON input"),
	)

	It("passes a checkpoint moved by 1e-6 (regime 1 allows 1e-5) and fails one moved by 1e-3", func() {
		var golden float64
		editCheckpoints(func(f *checkpoint.File) {
			s := f.Samples[1]
			Expect(s.Tick).To(Equal(int64(24)))
			v := *s.Values["gist"] + 1e-6
			s.Values["gist"] = &v
		})
		Expect(verify(res.Fixture, tmp)).To(Equal(verdict.Verdict{}))

		editCheckpoints(func(f *checkpoint.File) {
			v := *f.Samples[1].Values["gist"] - 1e-6 + 1e-3
			golden = v
			f.Samples[1].Values["gist"] = &v
		})
		actual := 0.9828205985452511
		Expect(messages(verify(res.Fixture, tmp))).To(Equal([]string{
			`T0.2 checkpoints.json: checkpoint "gist" at tick 24: golden ` + canon.FormatFloat(golden) + `, actual 0.9828205985452511 (|Δ| ` +
				canon.FormatFloat(golden-actual) + " > 1e-05, regime 1) " + t02Commands,
		}))
	})

	It("warns, without failing, naming the define that moved, when only the inputs differ", func() {
		editCheckpoints(func(f *checkpoint.File) {
			f.DefinesHash = "0123456789abcdef"
			f.Defines["retell_decay"] = "0.125"
		})
		actual := string(res.Checkpoints.Defines["retell_decay"]) // the engine's, whatever it is
		Expect(actual).NotTo(BeEmpty())
		Expect(verify(res.Fixture, tmp)).To(Equal(verdict.Verdict{
			Warnings: []string{
				"T0.2 checkpoints.json: input drift: define retell_decay changed (golden 0.125, actual " + actual + "); values still compared — regenerate to record the new inputs",
			},
			Drift: []verdict.RungDrift{{Rung: "T0.2", What: "define retell_decay", Golden: "0.125", Actual: actual}},
		}))
	})

	It("fails on an outcome that differs, beside the drift warning", func() {
		editCheckpoints(func(f *checkpoint.File) { f.Outcome.Beliefs = 2; f.FixtureHash = "fedcba9876543210" })
		v := verify(res.Fixture, tmp)
		Expect(messages(v)).To(Equal([]string{"T0.2 checkpoints.json: outcome.beliefs: golden 2, actual 1 " + t02Commands}))
		Expect(v.Problems[0]).To(Equal(verdict.Problem{Rung: "T0.2", Check: "checkpoints.json", Tick: -1, Column: "outcome.beliefs",
			Golden: "2", Actual: "1", File: "fixtures/T0.2-decay.yaml", Line: 1, Message: messages(v)[0]}))
		v.Problems = nil
		Expect(v).To(Equal(verdict.Verdict{
			Warnings: []string{"T0.2 checkpoints.json: input drift: fixture_hash changed (golden fedcba9876543210, actual " + res.Fixture.Hash +
				"); values still compared — regenerate to record the new inputs"},
			Drift: []verdict.RungDrift{{Rung: "T0.2", What: "fixture_hash", Golden: "fedcba9876543210", Actual: res.Fixture.Hash}},
		}))
	})

	It("writes, unsealed, the same artifacts and no manifest (the explorer's scratch runs)", func() {
		sealed, err := ladder.Run(res.Fixture, ladder.Options{Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		u, err := ladder.Run(res.Fixture, ladder.Options{Dir: GinkgoT().TempDir(), Unsealed: true})
		Expect(err).NotTo(HaveOccurred())
		for _, name := range artifact.RungNames {
			want, err := os.ReadFile(sealed.Path(name))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.ReadFile(u.Path(name))).To(Equal(want), name)
		}
		Expect(u.Path(artifact.ManifestFile)).NotTo(BeAnExistingFile())
		Expect(sealed.Path(artifact.ManifestFile)).To(BeAnExistingFile())
	})

	It("writes, bare, the same artifacts with its audit, and no exported log or regimes (the explorer's variant runs)", func() {
		full, err := ladder.Run(res.Fixture, ladder.Options{Dir: GinkgoT().TempDir(), Unsealed: true})
		Expect(err).NotTo(HaveOccurred())
		bare, err := ladder.Run(res.Fixture, ladder.Options{Dir: GinkgoT().TempDir(), Unsealed: true, Bare: true})
		Expect(err).NotTo(HaveOccurred())
		for _, name := range []string{artifact.DenseFile, artifact.TraceFile, artifact.CheckpointsFile} {
			want, err := os.ReadFile(full.Path(name))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.ReadFile(bare.Path(name))).To(Equal(want), name)
		}
		Expect(full.Path(artifact.EventsFile)).To(BeAnExistingFile())
		Expect(bare.Path(artifact.EventsFile)).NotTo(BeAnExistingFile())
		Expect(full.Regimes).NotTo(BeEmpty())
		Expect(bare.Regimes).To(BeEmpty())
		Expect(bare.Audit).To(Equal(full.Audit), "a bare run audits as a full one does")
	})

	It("runs a world for its observer alone, showing it every record a full run shows, and writes nothing", func() {
		var ran, observed trace.Buffer
		_, err := ladder.Run(res.Fixture, ladder.Options{Dir: GinkgoT().TempDir(), Unsealed: true, Observe: &ran})
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		Expect(ladder.Observed(res.Fixture, ladder.Options{Dir: dir, Observe: &observed, Stall: time.Minute})).To(Succeed())
		Expect(observed.Records).NotTo(BeEmpty())
		Expect(cmp.Diff(ran.Records, observed.Records)).To(BeEmpty())
		Expect(os.ReadDir(dir)).To(BeEmpty())
	})

	// A run against goldens writes again only what differs from them
	// (artifact.CreateTwin): these pin that what it leaves is, byte for
	// byte, what a run without goldens writes.
	Describe("the artifacts a run need not write again", func() {
		run := func() *ladder.Result {
			GinkgoHelper()
			r, err := ladder.Run(res.Fixture, ladder.Options{Dir: GinkgoT().TempDir(), Goldens: tmp})
			Expect(err).NotTo(HaveOccurred())
			return r
		}
		sameFile := func(a, b string) bool {
			GinkgoHelper()
			ia, err := os.Stat(a)
			Expect(err).NotTo(HaveOccurred())
			ib, err := os.Stat(b)
			Expect(err).NotTo(HaveOccurred())
			return os.SameFile(ia, ib)
		}

		It("puts a passing run's trace and dense file in place as links to their goldens", func() {
			r := run()
			Expect(verdict.Verify(r)).To(Equal(verdict.Verdict{}))
			Expect(artifacts(r)).To(Equal(arts))
			for _, name := range []string{artifact.TraceFile, artifact.DenseFile} {
				Expect(sameFile(r.Path(name), filepath.Join(dir, name))).To(BeTrue(), name)
			}
			Expect(entries(r.Dir)).NotTo(ContainElement(HavePrefix(".")), "no temporary left")
		})

		DescribeTable("writes every byte of an artifact its golden does not hold, and leaves the golden as it was",
			func(name string, edit func([]byte) []byte) {
				golden := edit(bytes.Clone(arts[name]))
				write(name, golden)
				r := run()
				Expect(verdict.Verify(r).Problems).NotTo(BeEmpty(), "the edit is a divergence")
				Expect(artifacts(r)).To(Equal(arts))
				Expect(sameFile(r.Path(name), filepath.Join(dir, name))).To(BeFalse())
				Expect(read(name)).To(Equal(golden))
				Expect(entries(r.Dir)).NotTo(ContainElement(HavePrefix(".")), "no temporary left")
			},
			Entry("trace.jsonl, its first byte", artifact.TraceFile, func(b []byte) []byte { b[0] = ' '; return b }),
			Entry("trace.jsonl, a digit in the middle", artifact.TraceFile, func(b []byte) []byte { return flipDigit(b, len(b)/2) }),
			Entry("trace.jsonl, one record short", artifact.TraceFile, func(b []byte) []byte {
				return b[:bytes.LastIndexByte(b[:len(b)-1], '\n')+1]
			}),
			Entry("trace.jsonl, one record more", artifact.TraceFile, func(b []byte) []byte {
				return append(b, b[bytes.LastIndexByte(b[:len(b)-1], '\n')+1:]...)
			}),
			Entry("dense.csv, a digit in the middle", artifact.DenseFile, func(b []byte) []byte { return flipDigit(b, len(b)/2) }),
			Entry("dense.csv, its last row's digit", artifact.DenseFile, func(b []byte) []byte {
				return flipDigit(b, bytes.LastIndexByte(b[:len(b)-1], '\n'))
			}),
		)

		// Given the goldens' seal check (Options.Seals), a run takes the
		// digest of an artifact linked to its golden from the check: these
		// pin that its seal is still, file by file, the SHA-256 of what it
		// wrote.
		Describe("sealed from the goldens' seal check", func() {
			digestOf := func(b []byte) string {
				sum := sha256.Sum256(b)
				return hex.EncodeToString(sum[:])
			}
			// sealedRun seals the goldens as they are now, checks the seals
			// as the suite does, lets change alter a golden after the check,
			// then runs with the check, and returns the run's manifest's
			// digests.
			sealedRun := func(change func()) (*ladder.Result, map[string]string) {
				GinkgoHelper()
				Expect(seal.Write(dir, res.Fixture.Name(), artifact.RungNames)).To(Succeed())
				seals := verdict.CheckSeals(tmp, res.Fixture)
				Expect(seals.Problems).To(BeEmpty())
				change()
				r, err := ladder.Run(res.Fixture, ladder.Options{Dir: GinkgoT().TempDir(), Goldens: tmp, Seals: &seals})
				Expect(err).NotTo(HaveOccurred())
				b, err := os.ReadFile(r.Path(artifact.ManifestFile))
				Expect(err).NotTo(HaveOccurred())
				m, err := seal.Parse(b)
				Expect(err).NotTo(HaveOccurred())
				return r, m.Files
			}
			want := func() map[string]string {
				out := map[string]string{}
				for _, name := range artifact.RungNames {
					out[name] = digestOf(arts[name])
				}
				return out
			}

			It("says that an edited history is restored from git, since regenerating cannot give it back", func() {
				Expect(os.WriteFile(filepath.Join(dir, artifact.HistoryFile), []byte(`{"state":"new"}`+"\n"), 0o644)).To(Succeed())
				Expect(seal.Write(dir, res.Fixture.Name(), append(slices.Clone(artifact.RungNames), artifact.HistoryFile))).To(Succeed())
				Expect(os.WriteFile(filepath.Join(dir, artifact.HistoryFile), []byte(`{"state":"changed"}`+"\n"), 0o644)).To(Succeed())
				seals := verdict.CheckSeals(tmp, res.Fixture)
				Expect(seals.Problems).To(HaveLen(1))
				Expect(seals.Problems[0].Message).To(ContainSubstring("the set's history was edited"))
				Expect(seals.Problems[0].Message).To(ContainSubstring("regenerating cannot give it back"))
				Expect(seals.Problems[0].Message).NotTo(ContainSubstring("make goldens RUNG="))
			})

			It("seals a passing run, linked to its goldens, with the digests the check found", func() {
				r, got := sealedRun(func() {})
				Expect(verdict.Verify(r)).To(Equal(verdict.Verdict{}))
				Expect(sameFile(r.Path(artifact.TraceFile), filepath.Join(dir, artifact.TraceFile))).To(BeTrue())
				Expect(got).To(Equal(want()))
			})

			It("hashes what it wrote when an artifact diverged from a golden the check found as sealed", func() {
				write(artifact.TraceFile, flipDigit(bytes.Clone(arts[artifact.TraceFile]), len(arts[artifact.TraceFile])/2))
				r, got := sealedRun(func() {})
				Expect(verdict.Verify(r).Problems).NotTo(BeEmpty(), "the edit is a divergence")
				Expect(got).To(Equal(want()))
			})

			It("hashes the golden it linked to when the golden was rewritten in place after the check", func() {
				// The check finds a trace golden that is not the run's, as
				// sealed; then the golden is rewritten, in place, to the run's
				// bytes, so the run links to it: the check's digest is stale.
				write(artifact.TraceFile, flipDigit(bytes.Clone(arts[artifact.TraceFile]), len(arts[artifact.TraceFile])/2))
				golden := filepath.Join(dir, artifact.TraceFile)
				before, err := os.Stat(golden)
				Expect(err).NotTo(HaveOccurred())
				r, got := sealedRun(func() {
					write(artifact.TraceFile, arts[artifact.TraceFile])
					later := before.ModTime().Add(time.Second) // past the clock's tick, wherever it is coarse
					Expect(os.Chtimes(golden, later, later)).To(Succeed())
				})
				after, err := os.Stat(golden)
				Expect(err).NotTo(HaveOccurred())
				Expect(os.SameFile(before, after)).To(BeTrue(), "rewritten in place")
				Expect(verdict.Verify(r)).To(Equal(verdict.Verdict{}))
				Expect(sameFile(r.Path(artifact.TraceFile), golden)).To(BeTrue())
				Expect(got).To(Equal(want()))
			})
		})
	})
})

var _ = Describe("ColumnGroup", Label("unit"), func() {
	DescribeTable("groups columns as the dense contract reads them",
		func(column, group string) { Expect(record.ColumnGroup(column)).To(Equal(group)) },
		Entry("the tick", "tick", "tick"),
		Entry("an NPC's presence", "witness/at", "*/at"),
		Entry("an NPC's life", "witness/alive", "*/alive"),
		Entry("a claim's believers, per claim", "theft@10/believers", "theft@10/believers"),
		Entry("a claim's variants, per claim", "theft@10/variants", "theft@10/variants"),
		Entry("a belief field, over holders", "ulfric/theft@10/confidence", "*/theft@10/confidence"),
		Entry("a belief's stage", "ulfric/theft@10/stage", "*/theft@10/stage"),
		Entry("a grudge's strength, over holders", "grudge/loser/player/emotional", "grudge/*/player/emotional"),
		Entry("an accumulator's count, over victims", "accumulator/lucan/player/count", "accumulator/*/player/count"),
		Entry("an obligation's state, over favours", "obligation/favour@2/state", "obligation/*/state"),
		Entry("a reputation row's mean, over observers", "reputation/jon/player/reliability/mean", "reputation/*/player/reliability/mean"),
		Entry("a pair's weight, over the pair's first NPC", "pair/torvar/ulf/weight", "pair/*/ulf/weight"),
		Entry("a role's holder, over roles", "role/steward/holder", "role/*/holder"),
		Entry("a role's lapses, over roles", "role/steward/lapses", "role/*/lapses"),
		Entry("a changed schedule's override, over NPCs", "schedule/frida/override", "schedule/*/override"),
		Entry("a changed schedule's base, over NPCs", "schedule/frida/base", "schedule/*/base"),
		Entry("a grudge column with an unknown field, as it is", "grudge/loser/player/mood", "grudge/loser/player/mood"),
		Entry("anything else, as it is", "a/b/c/d", "a/b/c/d"),
		Entry("an unknown field, as it is", "ulfric/theft@10/mood", "ulfric/theft@10/mood"),
	)
})

var _ = Describe("DriftLines", Label("unit"), func() {
	It("prints each change once, naming every rung it touched, whatever order the rungs ran in", func() {
		d := func(rung, what, g, a string) verdict.RungDrift {
			return verdict.RungDrift{Rung: rung, What: what, Golden: g, Actual: a}
		}
		Expect(verdict.DriftLines([]verdict.RungDrift{
			d("T2.1", "define retell_decay", "0.8", "0.75"),
			d("T1.1", "fixture_hash", "aa", "bb"),
			d("T1.1", "define retell_decay", "0.8", "0.75"),
			d("T0.1/quiet", "define retell_decay", "0.8", "0.75"),
			d("T2.3", "define contested_dent", "0.1", "absent"),
			d("T1.1", "define retell_decay", "0.8", "0.75"),
		})).To(Equal([]string{
			"define contested_dent: 0.1 → absent in T2.3",
			"define retell_decay: 0.8 → 0.75 in 3 rungs: T0.1/quiet, T1.1, T2.1",
			"fixture_hash: aa → bb in T1.1",
		}))
		Expect(verdict.DriftLines(nil)).To(BeEmpty())
	})
})

var _ = Describe("RungOfFile", Label("unit"), func() {
	DescribeTable("reads rung and tier off a fixture's file name",
		func(name, rung, tier string) {
			r, t := fixture.RungOfFile(name)
			Expect([]string{r, t}).To(Equal([]string{rung, tier}))
		},
		Entry("a rung", "fixtures/T2.3-conflicting-variants.yaml", "T2.3", "2"),
		Entry("a lettered tier", "fixtures/T4a.1-mourning.yaml", "T4a.1", "4a"),
		Entry("the north star", "fixtures/T6-north-star.yaml", "T6", "6"),
		Entry("a name off the rule", "fixtures/notes.yaml", "notes", "-none"),
		Entry("a rung id the loader refuses (tiers stop at 6), so its load failure runs under RUNG=T9.1", "fixtures/T9.1-x.yaml", "T9.1", "9"),
	)
	It("names the spec of a file that does not load as the triage page looks it up: rung, path, does not load", func() {
		Expect(fixture.File{Name: "fixtures/T1.9-badtick.yaml", Rung: "T1.9"}.LoadFailureSpec()).To(Equal("T1.9 fixtures/T1.9-badtick.yaml does not load"))
	})
	It("gives the golden directory of a file", func() {
		Expect(fixture.GoldenDirOfFile("fixtures/T2.1-spread.yaml")).To(Equal("goldens/T2.1-spread"))
	})
})

var _ = Describe("ObsoleteGoldens", Label("unit"), func() {
	It("names golden directories no fixture owns, and counts what it examined", func() {
		tmp := GinkgoT().TempDir()
		for _, d := range []string{"T0.1-witness/quiet", "T0.1-witness/loud", "T0.2-decay/anycase", "T0.3-gone", ".regen/run-1"} {
			Expect(os.MkdirAll(filepath.Join(tmp, "goldens", d), 0o755)).To(Succeed())
		}
		files := []fixture.File{
			{Name: "fixtures/T0.1-witness.yaml", Fixtures: []*fixture.Fixture{{Rung: "T0.1"}, {Rung: "T0.1", Case: "quiet"}}},
			{Name: "fixtures/T0.2-decay.yaml", Err: errors.New("does not load")},
		}
		obsolete, examined, err := verdict.ObsoleteGoldens(tmp, files)
		Expect(err).NotTo(HaveOccurred())
		Expect(obsolete).To(Equal([]string{"goldens/T0.1-witness/loud", "goldens/T0.3-gone"}))
		Expect(examined).To(Equal(6))
	})

	It("examines nothing when there are no goldens", func() {
		obsolete, examined, err := verdict.ObsoleteGoldens(GinkgoT().TempDir(), nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(obsolete).To(BeEmpty())
		Expect(examined).To(BeZero())
	})
})

// flipDigit changes the first digit at or after i to another digit.
func flipDigit(b []byte, i int) []byte {
	GinkgoHelper()
	for ; i < len(b); i++ {
		if b[i] >= '0' && b[i] <= '9' {
			b[i] = '0' + (b[i]-'0'+1)%10
			return b
		}
	}
	Fail("no digit to change")
	return nil
}
