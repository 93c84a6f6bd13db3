package expr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle/ladder/sim/rules"
)

// SyntaxError is a malformed or ill-typed expression; Offset is the 0-based
// byte offset in the source where the problem starts.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("at offset %d: %s", e.Offset, e.Msg) }

// RefKind says what an id in an expression names.
type RefKind string

const (
	NPCRef   RefKind = "npc"
	ClaimRef RefKind = "claim"
	// EntityRef is an NPC or the player (a grudge's target, a reputation's
	// subject).
	EntityRef RefKind = "entity"
	// DimensionRef is a reputation dimension (standing, reliability).
	DimensionRef RefKind = "dimension"
)

// Ref is an id an expression mentions, for the fixture loader to check
// against the cast and the events.
type Ref struct {
	Kind   RefKind
	Name   string
	Offset int
}

// Expr is a parsed expression.
type Expr struct {
	src  string
	root node
	refs []Ref
}

// String returns the source text.
func (e *Expr) String() string { return e.src }

// Refs returns the ids the expression mentions, in source order.
func (e *Expr) Refs() []Ref { return e.refs }

// Parse parses and type-checks an expression.
func Parse(src string) (*Expr, error) {
	p := &parser{src: src}
	root, err := p.expr()
	if err == nil {
		p.skipSpace()
		if p.pos < len(p.src) {
			err = p.fail("unexpected %q after the expression", p.src[p.pos:])
		}
	}
	if err != nil {
		return nil, err
	}
	return &Expr{src: src, root: root, refs: p.refs}, nil
}

type parser struct {
	src  string
	pos  int
	refs []Ref
}

