package ladder

import (
	"time"

	"github.com/chronicle/ladder/ladder/record"
	"github.com/chronicle/ladder/sim/trace"
)

// Options say where a run writes its artifacts and what it compares them
// with.
type Options struct {
	// Dir receives dense.csv, trace.jsonl and checkpoints.json. Each is
	// written as the run produces it, to a temporary file beside its name
	// (".dense.csv.tmp-N"; the dense rows spill to ".dense.csv.spill-N"
	// until the header is known, and with a golden are also written as
	// the golden lays them out to a second ".dense.csv.tmp-N", the one put
	// in place when the run ends with the golden's header) that is renamed
	// into place when whole. A
	// run killed part way leaves only such temporaries, which whoever owns
	// Dir removes: the suite clears reports/ before every run, regeneration
	// its workspace.
	Dir string
	// Goldens is the repository root whose goldens (goldens/<rung>/) the
	// run compares its dense CSV and trace with as it writes them, for
	// verdict.Verify; "" compares nothing. With goldens, a trace.jsonl or a dense
	// file written through that is its golden's bytes whole is not
	// written again but put in place as a hard link to the golden
	// (artifact.CreateTwin; decision 0043): the same bytes, shared, so
	// that an edit made in place to one is made to the other, which the
	// golden's seal then refuses.
	Goldens string
	// Seals, when set, is the check of the goldens' seals made before the
	// run (verdict.CheckSeals, with Goldens as its root; pass its address). A trace or dense file
	// that ends as a link to its golden takes its digest for the run's
	// seal from that check, when the golden is the file found as sealed
	// and unchanged since (seal.Verified.Unchanged), instead of hashing
	// again bytes the check has just hashed: 2.4 GB in a city. One that
	// ends any other way is hashed from the file in place. nil hashes
	// every artifact's bytes as they are written.
	Seals record.SealedGoldens
	// Unsealed writes no manifest and digests nothing: for a run whose
	// artifacts are only compared and thrown away (ladder/explore's
	// scratch runs), never accepted nor regenerated from.
	Unsealed bool
	// Bare keeps no evidence a run's comparison with another does not
	// need: no regime meter (regimes.json) and no exported log
	// (events.jsonl). The audit still reads the world every tick, so that
	// a bare run reads the world exactly as a full one does. It is for a
	// run made only to be compared by its dense.csv, trace.jsonl and
	// checkpoints.json with another run of its world (ladder/explore's
	// variant runs). A Bare run's Result has no regimes.
	Bare bool
	// Observe, when set, is shown every trace record after the run's own
	// sinks (the artifact and the audit), as the engine emits it: a reader
	// of the run that is not the ladder (ladder/explore's properties)
	// sees the records as values, not as JSON text. It must not keep a
	// record without cloning it (trace.Sink). An Observe that also has a
	// Start(*sim.World) method is handed the world once it is built,
	// before its first tick, to read (never change) as records arrive.
	Observe trace.Sink
	// Stages, when set, is charged the wall time of the run's stages
	// (record.Stages): for the benchmark of the ladder's own path, which
	// needs the split and cannot see inside Run. nil reads no clock, and
	// hands the trace to a goroutine of its own (record.Streams) and the
	// writes of the trace and the dense file to others (artifact.Behind);
	// a timed run keeps all of it on the engine's.
	Stages *record.Stages
	// Stall, when positive, gives up a run that finishes no tick for that
	// long (stall.go): Run returns no Result and a *StallError naming the
	// tick it was in, instead of never returning. The run then steps on
	// its own goroutine, which is abandoned where it hangs. 0 watches
	// nothing: the run steps on the caller's goroutine and reads no clock.
	Stall time.Duration
	// progress is where a watched run reports each tick it finishes.
	progress *record.Progress
}
