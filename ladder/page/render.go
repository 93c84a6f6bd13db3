package page

import (
	"bytes"
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"github.com/chronicle/ladder/ladder/lineage"
	"html/template"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

//go:embed page.html
var pageHTML string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

var tmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	// link is an in-page link to a section at a tick. Fragment's output
	// is URL-safe by construction, so it is marked as such: html/template
	// would otherwise percent-encode the "@".
	"link": func(name string, tick int64) template.URL { return template.URL("#" + Fragment(name, tick)) },
	// linkto is an in-page link to a State: a section, a tick, a target.
	"linkto": func(st State) template.URL { return template.URL("#" + FragmentTo(st.Name, st.Tick, st.Target)) },
	"pct":    func(x float64) string { return strconv.FormatFloat(100*x, 'f', 0, 64) + "%" },
	"stages": func() []string { return Stages },
	"sub":    func(a, b float64) float64 { return a - b },
	"dec":    func(t int64) int64 { return t - 1 },
}).Parse(pageHTML))

// Stages are the five rumour stages the map colours, in order: an NPC who
// holds nothing is unheard; dormant and forgotten are derived at read
// time (docs/dense-columns.md).
var Stages = []string{"unheard", "heard", "repeated", "dormant", "forgotten"}

// view is what the template renders for one section.
type view struct {
	*Section
	Index       int
	Open        bool
	Status      string
	DefaultTick int64
	MinTick     int64
	MaxTick     int64
	Curves      []curve
	Claims      []claimView
	// GoldenClaims is the golden's variant tree, beside a failing run's.
	GoldenClaims []claimView
	Rules        bool // the section embeds rule records
	Social       bool // the run has social state: the section shows its panel
	Data         template.JS
}

// Render returns the whole page for the given sections, in order, and
// the errors of sections it could not embed (each then shown bare, with
// a note saying why); the page is nil only when it cannot be made at all. It
// reads no clock and no map order, so the same runs give the same bytes.
//
// The page keeps to its size budget (Options.MaxSectionBytes,
// MaxPageBytes): a section whose embedded data is over the budget of a
// section, or would take the page's over its own, is shown bare, with a
// note saying so. Failed sections are embedded first, so a page that
// reaches its budget drops passing sections before failing ones.
func Render(sections []*Section, opt Options) ([]byte, error) {
	if opt.MaxSectionBytes <= 0 {
		opt.MaxSectionBytes = DefaultMaxSectionBytes
	}
	if opt.MaxPageBytes <= 0 {
		opt.MaxPageBytes = DefaultMaxPageBytes
	}
	page := struct {
		Sections []view
		// Index is the overview: failed runs first, by tier and earliest
		// divergence, then the passing ones in fixture order; Start is
		// the first failed run, where a person starts.
		Index  []view
		Start  *view
		Failed int
		Style  template.CSS
		Script template.JS
	}{Style: template.CSS(pageCSS), Script: template.JS(pageJS), Sections: make([]view, len(sections))}
	order := make([]int, 0, len(sections))
	for _, failed := range []bool{true, false} {
		for i, s := range sections {
			if s.Failed() == failed {
				order = append(order, i)
			}
		}
	}
	var errs []error
	total := 0
	for _, i := range order {
		s := sections[i]
		v, err := newView(i, s)
		note := ""
		switch {
		case err != nil:
			// One section that cannot be embedded must not take the
			// page down with it: it is shown by its name, failure
			// lines and why, and the error is returned with the page.
			errs = append(errs, err)
			note = fmt.Sprintf("This section could not be embedded: %v.", err)
		case len(v.Data) > opt.MaxSectionBytes:
			note = fmt.Sprintf("This section's data (%s) is over the page's budget of %s a section, so only its failure lines are shown: the run's files are under reports/%s/.",
				mib(len(v.Data)), mib(opt.MaxSectionBytes), s.Name)
		case total+len(v.Data) > opt.MaxPageBytes:
			note = fmt.Sprintf("This section's data (%s) would take the page over its budget of %s in all, so only its failure lines are shown: the run's files are under reports/%s/.",
				mib(len(v.Data)), mib(opt.MaxPageBytes), s.Name)
		}
		if note != "" {
			if v, err = newView(i, bare(s, note)); err != nil {
				return nil, err
			}
		}
		total += len(v.Data)
		if s.Failed() {
			page.Failed++
		}
		page.Sections[i] = v
	}
	page.Index = slices.Clone(page.Sections)
	slices.SortStableFunc(page.Index, func(a, b view) int { return compareFirst(a.Section, b.Section) })
	if len(page.Index) > 0 && page.Index[0].Failed() {
		page.Start = &page.Index[0]
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, page); err != nil {
		return nil, fmt.Errorf("render triage page: %w", err)
	}
	return b.Bytes(), errors.Join(errs...)
}

