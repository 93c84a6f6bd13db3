package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/sim/canon"
)

// Defines holds every coefficient the engine reads. Field order is part of
// the contract: DefinesHash serialises the fields in declaration order, so
// reordering them changes every committed defines_hash (input drift, never a
// failure, but noise in every report). Append new defines at the end of
// their tier's group.
//
// Each field's `define` tag is its name in YAML fixtures and in the hash;
// `range` is the interval of values Validate accepts for it alone, in
// interval notation ("[0,1]", "(0,)" for positive, "[1,)"), which the
// fixture schema states and a spec holds to Validate (how defines relate
// to each other, forgotten_gist ≤ dormant_gist, is Validate's alone);
// `doc` is the one-line meaning printed by docs and error messages;
// `layer` is the layer it belongs to (see Layer): the hash of a world
// covers the defines of the layers it uses, and only those.
type Defines struct {
	// Time.
	TicksPerDay int64 `define:"ticks_per_day" layer:"core" range:"[1,)" doc:"ticks in one game day (one tick is one game hour)"`

	// Tier 0: witnessing, memory, corroboration.
	WitnessConfidence     float64 `define:"witness_confidence" layer:"core" range:"[0,1]" doc:"confidence of a belief formed by direct observation (the direct-observation baseline)"`
	VerbatimHalfLifeTicks float64 `define:"verbatim_half_life_ticks" layer:"core" range:"(0,)" doc:"ticks for verbatim strength to halve (fast: surface detail fades)"`
	GistHalfLifeTicks     float64 `define:"gist_half_life_ticks" layer:"core" range:"(0,)" doc:"ticks for gist strength to halve (slow: the meaning stays)"`
	DormantGist           float64 `define:"dormant_gist" layer:"core" range:"[0,1]" doc:"gist strength below which a held rumour is dormant"`
	ForgottenGist         float64 `define:"forgotten_gist" layer:"core" range:"[0,1]" doc:"gist strength below which a held rumour is forgotten"`
	CorroborationWindow   int64   `define:"corroboration_window_ticks" layer:"core" range:"[0,)" doc:"a report about an event older than this many ticks is stale and cannot raise confidence"`

	// Tier 1: encounters and testimony.
	EncounterProbability float64 `define:"encounter_probability" layer:"core" range:"[0,1]" doc:"chance that a co-present pair meets in one tick"`
	RetellDecay          float64 `define:"retell_decay" layer:"core" range:"[0,1]" doc:"factor applied to the teller's confidence when testimony is passed on"`
	TrustFloor           float64 `define:"trust_floor" layer:"core" range:"[0,1]" doc:"trust-discounted retelling: the discount factor when the listener does not trust the teller at all"`
	DefaultTrust         float64 `define:"default_trust" layer:"core" range:"[0,1]" doc:"trust-discounted retelling: trust assumed between NPCs with no relationship"`

	// Tier 2: mutation and variant conflict.
	MutationMax   float64 `define:"mutation_max" layer:"core" range:"[0,1]" doc:"chance a retelling mutates a slot when the teller's verbatim memory is gone; scaled by 1 − verbatim"`
	ContestedDent float64 `define:"contested_dent" layer:"core" range:"[0,1]" doc:"fraction of confidence a belief loses when it is contested by another variant"`

	// Tier 3, the social layer: grudges (decision 0016).
	GrudgeEmotionalHalfLifeTicks   float64 `define:"grudge_emotional_half_life_ticks" layer:"social" range:"(0,)" doc:"ticks for a grudge's emotional strength to halve (slower than a rumour's gist: a grudge outlives the gossip)"`
	GrudgeEvidentiaryHalfLifeTicks float64 `define:"grudge_evidentiary_half_life_ticks" layer:"social" range:"(0,)" doc:"ticks for a grudge's evidentiary strength to halve (shorter than emotional: more felt than proven)"`
	GrudgeHumiliation              float64 `define:"grudge_humiliation" layer:"social" range:"[0,1]" doc:"emotional strength of a grudge for a brawl lost with nobody watching"`
	GrudgeAudienceWeight           float64 `define:"grudge_audience_weight" layer:"social" range:"[0,1]" doc:"emotional strength each onlooker adds to a brawl-loss grudge (capped at 1)"`
	GrudgeRefusal                  float64 `define:"grudge_refusal" layer:"social" range:"[0,1]" doc:"emotional strength of a grudge for a refused favour"`
	GrudgeBereavement              float64 `define:"grudge_bereavement" layer:"social" range:"[0,1]" doc:"emotional strength of a grudge against the killer of kin"`
	GrudgeEvidenceWeight           float64 `define:"grudge_evidence_weight" layer:"social" range:"[0,1]" doc:"evidentiary strength of a new grudge per unit of the holder's confidence in its cause"`
	GrudgeSettled                  float64 `define:"grudge_settled" layer:"social" range:"[0,1]" doc:"total grudge strength (emotional + evidentiary) below which a grudge is settled and no longer acts"`

	// Tier 3: observer-local reputation (decision 0017).
	ReputationPriorAlpha float64 `define:"reputation_prior_alpha" layer:"social" range:"(0,)" doc:"α of the Beta prior every observer's opinion starts from"`
	ReputationPriorBeta  float64 `define:"reputation_prior_beta" layer:"social" range:"(0,)" doc:"β of the Beta prior every observer's opinion starts from"`
	ReputationWeight     float64 `define:"reputation_weight" layer:"social" range:"(0,)" doc:"what one believed claim adds to α (evidence for) or β (evidence against)"`

	// Tier 3: serial offences (decision 0018).
	EscalationThreshold   int64 `define:"escalation_threshold" layer:"social" range:"[1,)" doc:"believed offences by one offender, within the window, at which a victim escalates"`
	EscalationRearm       int64 `define:"escalation_rearm" layer:"social" range:"[0,)" doc:"count at or below which a fired accumulator re-arms (hysteresis)"`
	EscalationWindowTicks int64 `define:"escalation_window_ticks" layer:"social" range:"[0,)" doc:"an offence whose event is older than this many ticks no longer counts"`

	// Tier 4a: schedule write-back (decision 0020).
	MourningTicks int64 `define:"mourning_ticks" layer:"schedule" range:"[1,)" doc:"ticks a mourner spends at the temple of its hold, from the tick after it comes to believe the killing of kin"`

	// Tier 4b: pair weighting (decision 0021).
	AvoidanceStrength float64 `define:"avoidance_strength" layer:"weighting" range:"[0,)" doc:"how far a grudge's total strength g lowers a pair's encounter weight: w = max(0, 1 − avoidance_strength × g)"`

	// Tier 5: roles and succession (decision 0022).
	SuccessionDelayTicks int64   `define:"succession_delay_ticks" layer:"roles" range:"[0,)" doc:"ticks from a role falling vacant to its successor's appointment"`
	SuccessionKinBonus   float64 `define:"succession_kin_bonus" layer:"roles" range:"[0,1]" doc:"what kinship with the previous holder adds to a candidate's succession score"`
}

