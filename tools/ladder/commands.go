package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
)

// command is one subcommand of the tool: the table below is the one
// place it is described, and `ladder help`, `ladder help CMD` and
// docs/cli.md are made from it. A command's flags are its own FlagSet's,
// printed by running it with -h, so they cannot drift from what it parses.
type command struct {
	Name    string
	Usage   string // the arguments after the name
	Summary string // one line: what it does
	// Flags is false for a command that parses no flags (its -h would be
	// an argument).
	Flags    bool
	Examples []string
	Run      func(args []string, stdout, stderr io.Writer) error
}

// commands is every subcommand, in the order help lists them: running
// and regenerating, triage of one run, review of a change, the
// explorer, and the plumbing CI and git call.
var commands = []command{
	{Name: "check", Usage: "[fixture.yaml ...]", Summary: "validate fixtures (all of fixtures/ when none is named), printing what a run of each costs; exit 1 on any error",
		Examples: []string{"go run ./tools/ladder check fixtures/T1.1-tell.yaml"},
		Run:      func(a []string, o, _ io.Writer) error { return check(a, o) }},
	{Name: "goldens", Usage: "[-rung R] [-reason \"…\"] [-finish | -abandon]", Flags: true,
		Summary:  "regenerate goldens after proving determinism in two orders (make goldens); -reason (REASON=) is required when a set changes",
		Examples: []string{"make goldens RUNG=T2.3 REASON=\"why\"", "go run ./tools/ladder goldens -rung T2.3/swapped -reason \"why\""},
		Run:      goldens},
	{Name: "render", Usage: "-out DIR [-rung R] [-exact]", Flags: true, Summary: "write a rendering laid out like goldens/ (one process of the determinism proof)",
		Run: func(a []string, _, e io.Writer) error { return render(a, e) }},
	{Name: "explain", Usage: "-rung R -at T -holder NPC -claim C [-reports DIR | -golden | -golden-at COMMIT | -rerun]", Flags: true, Summary: "a belief's provenance as of a tick, from the run's trace and dense file",
		Examples: []string{"go run ./tools/ladder explain -rung T1.1 -holder neighbor -claim theft@2 -at 12"}, Run: explain},
	{Name: "why-not", Usage: "-rung R -npc X -claim C [-at T] [-reports DIR | -golden | -golden-at COMMIT] [-json]", Flags: true,
		Summary:  "why an NPC does not hold a claim at a tick (or why it does), from a run's written files",
		Examples: []string{"go run ./tools/ladder why-not -rung T2.7 -npc m1 -claim theft@9 -at 100"}, Run: whyNot},
	{Name: "compare", Usage: "[-n N | -all] A B", Flags: true,
		Summary:  "two runs aligned by roll key: value, threshold and control-flow drift, the first divergent roll, belief set and dense cell",
		Examples: []string{"go run ./tools/ladder compare T2.3 T2.3/swapped"}, Run: compare},
	{Name: "curve", Usage: "-rung R -claim C [-format yaml|csv] [-reports DIR | -golden | -golden-at COMMIT | -rerun]", Flags: true,
		Summary:  "a claim's believer curve, as a curve: expectation or as CSV, from the run's dense.csv (reports/<R>/ unless told)",
		Examples: []string{"go run ./tools/ladder curve -rung T2.1 -claim theft@10"}, Run: curve},
	{Name: "rules", Usage: "-rung R [-fired=false] [-rule NAME] [-reports DIR | -golden | -golden-at COMMIT | -rerun]", Flags: true,
		Summary:  "the rule-firing log: every evaluation, declined ones with their values, from the run's trace.jsonl (reports/<R>/ unless told)",
		Examples: []string{"go run ./tools/ladder rules -rung T3.1 -fired=false", "go run ./tools/ladder rules -rung T3.1 -golden-at HEAD~3"}, Run: rulesLog},
	{Name: "diff", Usage: "-rung R -from T [-to T] [-reports DIR | -golden | -golden-at COMMIT | -rerun]", Flags: true,
		Summary:  "every social-state change between two ticks, with its rule and its cause, from the run's trace.jsonl (reports/<R>/ unless told)",
		Examples: []string{"go run ./tools/ladder diff -rung T3.3 -from 10 -to 30", "go run ./tools/ladder diff -rung T3.3 -from 10 -reports ~/Downloads/ladder-reports"}, Run: socialDiff},
	{Name: "schedule", Usage: "-rung R -npc X [-reports DIR | -golden | -golden-at COMMIT | -rerun]", Flags: true,
		Summary:  "an NPC's base and effective schedule side by side, and the events that rewrote it, from the run's dense.csv and trace.jsonl (reports/<R>/ unless told)",
		Examples: []string{"go run ./tools/ladder schedule -rung T4a.1 -npc frida -golden"}, Run: scheduleView},
	{Name: "role", Usage: "-rung R [-at T] [-role ID] [-reports DIR | -golden | -golden-at COMMIT | -rerun]", Flags: true,
		Summary:  "every role as of a tick: holder or vacancy, duties, references, the events so far, from the run's dense.csv and trace.jsonl (reports/<R>/ unless told)",
		Examples: []string{"go run ./tools/ladder role -rung T5.1 -at 20", "go run ./tools/ladder role -rung T5.1 -at 20 -rerun"}, Run: roleView},
	{Name: "fear", Usage: "-rung R [-at T] [-location L] [-reports DIR | -golden | -golden-at COMMIT | -rerun]", Flags: true,
		Summary:  "collective fear per place as of a tick, recomputed within regime 3, with the beliefs behind it, from the run's dense.csv and trace.jsonl (reports/<R>/ unless told)",
		Examples: []string{"go run ./tools/ladder fear -rung T6 -at 120", "go run ./tools/ladder fear -rung T6 -at 120 -golden"}, Run: fearView},
	{Name: "state", Usage: "-rung R [-at T] [-reports DIR | -golden | -golden-at COMMIT | -rerun]", Flags: true,
		Summary:  "the canonical engine state at a tick (its digest on stderr), from a re-run that reaches every state digest the run recorded (reports/<R>/ unless told) up to the tick, or refused",
		Examples: []string{"go run ./tools/ladder state -rung T0.3 -at 10", "go run ./tools/ladder state -rung T0.3 -at 10 -rerun"}, Run: state},
	{Name: "audit", Usage: "[-lenient] [-full] [R ...]", Flags: true, Summary: "regime 2's invariant audit: what each invariant examined, every finding with its grade",
		Examples: []string{"go run ./tools/ladder audit -lenient T2.1"}, Run: auditRuns},
	{Name: "verify", Usage: "[-golden] [R ...]", Flags: true,
		Summary:  "replay runs from reports/<R>/events.jsonl: the engine must append exactly the logged records and reach the recorded digests (make verify)",
		Examples: []string{"make verify RUNG=T2.1"}, Run: verify},
	{Name: "coverage", Usage: "[-unreached] [-rule NAME]", Flags: true, Summary: "every rule's regimes with the runs of the last make ladder that reached each",
		Examples: []string{"go run ./tools/ladder coverage -unreached"}, Run: coverageTable},
	{Name: "page", Usage: "[-compare A,B]...", Flags: true, Summary: "rebuild reports/index.html from the last ladder run, running nothing; -compare adds a run comparison",
		Examples: []string{"go run ./tools/ladder page -compare T4a.2,T4a.2/frozen"}, Run: pageCmd},
	{Name: "review", Usage: "[R ...]", Summary: "the pending changes the last run left: first divergence, columns, cells, ticks, trace records by kind",
		Examples: []string{"go run ./tools/ladder review"}, Run: func(a []string, o, _ io.Writer) error { return review(a, o) }},
	{Name: "accept", Usage: "[-reason \"…\"] R... | -all", Flags: true, Summary: "copy reviewed artifacts into goldens/, no rerun; -reason, recorded in the set's history, is required of a set that changes",
		Examples: []string{"go run ./tools/ladder accept -reason \"why\" T2.1"}, Run: accept},
	{Name: "reject", Usage: "R... | -all", Flags: true, Summary: "discard pending changes", Run: reject},
	{Name: "blame", Usage: "R -tick T (-column C | -record SEQ | -line N)", Flags: true,
		Summary:  "the commit that last changed a committed golden cell or trace record, with the reason its history recorded; git only",
		Examples: []string{"go run ./tools/ladder blame T2.1 -tick 44 -column theft@10/believers"}, Run: blame},
	{Name: "diff-golden", Usage: "[-run] R", Flags: true, Summary: "the dense change cell by cell, in runs", Examples: []string{"go run ./tools/ladder diff-golden T2.1"}, Run: diffGolden},
	{Name: "explore", Usage: "[-seed S | -seed-from-commit] [-time D | -worlds K] [-workers N] [-shard k/N] [-lanes N]", Flags: true,
		Summary:  "generate worlds nobody wrote, check every property on each, shrink a failure to a fixture and keep it; -replay FILE, -promote FILE RUNG[-SLUG]",
		Examples: []string{"make explore EXPLORE_SEED=1 EXPLORE_WORLDS=500", "go run ./tools/ladder explore -replay findings/F.yaml"}, Run: exploreCmd},
	{Name: "explore-merge", Usage: "[-out DIR] [-findings DIR] SHARD-OUT...", Flags: true,
		Summary: "join a campaign's explore -shard k/N outputs into what one exploration of their worlds in N lanes writes", Run: exploreMerge},
	{Name: "pilot", Usage: "[-seeds 200] R", Flags: true, Summary: "a sweep rung's pilot: each aggregate's mean and sd over seeds disjoint from the rung's, as its bounds", Run: pilot},
	{Name: "schema", Usage: "[-o FILE|-]", Flags: true, Summary: "regenerate docs/fixture.schema.json from the loader", Run: fixtureSchema},
	{Name: "shard", Usage: "[-rung R] k/N", Flags: true, Summary: "the label filter of part k of N (make ladder SHARD=k/N)", Run: shardFilter},
	{Name: "costs", Usage: "[-from FILE]", Flags: true, Summary: "refresh ladder/shard/costs.json from a run's report", Run: costs},
	{Name: "merge-reports", Usage: "-out DIR A B ...", Flags: true, Summary: "join shards' reports (junit, JSON, coverage, artifacts, pending changes, the page) into one", Run: mergeReports},
	{Name: "convert-trace", Usage: "[-expand] [-o OUT] trace.jsonl", Flags: true, Summary: "a version 1 or 2 trace in version 3, or with -expand a version-3 trace as version 2 spelt it", Run: convertTrace},
	{Name: "textconv", Usage: "dense.csv", Summary: "one line per cell: git's diff driver for dense goldens (git config diff.ladder-dense.textconv)",
		Run: func(a []string, o, _ io.Writer) error { return textconv(a, o) }},
	{Name: "help", Usage: "[CMD] [-markdown] [-o FILE]", Flags: true, Summary: "this list, one command's usage, flags and examples, or docs/cli.md (-markdown)"},
}

