package page_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder"
	"github.com/chronicle/ladder/ladder/fixture"
	"github.com/chronicle/ladder/ladder/page"
	"github.com/chronicle/ladder/ladder/pageinput"
	"github.com/chronicle/ladder/ladder/whynot"
)

// hostile is a failing rung whose names and messages try to break out of
// the page.
func hostile() page.Input {
	in := synthInput()
	in.Name = `T9.2/"><script>alert(1)</script>`
	in.Title = `<img src=x onerror=alert(1)>`
	in.Failures = []string{`T9.2 at tick 2: </script><img src="https://example.com/x.png"> url(http://example.com)`}
	in.GoldenDense = page.Data(synthDense)
	return in
}

func render(inputs ...page.Input) []byte {
	GinkgoHelper()
	html, err := page.Page(inputs, page.Options{})
	Expect(err).NotTo(HaveOccurred())
	return html
}

var (
	scriptBody = regexp.MustCompile(`(?s)(<script[^>]*>).*?</script>`)
	tag        = regexp.MustCompile(`<[a-zA-Z][^>]*>`)
	attrRef    = regexp.MustCompile(`(?i)\s(href|src|srcset|action|formaction|poster|data|xlink:href|background)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)`)
	external   = regexp.MustCompile(`(?i)https?:|\burl\(|@import|<link\b|<iframe\b|<img\b|<object\b|<embed\b|<base\b`)
	dataJSON   = regexp.MustCompile(`<script type="application/json" class="data">(.*?)</script>`)
)

// references returns the URL-valued attributes of every tag outside
// scripts, as (attribute, value) pairs.
func references(html []byte) [][2]string {
	var out [][2]string
	for _, t := range tag.FindAll(scriptBody.ReplaceAll(html, []byte("$1</script>")), -1) {
		for _, m := range attrRef.FindAllSubmatch(t, -1) {
			out = append(out, [2]string{strings.ToLower(string(m[1])), strings.Trim(string(m[2]), `"'`)})
		}
	}
	return out
}

// checkSelfContained fails when a reference leaves the file, and returns
// how many it examined.
func checkSelfContained(html []byte) int {
	GinkgoHelper()
	refs := references(html)
	for _, r := range refs {
		Expect(r[0]).To(Equal("href"), "a %s= attribute loads %q", r[0], r[1])
		Expect(r[1]).To(HavePrefix("#"), "a link leaves the file")
	}
	return len(refs)
}

