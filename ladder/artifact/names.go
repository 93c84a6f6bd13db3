package artifact

// The files a run writes, by name: a rung's three golden artifacts, a
// sweep rung's two, the exported canonical log beside them (evidence,
// never a golden), and the two files of a golden set that are not a run's
// output — its seal and its history.
const (
	DenseFile       = "dense.csv"
	CheckpointsFile = "checkpoints.json"
	TraceFile       = "trace.jsonl"
	// EventsFile is the canonical log a run exports beside its artifacts
	// (reports/<rung>/events.jsonl), one hash-chained record a line;
	// `ladder verify` replays it. It is evidence, not a golden.
	EventsFile = "events.jsonl"
	// AggregatesFile holds one line per seed of a sweep: its seed id and
	// its exact counts, compared byte for byte.
	AggregatesFile = "aggregates.csv"
	// SummaryFile holds each of a sweep's aggregates' mean, spread and
	// range over the seeds and each bound's verdict, compared byte for
	// byte.
	SummaryFile = "summary.json"
	// ManifestFile is the seal of a golden set (package ladder/seal):
	// every run writes it beside its artifacts, sealing them, and the
	// writers of goldens copy it into goldens/ with them.
	ManifestFile = "manifest.json"
	// HistoryFile is a golden set's history (package ladder/history): why
	// each change of the set was made, sealed with it, never an artifact.
	HistoryFile = "history.jsonl"
)

// RungNames lists the golden files of a rung in the order they are
// written and checked.
var RungNames = []string{DenseFile, CheckpointsFile, TraceFile}

// SweepNames lists a sweep rung's golden files in the order they are
// written.
var SweepNames = []string{AggregatesFile, SummaryFile}
