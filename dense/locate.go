package dense

import "bytes"

// Chunk sizes for firstDiff: whole chunks are compared with bytes.Equal at
// memory speed, and only the chunk that differs is narrowed further.
const (
	coarseChunk = 64 << 10
	fineChunk   = 64
)

// firstDiff returns the offset of the first byte at which a and b differ, or
// the length of the shorter one when it is a prefix of the other.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+coarseChunk <= n && bytes.Equal(a[i:i+coarseChunk], b[i:i+coarseChunk]) {
		i += coarseChunk
	}
	for i+fineChunk <= n && bytes.Equal(a[i:i+fineChunk], b[i:i+fineChunk]) {
		i += fineChunk
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// scanRecords finds the record boundaries in p, which must start at a record
// boundary: it returns the number of record-ending newlines in p and the
// offset just past the last one (0 if there is none). A newline inside a
// quoted field ends no record. The scan jumps from quote to quote, so it
// runs at memory speed with bytes.IndexByte and bytes.Count; quotes toggle
// the quoted state, which also handles doubled quotes ("") correctly.
func scanRecords(p []byte) (records, lastEnd int) {
	pos := 0
	for {
		open := bytes.IndexByte(p[pos:], '"')
		end := len(p)
		if open >= 0 {
			end = pos + open
		}
		unquoted := p[pos:end]
		if n := bytes.Count(unquoted, []byte{'\n'}); n > 0 {
			records += n
			lastEnd = pos + bytes.LastIndexByte(unquoted, '\n') + 1
		}
		if open < 0 {
			return records, lastEnd
		}
		closing := bytes.IndexByte(p[end+1:], '"')
		if closing < 0 {
			return records, lastEnd
		}
		pos = end + 1 + closing + 1
	}
}

// countRows returns the number of records in p, counting a final record
// without its newline.
func countRows(p []byte) int {
	records, lastEnd := scanRecords(p)
	if lastEnd < len(p) {
		records++
	}
	return records
}