var _ = Describe("the rendered page", func() {
	It("is self-contained: no address anywhere, every link inside the file", func() {
		_, failing := failingRun(GinkgoT())
		html := render(synthInput(), failing)
		Expect(external.FindAll(html, -1)).To(BeEmpty())
		n := checkSelfContained(html)
		Expect(n).To(BeNumerically(">", 10), "the check examined too few references to mean anything")
		GinkgoWriter.Printf("examined %d references in %d bytes\n", n, len(html))
	})

	It("escapes names and messages, so they cannot add a reference or a script", func() {
		html := render(hostile())
		Expect(checkSelfContained(html)).To(BeNumerically(">", 5))
		s := string(html)
		Expect(s).NotTo(ContainSubstring("<img"))
		Expect(s).NotTo(ContainSubstring("<script>alert"))
		Expect(strings.Count(s, "<script")).To(Equal(2), "one data block and the page's script")
		Expect(s).To(ContainSubstring(`&lt;img src=x onerror=alert(1)&gt;`))
	})

	It("embeds data that parses, with every string index in range", func() {
		blocks := dataJSON.FindAllSubmatch(render(synthInput(), hostile()), -1)
		Expect(blocks).To(HaveLen(2))
		for _, b := range blocks {
			var d struct {
				S    []string  `json:"s"`
				Feed [][]int64 `json:"feed"`
			}
			Expect(json.Unmarshal(b[1], &d)).To(Succeed())
			Expect(d.Feed).To(HaveLen(11))
			for _, r := range d.Feed {
				for _, i := range r[3:] {
					Expect(i).To(BeNumerically("<", len(d.S)))
				}
			}
		}
	})

	It("keeps the other sections when one cannot be built, and says which", func() {
		bad := synthInput()
		bad.Name, bad.Failures = "T9.3", []string{"T9.3 dense.csv: first divergence at tick 1"}
		bad.Dense = page.Data("tock\n")
		html, err := page.Page([]page.Input{synthInput(), bad}, page.Options{})
		Expect(err).To(MatchError(`T9.3: dense.csv: header: first column is "tock", not "tick"`))
		Expect(string(html)).To(ContainSubstring(`data-name="T9.1"`))
		Expect(string(html)).To(ContainSubstring(`This section could not be built: T9.3: dense.csv: header: first column is &#34;tock&#34;, not &#34;tick&#34;.`))
		Expect(string(html)).To(ContainSubstring(`T9.3 dense.csv: first divergence at tick 1`))
	})

	It("keeps the other sections when one cannot be embedded, and says which", func() {
		bad := build(synthInput(), page.Options{})
		bad.Name = "T9.3"
		bad.Map = &page.MapView{Places: []page.Place{{ID: "market", X: math.Inf(1)}}} // no JSON holds it
		html, err := page.Render([]*page.Section{build(synthInput(), page.Options{}), bad}, page.Options{})
		Expect(err).To(MatchError(ContainSubstring("T9.3: embedded data: json: unsupported value: +Inf")))
		Expect(string(html)).To(ContainSubstring(`data-name="T9.1"`))
		Expect(string(html)).To(ContainSubstring(`data-name="T9.3"`))
		Expect(string(html)).To(ContainSubstring(`This section could not be embedded: T9.3: embedded data: json: unsupported value: &#43;Inf.`))
	})

	It("keeps to its size budget a section and in all, failing sections first, saying so in each section cut", func() {
		passing := build(synthInput(), page.Options{})
		data := func(html []byte, name string) bool {
			GinkgoHelper()
			return regexp.MustCompile(`data-name="`+regexp.QuoteMeta(name)+`"[^>]*>`).Match(html) && !strings.Contains(string(html), "This section&#39;s data")
		}
		Expect(data(render(synthInput()), "T9.1")).To(BeTrue(), "within the default budget, whole")

		html, err := page.Render([]*page.Section{passing}, page.Options{MaxSectionBytes: 100})
		Expect(err).NotTo(HaveOccurred(), "a cut is no error: the page is still whole, the note says what is missing")
		Expect(string(html)).To(MatchRegexp(`This section&#39;s data \(0\.0 MiB\) is over the page&#39;s budget of 0\.0 MiB a section, so only its failure lines are shown: the run&#39;s files are under reports/T9\.1/\.`))

		_, failing := failingRun(GinkgoT())
		f := build(failing, page.Options{})
		alone, err := page.Render([]*page.Section{f}, page.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(alone)).NotTo(ContainSubstring("This section&#39;s data"))
		// The smallest budget the failing section fits in alone: with
		// the passing one, first in order, it is the passing one cut.
		fits := sort.Search(len(alone), func(n int) bool {
			html, _ := page.Render([]*page.Section{f}, page.Options{MaxPageBytes: max(n, 1)})
			return !strings.Contains(string(html), "would take the page over its budget")
		})
		html, err = page.Render([]*page.Section{passing, f}, page.Options{MaxPageBytes: fits})
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(string(html), "would take the page over its budget")).To(Equal(1))
		Expect(string(html)).To(MatchRegexp(`reports/T9\.1/\.`))
		Expect(string(html)).NotTo(MatchRegexp(`would take the page over its budget[^<]*reports/` + regexp.QuoteMeta(f.Name) + `/`))
	})

	It("lays out a map of coordinates near the largest float, clamped, with every number finite", func() {
		in := synthInput()
		in.Locations = []page.Location{{ID: "market", XY: &[2]float64{1e308, 0}}, {ID: "farm", XY: &[2]float64{-1e308, math.NaN()}}}
		html, err := page.Page([]page.Input{in}, page.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(html)).NotTo(ContainSubstring("could not be"))
		m := build(in, page.Options{}).Map
		Expect(m.Given).To(BeTrue())
		for _, x := range []float64{m.W, m.H, m.Places[0].X, m.Places[0].Y, m.Places[1].X, m.Places[1].Y} {
			Expect(math.IsInf(x, 0) || math.IsNaN(x)).To(BeFalse())
		}
		Expect(m.Places[0].X - m.Places[1].X).To(Equal(2 * page.MaxCoordinate))
	})

	It("is the same bytes for the same runs", func() {
		_, failing := failingRun(GinkgoT())
		Expect(bytes.Equal(render(synthInput(), failing), render(synthInput(), failing))).To(BeTrue())
	})

	It("counts failing rungs in its title and opens their sections", func() {
		html := string(render(synthInput(), hostile()))
		Expect(html).To(ContainSubstring(`<title>Chronicle ladder — triage (1 failed)</title>`))
		Expect(html).To(MatchRegexp(`<section class="rung failed" id="s1" data-name="T9.2/&#34;&gt;&lt;script&gt;alert\(1\)&lt;/script&gt;" data-default="2">\s*<details open>`))
		Expect(html).To(MatchRegexp(`<section class="rung passed" id="s0" data-name="T9.1" data-default="1">\s*<details>`))
	})
})