// help reads the table it is in, so it joins it once the table exists.
func init() {
	for i := range commands {
		if commands[i].Name == "help" {
			commands[i].Run = help
		}
	}
}

// lookup returns the command named name.
func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.Name == name {
			return c, true
		}
	}
	return command{}, false
}

func names() []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = c.Name
	}
	return out
}

// help prints the table, one command, or the table as Markdown for
// docs/cli.md.
func help(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("help", flag.ContinueOnError)
	fl.SetOutput(stderr)
	markdown := fl.Bool("markdown", false, "write docs/cli.md's text: every command with its usage, flags and examples")
	out := fl.String("o", "", "write to this file instead of standard output")
	if err := fl.Parse(args); err != nil {
		return err
	}
	var b bytes.Buffer
	switch {
	case *markdown:
		if err := writeMarkdown(&b); err != nil {
			return err
		}
	case fl.NArg() == 1:
		c, ok := lookup(fl.Arg(0))
		if !ok {
			return fmt.Errorf("help: unknown command %q (commands: %s)", fl.Arg(0), strings.Join(names(), ", "))
		}
		fmt.Fprintf(&b, "usage: go run ./tools/ladder %s %s\n\n%s\n", c.Name, c.Usage, c.Summary)
		if fs := flagsOf(c); fs != "" {
			fmt.Fprintf(&b, "\nflags:\n%s", fs)
		}
		if len(c.Examples) > 0 {
			fmt.Fprintf(&b, "\nexamples:\n")
			for _, e := range c.Examples {
				fmt.Fprintf(&b, "  %s\n", e)
			}
		}
	case fl.NArg() == 0:
		fmt.Fprintf(&b, "usage: go run ./tools/ladder <command> [flags]  (`make ladder` is the CI gate; this tool is everything around it)\n\n")
		for _, c := range commands {
			fmt.Fprintf(&b, "  %-14s %s\n", c.Name, c.Summary)
		}
		fmt.Fprintf(&b, "\n`go run ./tools/ladder help CMD` gives a command's flags and examples; docs/cli.md has them all.\n")
	default:
		return errors.New("usage: ladder help [CMD] [-markdown] [-o FILE]")
	}
	if *out != "" {
		return artifact.Write(*out, b.Bytes()) // whole or not at all: docs/cli.md is committed
	}
	_, err := stdout.Write(b.Bytes())
	return err
}