func (p *parser) fail(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && strings.ContainsRune(" \t\n\r", rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *parser) peek() byte {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) expect(c byte) error {
	if p.peek() != c {
		if p.pos >= len(p.src) {
			return p.fail("expected %q, found the end", c)
		}
		return p.fail("expected %q, found %q", c, p.src[p.pos])
	}
	p.pos++
	return nil
}

func (p *parser) expr() (node, error) {
	left, err := p.term()
	for err == nil {
		op := p.peek()
		if op != '+' && op != '-' {
			return left, nil
		}
		p.pos++
		var right node
		if right, err = p.term(); err == nil {
			left = binary{op: op, l: left, r: right}
		}
	}
	return nil, err
}

func (p *parser) term() (node, error) {
	left, err := p.unary()
	for err == nil {
		op := p.peek()
		if op != '*' && op != '/' {
			return left, nil
		}
		p.pos++
		var right node
		if right, err = p.unary(); err == nil {
			left = binary{op: op, l: left, r: right}
		}
	}
	return nil, err
}

func (p *parser) unary() (node, error) {
	if p.peek() == '-' {
		p.pos++
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return neg{n}, nil
	}
	return p.primary()
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

func (p *parser) name() string {
	start := p.pos
	for p.pos < len(p.src) && isNameByte(p.src[p.pos], p.pos == start) {
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *parser) primary() (node, error) {
	c := p.peek()
	switch {
	case c == '(':
		p.pos++
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		return n, p.expect(')')
	case c >= '0' && c <= '9' || c == '.':
		return p.number()
	case isNameByte(c, true):
		start := p.pos
		name := p.name()
		switch {
		case name == "tick":
			return tickNode{}, nil
		case name == "defines":
			if err := p.expect('.'); err != nil {
				return nil, err
			}
			p.skipSpace()
			at := p.pos
			def := p.name()
			if _, ok := rules.Lookup(def); !ok {
				p.pos = at
				return nil, p.fail("unknown define %q", def)
			}
			return define{def}, nil
		case p.peek() == '(':
			return p.call(name, start)
		}
		p.pos = start
		return nil, p.fail("unknown name %q (names are tick, defines.<name> and function calls)", name)
	case c == 0:
		return nil, p.fail("expected a value, found the end")
	}
	return nil, p.fail("unexpected %q", c)
}

func (p *parser) number() (node, error) {
	start := p.pos
	for p.pos < len(p.src) && strings.ContainsRune("0123456789.eE_", rune(p.src[p.pos])) ||
		p.pos > start && p.pos < len(p.src) && (p.src[p.pos] == '-' || p.src[p.pos] == '+') && (p.src[p.pos-1] == 'e' || p.src[p.pos-1] == 'E') {
		p.pos++
	}
	text := p.src[start:p.pos]
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		p.pos = start
		return nil, p.fail("%q is not a number", text)
	}
	return number{v}, nil
}

// word reads an id argument: the characters fixtures allow in ids.
func (p *parser) word(kind RefKind) (string, error) {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) && (isNameByte(p.src[p.pos], false) || strings.ContainsRune(".@:~-", rune(p.src[p.pos]))) {
		p.pos++
	}
	if p.pos == start {
		return "", p.fail("expected %s id", kind)
	}
	w := p.src[start:p.pos]
	p.refs = append(p.refs, Ref{Kind: kind, Name: w, Offset: start})
	return w, nil
}

func (p *parser) call(name string, start int) (node, error) {
	p.pos++ // '('
	switch name {
	case "belief":
		holder, err := p.word(NPCRef)
		if err != nil {
			return nil, err
		}
		if err := p.expect(','); err != nil {
			return nil, err
		}
		claim, err := p.word(ClaimRef)
		if err != nil {
			return nil, err
		}
		if err := p.expect(')'); err != nil {
			return nil, err
		}
		if err := p.expect('.'); err != nil {
			return nil, &SyntaxError{Offset: p.pos, Msg: "belief(...) needs a field: .confidence, .verbatim, .gist, .sources or .formed"}
		}
		p.skipSpace()
		at := p.pos
		field := p.name()
		if !beliefFields[field] {
			p.pos = at
			return nil, p.fail("belief has no field %q (fields: confidence, verbatim, gist, sources, formed)", field)
		}
		return beliefField{holder: holder, claim: claim, field: field}, nil
	case "grudge":
		return p.record(name, []RefKind{NPCRef, EntityRef}, grudgeFields, func(ids []string, field string) node {
			return grudgeField{holder: ids[0], target: ids[1], field: field}
		})
	case "reputation":
		return p.record(name, []RefKind{NPCRef, EntityRef, DimensionRef}, opinionFields, func(ids []string, field string) node {
			return opinionField{observer: ids[0], subject: ids[1], dimension: ids[2], field: field}
		})
	case "believers", "holders":
		claim, err := p.word(ClaimRef)
		if err != nil {
			return nil, err
		}
		return count{fn: name, claim: claim}, p.expect(')')
	case "noisy_or", "exp2", "exp":
		var args []node
		for {
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if p.peek() != ',' {
				break
			}
			p.pos++
		}
		if err := p.expect(')'); err != nil {
			return nil, err
		}
		if name != "noisy_or" && len(args) != 1 {
			return nil, &SyntaxError{Offset: start, Msg: fmt.Sprintf("%s takes one argument, got %d", name, len(args))}
		}
		return call{fn: name, args: args}, nil
	}
	return nil, &SyntaxError{Offset: start, Msg: fmt.Sprintf("unknown function %q (functions: belief, grudge, reputation, believers, holders, noisy_or, exp2, exp)", name)}
}

var beliefFields = map[string]bool{"confidence": true, "verbatim": true, "gist": true, "sources": true, "formed": true}

var (
	grudgeFields  = []string{"emotional", "evidentiary"}
	opinionFields = []string{"alpha", "beta", "mean"}
)

// record parses the rest of a call that reads one record's field —
// name(id, …).field — after its opening parenthesis: one id per kind in
// kinds, comma separated, then a field among fields.
func (p *parser) record(name string, kinds []RefKind, fields []string, build func(ids []string, field string) node) (node, error) {
	ids := make([]string, len(kinds))
	for i, k := range kinds {
		if i > 0 {
			if err := p.expect(','); err != nil {
				return nil, err
			}
		}
		id, err := p.word(k)
		if err != nil {
			return nil, err
		}
		ids[i] = id
	}
	if err := p.expect(')'); err != nil {
		return nil, err
	}
	if err := p.expect('.'); err != nil {
		return nil, &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf("%s(...) needs a field: .%s", name, strings.Join(fields, ", ."))}
	}
	p.skipSpace()
	at := p.pos
	field := p.name()
	if !slices.Contains(fields, field) {
		p.pos = at
		return nil, p.fail("%s has no field %q (fields: %s)", name, field, strings.Join(fields, ", "))
	}
	return build(ids, field), nil
}