// bare is a section with only what names it and why it failed, and a
// note: what the page shows of a section whose data it cannot embed, or
// not within its budget.
func bare(s *Section, note string) *Section {
	return &Section{Name: s.Name, Tier: s.Tier, Title: s.Title, Source: s.Source, Failures: s.Failures, Commands: s.Commands,
		Notes: append(slices.Clone(s.Notes), note), Divergence: -1}
}

// DefaultTick is the tick a section opens at: its first divergence when
// the embedded rows hold it, else its first event's, else its first row's.
func (s *Section) DefaultTick() int64 {
	if s.Divergence >= s.Rows.From && s.Divergence <= s.Rows.To {
		return s.Divergence
	}
	if i := slices.IndexFunc(s.Feed, func(r Record) bool { return r.Kind == KindEvent }); i >= 0 {
		return s.Feed[i].Tick
	}
	return s.Rows.From
}

// TierName is the section's tier for the overview.
func (v view) TierName() string { return TierOf(v.Section) }

func newView(i int, s *Section) (view, error) {
	data, err := s.data()
	if err != nil {
		return view{}, fmt.Errorf("%s: embedded data: %w", s.Name, err)
	}
	v := view{Section: s, Index: i, Open: s.Failed(), Status: "passed", DefaultTick: 0, Data: template.JS(data)}
	if s.Failed() {
		v.Status = "failed"
	}
	if s.Rows.N > 0 {
		v.MinTick, v.MaxTick = s.Rows.From, s.Rows.To
		v.DefaultTick = s.DefaultTick()
		v.Curves = curves(s, s.Rows.First, s.Rows.Last)
	}
	v.Rules = slices.ContainsFunc(s.Feed, func(r Record) bool { return r.Kind == KindRule })
	v.Social = s.HasSocial()
	if s.Lineage != nil {
		v.Claims = claimViews(s, s.Lineage, true)
	}
	if s.GoldenLineage != nil {
		v.GoldenClaims = claimViews(s, s.GoldenLineage, false)
	}
	return v, nil
}

// compareFirst orders the overview: failed before passed; failed by
// tier, then by the earliest divergence (none last); otherwise as given.
func compareFirst(a, b *Section) int {
	if a.Failed() != b.Failed() {
		if a.Failed() {
			return -1
		}
		return 1
	}
	if !a.Failed() {
		return 0
	}
	if c := compareTiers(TierOf(a), TierOf(b)); c != 0 {
		return c
	}
	return cmp.Compare(uint64(a.Divergence), uint64(b.Divergence)) // -1 is the largest
}

// TierOf is a section's tier: its input's, else read off its name
// ("T4a.2/frozen" is tier 4a, "T6" tier 6); "" when neither says.
func TierOf(s *Section) string {
	if s.Tier != "" {
		return s.Tier
	}
	if m := tierName.FindStringSubmatch(s.Name); m != nil {
		return m[1]
	}
	return ""
}

var tierName = regexp.MustCompile(`^T(\d+[a-z]?)(?:\.|$|/)`)

// compareTiers orders tiers by number, then letter ("3" < "4a" < "4b" <
// "5"); an unknown tier last.
func compareTiers(a, b string) int {
	num := func(t string) (int, string) {
		i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' })
		if i < 0 {
			i = len(t)
		}
		n, err := strconv.Atoi(t[:i])
		if err != nil {
			return 1 << 30, t
		}
		return n, t[i:]
	}
	na, sa := num(a)
	nb, sb := num(b)
	return cmp.Or(cmp.Compare(na, nb), strings.Compare(sa, sb))
}

// curve is one claim's believer curve: an SVG whose plot area is in tick
// and count units (so its paths hold integers only), overlaid with the
// golden's curve when the rung failed.
type curve struct {
	Claim          string
	MinTick, Span  int64
	Last           int64
	Max            int64
	Actual, Golden string // SVG path data; Golden "" when not overlaid
	Differs        bool
	Divergence     int64 // -1 when not marked
	DivX           int64 // the marker's x in the figure's pixels
}

