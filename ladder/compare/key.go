package compare

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Key is a roll's key as a trace writes it, without the seed:
// purpose@tick/site/[participants]. Ids never hold '/', ',', '[' or ']'
// (the fixture loader refuses them), so the text splits one way only.
type Key struct {
	Purpose      string
	Tick         int64
	Site         string
	Participants []string
}

// ParseKey splits a key such as "encounter@12/whiterun_market/[neighbor,witness]".
// The site may be empty; the participant list may be empty ("[]").
func ParseKey(s string) (Key, error) {
	purpose, rest, ok := strings.Cut(s, "@")
	if !ok || purpose == "" {
		return Key{}, fmt.Errorf("roll key %q: want purpose@tick/site/[participants]", s)
	}
	tickText, rest, ok := strings.Cut(rest, "/")
	if !ok {
		return Key{}, fmt.Errorf("roll key %q: no site after the tick", s)
	}
	tick, err := strconv.ParseInt(tickText, 10, 64)
	if err != nil || tick < 0 || tickText != strconv.FormatInt(tick, 10) {
		return Key{}, fmt.Errorf("roll key %q: tick %q is not a tick", s, tickText)
	}
	site, list, ok := strings.Cut(rest, "/")
	if !ok || !strings.HasPrefix(list, "[") || !strings.HasSuffix(list, "]") {
		return Key{}, fmt.Errorf("roll key %q: want the participants as [a,b] after the site", s)
	}
	k := Key{Purpose: purpose, Tick: tick, Site: site}
	if inner := list[1 : len(list)-1]; inner != "" {
		k.Participants = strings.Split(inner, ",")
	}
	for _, p := range k.Participants {
		if p == "" || strings.ContainsAny(p, "[]/") {
			return Key{}, fmt.Errorf("roll key %q: participant %q is not an id", s, p)
		}
	}
	if strings.ContainsAny(site, "[],") {
		return Key{}, fmt.Errorf("roll key %q: site %q is not an id", s, site)
	}
	return k, nil
}

// String writes the key back in trace form; ParseKey(k.String()) is k.
func (k Key) String() string {
	return fmt.Sprintf("%s@%d/%s/[%s]", k.Purpose, k.Tick, k.Site, strings.Join(k.Participants, ","))
}

// Involves reports whether npc is one of the key's participants.
func (k Key) Involves(npc string) bool { return slices.Contains(k.Participants, npc) }