// flagsOf runs a command with -h, which its FlagSet answers by printing
// its flags and returning flag.ErrHelp, and returns what it printed.
func flagsOf(c command) string {
	if !c.Flags {
		return ""
	}
	var out, errb bytes.Buffer
	if err := c.Run([]string{"-h"}, &out, &errb); !errors.Is(err, flag.ErrHelp) {
		return ""
	}
	// The FlagSet's own first line ("Usage of x:") is the table's usage.
	text := errb.String()
	if i := strings.IndexByte(text, '\n'); i >= 0 && strings.HasPrefix(text, "Usage of ") {
		text = text[i+1:]
	}
	return text
}

// writeMarkdown writes docs/cli.md: generated, and held to the table by a
// spec.
func writeMarkdown(w io.Writer) error {
	var b bytes.Buffer
	b.WriteString("# The command line: `go run ./tools/ladder`\n\n")
	b.WriteString("<!-- Generated from tools/ladder/commands.go by `go run ./tools/ladder help -markdown -o docs/cli.md`; a spec fails when it is stale. -->\n\n")
	b.WriteString("`make ladder` is the CI gate and `make test` runs everything; this tool is everything around them: triage of one run, review and\n")
	b.WriteString("acceptance of a change, regeneration, the explorer, and the plumbing CI and git call. Run it from the repository root.\n\n")
	b.WriteString("| command | what it does |\n| --- | --- |\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", c.Name, c.Name, strings.ReplaceAll(c.Summary, "|", "\\|"))
	}
	for _, c := range commands {
		fmt.Fprintf(&b, "\n## %s\n\n```\ngo run ./tools/ladder %s %s\n```\n\n%s\n", c.Name, c.Name, c.Usage, upper(c.Summary)+".")
		if fs := flagsOf(c); fs != "" {
			fmt.Fprintf(&b, "\n```\n%s```\n", fs)
		}
		if len(c.Examples) > 0 {
			b.WriteString("\nFor example:\n\n```sh\n")
			for _, e := range c.Examples {
				b.WriteString(e + "\n")
			}
			b.WriteString("```\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
