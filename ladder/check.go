package ladder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chronicle/ladder/ladder/expect"
)

// observeTrace shows a trace file's records (every line after the header)
// to the expectations one at a time, as a reader of trace.jsonl sees them:
// only one decoded record is alive at once, so the trace checks never
// need the whole file decoded in memory.
func observeTrace(run *expect.Run, jsonl []byte) error {
	rest := jsonl
	for line := 1; len(rest) > 0; line++ {
		var cur []byte
		cur, rest, _ = bytes.Cut(rest, []byte("\n"))
		if line == 1 {
			continue // the header
		}
		var rec expect.Record
		if err := json.Unmarshal(cur, &rec); err != nil {
			return fmt.Errorf("trace line %d: %w", line, err)
		}
		run.Trace(rec)
	}
	return nil
}

func list(s []string) string { return "[" + strings.Join(s, ", ") + "]" }