// The page is only as good as its agreement with the engine: for every
// committed rung and case, at every tick, the page model's belief table
// must be the engine's own state (a fresh world stepped to that tick).
var _ = Describe("every committed rung", Ordered, func() {
	var files []fixture.File
	// runs holds each non-sweep rung's passing run, made once for both
	// specs (each made every run itself: a second pass over the ladder);
	// their directories last until the container ends.
	runs := map[*fixture.Fixture]page.Input{}
	BeforeAll(func() {
		var err error
		files, err = fixture.Discover(root+"/fixtures", "fixtures")
		Expect(err).NotTo(HaveOccurred())
		for _, file := range files {
			Expect(file.Err).NotTo(HaveOccurred())
			for _, f := range file.Fixtures {
				if f.Sweep == nil {
					runs[f] = passingRun(GinkgoT(), f)
				}
			}
		}
	})

	It("names, for every variant, the record that made it", func() {
		mutated, made := 0, 0
		for _, file := range files {
			for _, f := range file.Fixtures {
				if f.Sweep != nil {
					continue
				}
				s, err := page.Build(runs[f], page.Options{})
				Expect(err).NotTo(HaveOccurred())
				makers := map[string]page.Maker{}
				for _, m := range s.Makers() {
					makers[m.Variant] = m
				}
				for _, c := range s.Lineage.Claims {
					for _, v := range c.Variants {
						recs, embedded := s.FeedAt(v.Tick)
						if !embedded {
							continue
						}
						m, ok := makers[v.ID]
						Expect(ok).To(BeTrue(), "%s: no record made %s (%s at tick %d)", f.Name(), v.ID, v.Reason, v.Tick)
						i := slices.IndexFunc(recs, func(r page.Record) bool { return r.Seq == m.Seq })
						Expect(i).To(BeNumerically(">=", 0), "%s: %s's maker, seq %d, is not a record of tick %d", f.Name(), v.ID, m.Seq, v.Tick)
						r := recs[i]
						switch {
						case v.Reason == "event":
							Expect([]string{string(r.Kind), r.Fields[0]}).To(Equal([]string{"event", c.ID}), "%s: %s", f.Name(), v.ID)
						case strings.HasPrefix(v.Reason, "mutation:"):
							mutated++
							// The mutation-policy evaluation of a listener from the
							// variant's producer, the last before the telling of it.
							Expect(r.Kind).To(Equal(page.KindRule))
							Expect(r.Fields[0]).To(Equal("mutation-policy"))
							Expect(r.Fired).To(BeTrue())
							listener, rest, _ := strings.Cut(r.Fields[1], "<-")
							Expect(rest).To(Equal(v.By+"/"+c.ID), "%s: %s", f.Name(), v.ID)
							j := slices.IndexFunc(recs[i+1:], func(x page.Record) bool {
								return x.Kind == page.KindTransmission && x.Fields[0] == v.By && x.Fields[1] == listener && x.Fields[3] == v.ID
							})
							Expect(j).To(BeNumerically(">=", 0), "%s: no telling of %s follows its maker", f.Name(), v.ID)
							for _, x := range recs[i+1 : i+1+j] {
								Expect(x.Kind == page.KindRule && x.Fields[0] == "mutation-policy" && x.Fired && x.Fields[1] == r.Fields[1]).To(BeFalse(),
									"%s: a later mutation step (seq %d) made %s, not seq %d", f.Name(), x.Seq, v.ID, r.Seq)
							}
						default:
							Expect([]string{string(r.Kind), r.Fields[0], r.Fields[1]}).To(Equal([]string{"rule", "witness-creates-belief", v.By + "/" + c.ID}), "%s: %s", f.Name(), v.ID)
						}
						made++
					}
				}
			}
		}
		Expect(mutated).To(BeNumerically(">", 0), "no rung mutates a variant: the check examines nothing")
		GinkgoWriter.Printf("%d variants' makers, %d of them mutations\n", made, mutated)
	})

	It("has a belief table and a social panel equal to the engine's at every tick", func() {
		compared, social, social02 := 0, 0, 0
		for _, file := range files {
			Expect(file.Err).NotTo(HaveOccurred())
			for _, f := range file.Fixtures {
				if f.Sweep != nil {
					continue // a sweep's section has no ticks, only a note (pageinput.PageInput)
				}
				s, err := page.Build(runs[f], page.Options{})
				Expect(err).NotTo(HaveOccurred())
				for tick, want := range engineRows(GinkgoT(), f) {
					got := modelRows(s, int64(tick))
					if d := cmp.Diff(want, got); d != "" {
						Fail(fmt.Sprintf("%s at tick %d (-engine +page):\n%s", f.Name(), tick, d))
					}
					compared += len(want)
				}
				for tick, want := range engineSocial(GinkgoT(), f) {
					got := modelSocial(s, int64(tick))
					if d := cmp.Diff(want, got); d != "" {
						Fail(fmt.Sprintf("%s social state at tick %d (-engine +page):\n%s", f.Name(), tick, d))
					}
					social += len(want)
				}
				// Tiers 0–2 have no social state, so no panel.
				if tier := f.Rung[:2]; tier == "T0" || tier == "T1" || tier == "T2" {
					Expect(s.HasSocial()).To(BeFalse(), "%s has a social-state panel", f.Name())
					social02++
				}
			}
		}
		Expect(compared).To(BeNumerically(">", 10000), "the check compared too few rows to mean anything")
		Expect(social).To(BeNumerically(">", 1000), "the check compared too few social rows to mean anything")
		Expect(social02).To(BeNumerically(">=", 14), "too few Tier 0–2 sections were checked for no panel")
		GinkgoWriter.Printf("compared %d belief-table rows and %d social-panel rows with the engine; %d Tier 0–2 sections have no panel\n", compared, social, social02)
	})

	It("answers every why-not it embeds exactly as ladder why-not does, around the tick it opens at", func() {
		answered := 0
		for _, file := range files {
			for _, f := range file.Fixtures {
				if f.Sweep != nil {
					continue
				}
				in := runs[f]
				s, err := page.Build(in, page.Options{})
				Expect(err).NotTo(HaveOccurred())
				w := s.WhyNot
				Expect(w).NotTo(BeNil(), "%s embeds no why-not answers: %v", f.Name(), s.Notes)
				Expect(w.From).To(BeNumerically("<=", s.DefaultTick()), f.Name())
				Expect(w.To).To(BeNumerically(">=", s.DefaultTick()), f.Name())
				run, err := whynot.Open(f.Name(), filepath.Dir(string(in.Trace.(page.Path))), whynot.WorldOf(f))
				Expect(err).NotTo(HaveOccurred())
				for t := w.From; t <= w.To; t++ {
					for _, npc := range run.NPCs() {
						for _, claim := range run.Claims() {
							got, embedded := s.WhyNotAt(npc, claim, t)
							Expect(embedded).To(BeTrue(), "%s: %s and %s at tick %d", f.Name(), npc, claim, t)
							if run.Holds(npc, claim, t) {
								Expect(got).To(BeNil(), "%s: %s holds %s at tick %d", f.Name(), npc, claim, t)
								continue
							}
							a, err := run.Explain(npc, claim, t)
							Expect(err).NotTo(HaveOccurred())
							Expect(got).To(Equal(a.Body()), "%s: %s and %s at tick %d", f.Name(), npc, claim, t)
							answered++
						}
					}
				}
			}
		}
		Expect(answered).To(BeNumerically(">", 1000), "the check compared too few answers to mean anything")
		GinkgoWriter.Printf("compared %d embedded why-not answers with the command's\n", answered)
	})

	It("makes a page within the size budget", func() {
		var inputs []page.Input
		for _, file := range files {
			for _, f := range file.Fixtures {
				if f.Sweep == nil {
					inputs = append(inputs, runs[f])
					continue
				}
				// A sweep, as the suite leaves it: with one seed's world.
				reports := GinkgoT().TempDir()
				res, err := ladder.Run(f, ladder.Options{Dir: filepath.Join(reports, filepath.FromSlash(f.Name()))})
				Expect(err).NotTo(HaveOccurred())
				_, err = pageinput.RunSeedWorld(res)
				Expect(err).NotTo(HaveOccurred())
				inputs = append(inputs, pageinput.ReportedPageInputs(root, reports, f, nil)...)
			}
		}
		Expect(len(inputs)).To(BeNumerically(">=", 19))
		html := render(inputs...)
		// The page grows with the ladder, so the budget is a section's: the
		// largest (a thousand NPCs' seed world, T6) within 1.5 MiB, and on
		// average 100 KiB, which today's ladder keeps to with room.
		sections := regexp.MustCompile(`(?s)<section class="rung.*?</section>`).FindAll(html, -1)
		Expect(sections).To(HaveLen(len(inputs)))
		largest := 0
		for _, sec := range sections {
			largest = max(largest, len(sec))
		}
		Expect(largest).To(BeNumerically("<", 3<<19), "a section must fit in 1.5 MiB")
		Expect(len(html)/len(inputs)).To(BeNumerically("<", 100<<10), "sections must average under 100 KiB")
		GinkgoWriter.Printf("%d sections, %d bytes, the largest %d\n", len(inputs), len(html), largest)
	})
})

