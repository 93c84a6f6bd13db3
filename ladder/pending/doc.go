// Package pending keeps the artifacts a run produced that differ from the
// goldens — pending changes — and accepts or rejects them after review,
// without rerunning anything.
//
// Every ladder run writes each rung's artifacts under reports/<rung>[/<case>]/
// (dense.csv, checkpoints.json, trace.jsonl) as it produces them (Dir
// gives the place). When they differ from the goldens, or the rung has no
// goldens yet, or the run aborted, Save writes a manifest beside them,
// pending.json — digesting and comparing the artifacts in chunks, never
// reading one whole:
//
//	{
//	  "name": "T2.1",
//	  "rung": "T2.1",
//	  "case": "",
//	  "fixture": "fixtures/T2.1-spread.yaml",
//	  "fixture_hash": "98ab43607ce0ad48",
//	  "code_hash": "dde729f0a8790145",
//	  "golden_dir": "goldens/T2.1-spread",
//	  "state": "changed",
//	  "changed": ["dense.csv", "checkpoints.json", "trace.jsonl"],
//	  "artifacts": {"checkpoints.json": "<sha256>", "dense.csv": "<sha256>", "trace.jsonl": "<sha256>"},
//	  "problems": ["T2.1 dense.csv: first divergence at tick 14, …", …],
//	  "expectations": []
//	}
//
// The manifest records where the artifacts came from: the fixture's hash
// (over its normalised text, its parent's included when it extends one) and
// the code hash (CodeHash: a digest of every non-test Go source of the
// module outside tools/, and go.mod and go.sum — it moves whenever the
// engine or the harness that renders artifacts moves). Accept copies
// exactly the artifacts the manifest digests into goldens/, all selected
// rungs in one workspace commit (see package regen), with an entry
// appended to the history of each set it changes (package history: the
// manifest's hashes, the first divergence, the drift class, the reason),
// and refuses when the fixture or the code changed since the run, when an
// artifact was edited, when the run aborted, when the rung's own
// expectations fail, or when a set changes and no reason is given. Reject
// drops the manifest; the artifacts stay as the run's evidence until the
// next run clears reports/.
package pending