func curves(s *Section, minTick, maxTick int64) []curve {
	var ids []string
	for _, tr := range []*Tracks{s.Actual, s.Golden} {
		if tr == nil {
			continue
		}
		for id := range tr.Believers {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var out []curve
	for _, id := range ids {
		c := curve{Claim: id, MinTick: minTick, Last: maxTick, Span: max(maxTick-minTick, 1), Max: 1, Divergence: -1}
		a := s.Actual.Believers[id]
		var g []Point
		if s.Golden != nil {
			g = s.Golden.Believers[id]
		}
		for _, p := range slices.Concat(a, g) {
			c.Max = max(c.Max, p.Count)
		}
		c.Actual = stepPath(a, c.Max, maxTick)
		if s.Golden != nil {
			c.Golden = stepPath(g, c.Max, maxTick)
			c.Differs = c.Golden != c.Actual
		}
		if s.Failed() && s.Divergence >= minTick && s.Divergence <= maxTick {
			// The plot is 596 pixels wide from x=40 (page.html).
			c.Divergence = s.Divergence
			c.DivX = 40 + (s.Divergence-minTick)*596/c.Span
		}
		out = append(out, c)
	}
	return out
}

// stepPath draws a step function in tick units, y growing downwards from
// top (top = the curve's maximum): horizontal to each change, then
// vertical to its count, and on to the last tick.
func stepPath(pts []Point, top, last int64) string {
	if len(pts) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "M%d %d", pts[0].Tick, top-pts[0].Count)
	for _, p := range pts[1:] {
		fmt.Fprintf(&b, "H%d V%d", p.Tick, top-p.Count)
	}
	b.WriteString("H" + strconv.FormatInt(last, 10))
	return b.String()
}

// claimView is one claim's variant tree and its contests.
type claimView struct {
	ID, Kind      string
	Section       string // the section's name, for links
	Tick          int64
	Roots         []*variantNode
	Supersessions []supersessionView
}

// supersessionView is one contest with what it did to the winner: the
// contested-claim dent, read from the variant-resolution evaluation of
// the same tick and holder (nil when that record is not embedded).
type supersessionView struct {
	Supersession
	Dent *Dent
}

type variantNode struct {
	Variant
	Section string // the section's name, for links to ticks
	Slots   string // "actor=player, item=sweetroll" (v0 only)
	Diff    string // "item: sweetroll → apple"
	// Made is the record that made the variant (Makers), which its slot
	// diff links; nil when it is not embedded.
	Made *State
	Won  int // contests it won
	Lost int
	// WonAt and LostAt are the ticks of those contests, space-separated,
	// for the page's script to count the ones up to the current tick.
	WonAt, LostAt string
	Children      []*variantNode
}

// claimViews is the variant tree of a lineage: the run's (own: its
// variants link the records that made them, its contests their dents,
// both in the run's embedded feed) or its golden's, which has neither.
func claimViews(s *Section, l *lineage.Lineage, own bool) []claimView {
	var out []claimView
	made := map[string]Maker{}
	if own {
		for _, m := range s.Makers() {
			made[m.Variant] = m
		}
	}
	for _, c := range l.Claims {
		cv := claimView{ID: c.ID, Kind: c.Kind, Section: s.Name, Tick: c.Tick}
		for _, x := range c.Supersessions {
			sv := supersessionView{Supersession: x}
			if d, ok := s.Dents[dentKey(x.Tick, x.Holder+"/"+c.ID)]; ok && own {
				sv.Dent = &d
			}
			cv.Supersessions = append(cv.Supersessions, sv)
		}
		nodes := map[string]*variantNode{}
		for _, v := range c.Variants {
			n := &variantNode{Variant: v, Section: s.Name}
			if m, ok := made[v.ID]; ok {
				n.Made = &State{Name: s.Name, Tick: m.Tick, Target: Target{Kind: "trace", Value: strconv.FormatInt(m.Seq, 10)}}
			}
			if v.Predecessor == "" {
				var slots []string
				for _, sl := range v.Slots {
					slots = append(slots, sl.Name+"="+sl.Value)
				}
				n.Slots = strings.Join(slots, ", ")
			}
			var diff []string
			for _, d := range v.Diff {
				diff = append(diff, d.Slot+": "+d.From+" → "+d.To)
			}
			n.Diff = strings.Join(diff, ", ")
			var won, lost []string
			for _, x := range c.Supersessions {
				if x.Winner == v.ID {
					n.Won++
					won = append(won, strconv.FormatInt(x.Tick, 10))
				}
				if x.Loser == v.ID {
					n.Lost++
					lost = append(lost, strconv.FormatInt(x.Tick, 10))
				}
			}
			n.WonAt, n.LostAt = strings.Join(won, " "), strings.Join(lost, " ")
			nodes[v.ID] = n
			if p, ok := nodes[v.Predecessor]; ok {
				p.Children = append(p.Children, n)
			} else {
				cv.Roots = append(cv.Roots, n)
			}
		}
		out = append(out, cv)
	}
	return out
}

// mib spells a byte count in mebibytes, for the budget's notes.
func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