var _ = Describe("the variant tree beside the golden's", func() {
	// The synthetic run's golden never minted theft@1#v1: a failing
	// section shows the golden's tree, read from the golden trace,
	// beside the run's; a passing one shows the run's alone.
	golden := func() page.Data {
		var out []byte
		for _, line := range bytes.SplitAfter(synthTrace(), []byte("\n")) {
			if !bytes.Contains(line, []byte(`"id":"theft@1#v1"`)) {
				out = append(out, line...)
			}
		}
		return page.Data(out)
	}
	trees := func(html []byte) (run, gold string) {
		GinkgoHelper()
		s := string(html)
		i := strings.Index(s, `<div class="panel variants">`)
		Expect(i).To(BeNumerically(">=", 0), "no variant tree")
		s, _, _ = strings.Cut(s[i:], `<script type="application/json" class="data">`)
		run, gold, _ = strings.Cut(s, "<h4>The golden</h4>")
		return run, gold
	}

	It("shows the golden's variants, read from its trace, beside a failing run's", func() {
		in := synthInput()
		in.GoldenTrace = golden()
		in.Failures = []string{"T9.1 trace.jsonl: first divergent record at line 13 (tick 4)"}
		s := build(in, page.Options{})
		Expect(s.GoldenLineage).NotTo(BeNil())
		Expect(s.GoldenLineage.Claims[0].Variants).To(HaveLen(1))
		run, gold := trees(render(in))
		Expect(run).To(ContainSubstring("theft@1#v1"))
		Expect(gold).To(ContainSubstring("theft@1#v0"))
		Expect(gold).NotTo(ContainSubstring("theft@1#v1"))
	})

	It("shows the run's tree alone for a passing run", func() {
		in := synthInput()
		in.GoldenTrace = golden()
		Expect(build(in, page.Options{}).GoldenLineage).To(BeNil())
		_, gold := trees(render(in))
		Expect(gold).To(BeEmpty())
	})
})
