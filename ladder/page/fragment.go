package page

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// File is where every ladder run writes the page, relative to the
// repository root.
const File = "reports/index.html"

// Link returns the deep link to a rung (or case) scrolled to a tick, e.g.
// "reports/index.html#T2.1@44", for failure messages to end with. A
// negative tick links to the rung alone.
func Link(name string, tick int64) string {
	return File + "#" + Fragment(name, tick)
}

// LinkTo is Link opened at one thing of the tick: an NPC, a belief, a
// trace record or a social record (Target), e.g.
// "reports/index.html#T3.2@40/belief=torvar:brawl@0". A target needs a
// tick: with a negative tick, or an empty target, it is Link.
func LinkTo(name string, tick int64, t Target) string {
	return File + "#" + FragmentTo(name, tick, t)
}

// Target is the one thing a deep link opens at its tick: Kind is one of
// Targets, Value what it names.
//
//	npc=torvar              the NPC's belief rows, and its dot on the map
//	belief=torvar:brawl@0   the (holder, claim) row of the belief table
//	trace=53                the trace record with seq 53, in the feed
//	social=grudge/jon/player the social-state row of a block and key
//	whynot=merchant:theft@9 why the NPC does not hold the claim at the tick
type Target struct {
	Kind, Value string
}

// Targets are the kinds of thing a fragment can open.
var Targets = []string{"npc", "belief", "trace", "social", "whynot"}

// IsZero reports whether the target names nothing.
func (t Target) IsZero() bool { return t.Kind == "" }

// NPCTarget, BeliefTarget, TraceTarget, SocialTarget and WhyNotTarget
// make the targets of each kind.
func NPCTarget(npc string) Target { return Target{"npc", npc} }

func BeliefTarget(holder, claim string) Target { return Target{"belief", holder + ":" + claim} }

func TraceTarget(seq int64) Target { return Target{"trace", strconv.FormatInt(seq, 10)} }

func SocialTarget(block, key string) Target { return Target{"social", block + "/" + key} }

func WhyNotTarget(npc, claim string) Target { return Target{"whynot", npc + ":" + claim} }

// Fragment returns the URL fragment (without "#") that holds the page's
// state: the rung's name, and "@tick" when tick is not negative. Bytes
// outside [A-Za-z0-9._~/-] are percent-encoded, so a name can never be
// mistaken for the tick separator.
func Fragment(name string, tick int64) string {
	return FragmentTo(name, tick, Target{})
}

// FragmentTo is Fragment with a target after the tick: "/kind=value",
// the value's bytes outside [A-Za-z0-9._~:@-] percent-encoded (so a "/"
// in it cannot end it).
func FragmentTo(name string, tick int64, t Target) string {
	var b strings.Builder
	escape(&b, name, plainName)
	if tick >= 0 {
		b.WriteByte('@')
		b.WriteString(strconv.FormatInt(tick, 10))
		if !t.IsZero() {
			b.WriteString("/" + t.Kind + "=")
			escape(&b, t.Value, plainValue)
		}
	}
	return b.String()
}

func escape(b *strings.Builder, s string, plain func(byte) bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if plain(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(b, "%%%02X", c)
		}
	}
}

func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func plainName(c byte) bool {
	return alnum(c) || c == '.' || c == '_' || c == '~' || c == '/' || c == '-'
}

func plainValue(c byte) bool {
	return alnum(c) || c == '.' || c == '_' || c == '~' || c == ':' || c == '@' || c == '-'
}

// State is what a fragment says: which section, which tick (-1 when the
// fragment names no tick), and what to open there (zero when nothing).
type State struct {
	Name   string
	Tick   int64
	Target Target
}

// ParseFragment reads a fragment written by Fragment or FragmentTo, with
// or without its leading "#". The page's script reads fragments by the
// same rules: a name never holds a raw "@", so the tick follows the
// first "@"; after its digits may come "/kind=value"; name and value are
// percent-decoded.
func ParseFragment(s string) (State, error) {
	s = strings.TrimPrefix(s, "#")
	st := State{Name: s, Tick: -1}
	if i := strings.IndexByte(s, '@'); i >= 0 {
		rest := s[i+1:]
		digits, target, hasTarget := strings.Cut(rest, "/")
		t, err := strconv.ParseInt(digits, 10, 64)
		if err != nil || digits == "" || digits[0] < '0' || digits[0] > '9' {
			return State{}, fmt.Errorf("fragment %q: tick %q is not a non-negative integer", s, digits)
		}
		st.Name, st.Tick = s[:i], t
		if hasTarget {
			kind, value, ok := strings.Cut(target, "=")
			if !ok || !slices.Contains(Targets, kind) {
				return State{}, fmt.Errorf("fragment %q: %q is not kind=value with a kind of %s", s, target, strings.Join(Targets, ", "))
			}
			v, err := unescape(value)
			if err != nil {
				return State{}, fmt.Errorf("fragment %q: %w", s, err)
			}
			if v == "" {
				return State{}, fmt.Errorf("fragment %q: %s names nothing", s, kind)
			}
			st.Target = Target{Kind: kind, Value: v}
		}
	}
	name, err := unescape(st.Name)
	if err != nil {
		return State{}, fmt.Errorf("fragment %q: %w", s, err)
	}
	if name == "" {
		return State{}, fmt.Errorf("fragment %q names no rung", s)
	}
	st.Name = name
	return st, nil
}

func unescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("truncated escape at byte %d", i)
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", fmt.Errorf("bad escape %q at byte %d", s[i:i+3], i)
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), nil
}