// Default returns the engine's baseline coefficients. Where the seed spec
// gives a number (retell decay 0.8, encounter probability 0.5) it is used;
// the others are decisions recorded in docs/decisions.
func Default() Defines {
	return Defines{
		TicksPerDay:           24,
		WitnessConfidence:     0.9,
		VerbatimHalfLifeTicks: 72,
		GistHalfLifeTicks:     960,
		DormantGist:           0.5,
		ForgottenGist:         0.125,
		CorroborationWindow:   720,
		EncounterProbability:  0.5,
		RetellDecay:           0.8,
		TrustFloor:            0.5,
		DefaultTrust:          0.5,
		MutationMax:           0.25,
		ContestedDent:         0.1,

		GrudgeEmotionalHalfLifeTicks:   2880,
		GrudgeEvidentiaryHalfLifeTicks: 1920,
		GrudgeHumiliation:              0.5,
		GrudgeAudienceWeight:           0.05,
		GrudgeRefusal:                  0.4,
		GrudgeBereavement:              1,
		GrudgeEvidenceWeight:           0.5,
		GrudgeSettled:                  0.05,
		ReputationPriorAlpha:           1,
		ReputationPriorBeta:            1,
		ReputationWeight:               1,
		EscalationThreshold:            4,
		EscalationRearm:                2,
		EscalationWindowTicks:          720,

		MourningTicks:        72,
		AvoidanceStrength:    1,
		SuccessionDelayTicks: 24,
		SuccessionKinBonus:   0.25,
	}
}

