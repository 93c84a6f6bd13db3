package explore

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chronicle/ladder/ladder/artifact"
)

// The configuration relations hold a run to itself made another way: the
// same world, with the ladder's own machinery switched (the trace pipe
// and the writes behind off, no observer, one core and an eager garbage
// collector), must write the same bytes. Each costs a whole run, or a
// whole run in a child process, and what it guards is not a property of
// the world but of how runs are made, which every world with a trace
// exercises: so each is checked on a quarter of the worlds. The run on
// past the end (quiescence) can cost as much as the longest world the
// generator draws, and what it guards shows only where a horizon falls
// within reach — a grudge of the default half-lives settles some 10,000
// ticks after its cause, which only the smallest casts run on to — so it
// is checked on half (docs/explore.md says why these rates).

// share is the worlds, by index, a sampled property is checked on: those
// whose index is at modulo every.
type share struct{ every, at int64 }

// shares are the sampled properties' worlds. The configuration relations
// take a quarter each, quiescence the even worlds, so that no world
// carries more than two of them. A world's share depends on its index
// alone, so a campaign's shards, merged, checked what one exploration of
// the same worlds checks.
//
// The locality relations halve too: an NPC alone and a town apart guard
// one defect (a roll keyed by stream position or cast size rather than
// its key, which any world with rolls exposes), so each takes half the
// worlds and every world has one of them; the fear view read at every
// tick guards a rule that reads a view, which any world exposes where
// that rule evaluates, so it takes the odd half. Together they took two
// and a half runs of each world's seven or so (docs/explore.md).
var shares = map[string]share{
	PropQuiescence: {2, 0}, PropSerial: {4, 1}, PropConstrained: {4, 2}, PropUnobserved: {4, 3},
	PropIsolatedTown: {2, 0}, PropIsolatedNPC: {2, 1}, PropView: {2, 1},
}

// inShare reports whether world w is one of those prop is checked on;
// a property no share names is checked on every world.
func inShare(prop string, w World) bool {
	s, ok := shares[prop]
	return !ok || w.Index%s.every == s.at
}

// sampled reports whether this checker checks prop on world w: always,
// unless it samples (Checker.Sampled), and always the property it is
// shrinking.
func (c *Checker) sampled(prop string, w World) bool {
	return !c.Sampled || c.Only == prop || inShare(prop, w)
}

// runHow is how a run is made beyond its world: as the explorer makes
// every run (observed, the trace piped to a goroutine of its own and the
// files written behind), or as a configuration relation varies it.
type runHow struct {
	// serial sets Options.Stages, which keeps the trace's spelling and
	// every write on the engine's goroutine (decisions 0041, 0042): the
	// benchmarks' timed run, the only way to switch both off.
	serial bool
	// unobserved runs without the explorer's sinks (Options.Observe), as
	// make ladder runs a rung.
	unobserved bool
	// records keeps every trace record spelt (the streamer), for a
	// locality relation's record-by-record comparison; a run compared by
	// its files alone does without.
	records bool
	// bare is a run compared with the base run by its files alone
	// (ladder.Options.Bare: no regime meter, no exported log): every run
	// but the base run and the plain second run of determinism, which
	// must be made exactly as the base run is to say that two runs of one
	// world differ.
	bare bool
	// observed runs the world for the explorer's observer alone
	// (ladder.Observed): no file written, nothing compared; the run past
	// the end, which only the observer's models judge.
	observed bool
}

// configs are the in-process configuration relations, each a run of
// the world made another way and compared with the base run byte for
// byte.
var configs = []struct {
	prop, what string
	how        runHow
}{
	{PropSerial, "the trace pipe and the writes behind off", runHow{serial: true, bare: true}},
	{PropUnobserved, "nobody observing the run", runHow{unobserved: true, bare: true}},
}

// ConstrainedEnv is what the child process of PropConstrained adds to
// its environment (Options.Constrained): one core for the scheduler, and
// a collection every time the heap grows by a tenth.
var ConstrainedEnv = []string{"GOMAXPROCS=1", "GOGC=10"}