// DefineKind says whether a define is an integer or a float; YAML overrides
// must match it (an int define given 1.5 is an error, a float define given 2
// is 2.0).
type DefineKind int

const (
	IntDefine DefineKind = iota + 1
	FloatDefine
)

// Field describes one define for loaders and documentation.
type Field struct {
	Name  string
	Kind  DefineKind
	Layer Layer
	Doc   string
	Range Range
}

// Range is the interval of values a define may take on its own: from Min
// (excluded when MinOpen) up to Max, which is +Inf when unbounded. Every
// float define must also be finite.
type Range struct {
	Min     float64
	MinOpen bool
	Max     float64
}

// parseRange reads a range tag: "[lo,hi]", "[lo,)" or "(lo,)".
func parseRange(tag string) (Range, error) {
	if len(tag) < 4 || (tag[0] != '[' && tag[0] != '(') {
		return Range{}, fmt.Errorf("range %q: want [lo,hi], [lo,) or (lo,)", tag)
	}
	lo, hi, ok := strings.Cut(tag[1:len(tag)-1], ",")
	r := Range{MinOpen: tag[0] == '(', Max: math.Inf(1)}
	var err error
	if r.Min, err = strconv.ParseFloat(lo, 64); err != nil || !ok {
		return Range{}, fmt.Errorf("range %q: want a lower bound", tag)
	}
	switch {
	case hi == "" && tag[len(tag)-1] == ')':
	case hi != "" && tag[len(tag)-1] == ']':
		if r.Max, err = strconv.ParseFloat(hi, 64); err != nil {
			return Range{}, fmt.Errorf("range %q: %w", tag, err)
		}
	default:
		return Range{}, fmt.Errorf("range %q: want [lo,hi], [lo,) or (lo,)", tag)
	}
	return r, nil
}

// Fields lists every define in declaration order.
func Fields() []Field {
	t := reflect.TypeFor[Defines]()
	out := make([]Field, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		kind := FloatDefine
		if f.Type.Kind() == reflect.Int64 {
			kind = IntDefine
		}
		layer, ok := ParseLayer(f.Tag.Get("layer"))
		if !ok {
			panic(fmt.Sprintf("rules: define %s has no known layer tag", f.Name))
		}
		r, err := parseRange(f.Tag.Get("range"))
		if err != nil {
			panic(fmt.Sprintf("rules: define %s: %v", f.Name, err))
		}
		out = append(out, Field{Name: f.Tag.Get("define"), Kind: kind, Layer: layer, Doc: f.Tag.Get("doc"), Range: r})
	}
	return out
}

// Lookup returns the named define's metadata.
func Lookup(name string) (Field, bool) {
	for _, f := range Fields() {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

func (d *Defines) field(name string) (reflect.Value, error) {
	v := reflect.ValueOf(d).Elem()
	t := v.Type()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("define") == name {
			return v.Field(i), nil
		}
	}
	return reflect.Value{}, fmt.Errorf("unknown define %q", name)
}

// SetInt overrides an integer define.
func (d *Defines) SetInt(name string, v int64) error {
	f, err := d.field(name)
	if err != nil {
		return err
	}
	if f.Kind() != reflect.Int64 {
		return fmt.Errorf("define %q is a float; give it a float value", name)
	}
	f.SetInt(v)
	return nil
}

// SetFloat overrides a float define. NaN and infinities are rejected: a
// coefficient that is not a number would poison every derived value.
func (d *Defines) SetFloat(name string, v float64) error {
	f, err := d.field(name)
	if err != nil {
		return err
	}
	if f.Kind() != reflect.Float64 {
		return fmt.Errorf("define %q is an integer; give it an integer value", name)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("define %q: %v is not a finite number", name, v)
	}
	f.SetFloat(v)
	return nil
}

// Value returns a define by name as a float64 (integers convert exactly up
// to 2^53), for expressions such as `defines.retell_decay` in fixtures.
func (d Defines) Value(name string) (float64, bool) {
	f, err := d.field(name)
	if err != nil {
		return 0, false
	}
	if f.Kind() == reflect.Int64 {
		return float64(f.Int()), true
	}
	return f.Float(), true
}

// Validate checks the invariants the engine relies on, naming every broken
// define in one error: each define within the range its tag declares (the
// same table the fixture schema states, so the two cannot disagree), every
// float finite, and the relations between defines that no single range
// can say.
func (d Defines) Validate() error {
	var problems []string
	for _, f := range Fields() {
		v, _ := d.Value(f.Name)
		if msg := f.Range.refuses(f.Kind, v); msg != "" {
			problems = append(problems, fmt.Sprintf("%s = %s %s", f.Name, f.format(v), msg))
		}
	}
	if d.ForgottenGist > d.DormantGist {
		problems = append(problems, "forgotten_gist must not exceed dormant_gist (a rumour goes dormant before it is forgotten)")
	}
	if d.EscalationRearm >= d.EscalationThreshold {
		problems = append(problems, fmt.Sprintf("escalation_rearm = %d must be within [0, escalation_threshold) (an accumulator re-arms below the count that fires it)", d.EscalationRearm))
	}
	if len(problems) > 0 {
		return fmt.Errorf("invalid defines: %s", strings.Join(problems, "; "))
	}
	return nil
}

// refuses says why v lies outside the range, "" when it does not. Each
// test is written so that NaN fails it; an integer define is finite by
// its type, so its message leaves finiteness out.
func (r Range) refuses(kind DefineKind, v float64) string {
	lo := strconv.FormatFloat(r.Min, 'f', -1, 64)
	finite := " and finite"
	if kind == IntDefine {
		finite = ""
	}
	switch {
	case !math.IsInf(r.Max, 1) && !(v >= r.Min && v <= r.Max):
		return fmt.Sprintf("must be within [%s, %s]", lo, strconv.FormatFloat(r.Max, 'f', -1, 64))
	case r.MinOpen && !(v > r.Min && !math.IsInf(v, 1)):
		return "must be above " + lo + finite
	case !r.MinOpen && !(v >= r.Min && !math.IsInf(v, 1)):
		return "must be at least " + lo + finite
	}
	return ""
}

// format spells a define's value as an error message quotes it: an
// integer as one.
func (f Field) format(v float64) string {
	if f.Kind == IntDefine {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return canon.FormatFloat(v)
}

// Canonical returns the defines of the given layers as a
// declaration-ordered canonical JSON object: the bytes DefinesHash
// digests. A define of a layer the set does not hold is left out, so a
// world that cannot exercise a layer is not fingerprinted by it.
func (d Defines) Canonical(layers Layers) canon.Ordered {
	v := reflect.ValueOf(d)
	t := v.Type()
	fields := Fields()
	out := make(canon.Ordered, 0, t.NumField())
	for i := range t.NumField() {
		if !layers.Has(fields[i].Layer) {
			continue
		}
		var val any
		if t.Field(i).Type.Kind() == reflect.Int64 {
			val = v.Field(i).Int()
		} else {
			val = v.Field(i).Float()
		}
		out = append(out, canon.Field{Key: t.Field(i).Tag.Get("define"), Value: val})
	}
	return out
}

// Hash returns defines_hash for a world using the given layers: the first
// 16 hex digits of SHA-256 over the compact, declaration-ordered JSON of
// the defines of those layers, floats in their shortest round-trip (Python
// repr) form. A core-only world's hash is the one it had before any later
// layer existed. See HashJSON for the scheme on any object.
func (d Defines) Hash(layers Layers) (string, error) {
	return HashJSON(d.Canonical(layers))
}

// HashJSON applies the defines_hash scheme to any canonical value. It is
// exported so the scheme can be checked against the published vector
// {"gravity":9.8,"friction":0.5} → 1c365e6efa6e2c4a.
func HashJSON(v any) (string, error) {
	b, err := canon.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("hash defines: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8]), nil
}