// sameArtifacts compares two runs' dense.csv, trace.jsonl and
// checkpoints.json byte for byte.
func sameArtifacts(prop, a, b string, x, y *run) *Finding {
	if f := sameBytes(prop, a, b, x, y); f != nil {
		return f
	}
	if !bytes.Equal(x.file(artifact.CheckpointsFile), y.file(artifact.CheckpointsFile)) {
		return &Finding{Property: prop, Tick: -1, Message: fmt.Sprintf("%s: the run %s and the run %s differ", artifact.CheckpointsFile, a, b)}
	}
	return nil
}

// digests are a run's artifacts as the child-process checks compare them
// (Outcome.Hash).
func (r *run) digests() string {
	return digestOf(r.file(artifact.DenseFile)) + " " + digestOf(r.file(artifact.TraceFile)) + " " + digestOf(r.file(artifact.CheckpointsFile))
}

// childCheck is a property judged by running worlds again in a child
// process (Options.Fresh, Options.Constrained): the worlds wait, in index
// order, for a batch, and each must give the digests it gave here.
type childCheck struct {
	prop string
	// what the child is, for the message.
	what string
	run  func(paths []string) (map[string]string, error)
	// shared: only the worlds of the property's share (inShare).
	shared  bool
	pending []pendingFresh
}

// childChecks are the child-process properties an exploration's options
// can judge; one whose process the options do not give is left out.
func childChecks(opt Options) []*childCheck {
	var out []*childCheck
	if opt.Fresh != nil {
		out = append(out, &childCheck{prop: PropFresh, what: "a fresh process", run: opt.Fresh})
	}
	if opt.Constrained != nil {
		out = append(out, &childCheck{prop: PropConstrained, what: "a fresh process under " + strings.Join(ConstrainedEnv, " "), run: opt.Constrained, shared: true})
	}
	return out
}

// childRun is how opt runs prop's child process, nil when prop is not a
// child-process property or opt gives no process for it.
func (opt Options) childRun(prop string) func(paths []string) (map[string]string, error) {
	switch prop {
	case PropFresh:
		return opt.Fresh
	case PropConstrained:
		return opt.Constrained
	}
	return nil
}

// flush runs the queued worlds in one child process and hands each, in
// index order, to judge with what it found: nil where the digests agree.
func (ch *childCheck) flush(judge func(cs *Case, x *Finding)) {
	if len(ch.pending) == 0 {
		return
	}
	paths := make([]string, len(ch.pending))
	for i, p := range ch.pending {
		paths[i] = p.path
	}
	got, err := ch.run(paths)
	for _, p := range ch.pending {
		var x *Finding
		switch h, ok := got[p.path]; {
		case err != nil:
			x = &Finding{Property: ch.prop, Tick: -1, Message: fmt.Sprintf("%s failed: %v", ch.what, err)}
		case !ok || h != p.hash:
			x = &Finding{Property: ch.prop, Tick: -1, Message: fmt.Sprintf("%s wrote dense, trace and checkpoints digests %q, this process %q", ch.what, h, p.hash)}
		}
		judge(p.cs, x)
	}
	ch.pending = ch.pending[:0]
}

// writePending writes a world's file for the child checks that take it,
// once, and queues it with each.
func writePending(opt Options, checks []*childCheck, cs *Case, hash string) {
	var takers []*childCheck
	for _, ch := range checks {
		if !ch.shared || inShare(ch.prop, cs.World) {
			takers = append(takers, ch)
		}
	}
	if len(takers) == 0 {
		return
	}
	path := filepath.Join(opt.Scratch, "fresh", FileName(cs.Loaded))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil || os.WriteFile(path, cs.YAML, 0o644) != nil {
		return
	}
	for _, ch := range takers {
		ch.pending = append(ch.pending, pendingFresh{path, hash, cs})
	}
}
