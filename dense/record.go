package dense

import "bytes"

// rawLimit caps how much raw text a divergence quotes from a record.
const rawLimit = 64

// record is one parsed CSV record.
type record struct {
	fields []string // unquoted field values
	starts []int    // offset of each field's first byte
	end    int      // offset just past the record's newline, or len(data)
	// bad is the index of the field that does not parse, or -1. For such a
	// field, fields holds its raw text up to the next newline (at most
	// rawLimit bytes) and err says what is wrong.
	bad int
	err error
}

// value returns field i, or Missing if the record has no such field.
func (r *record) value(i int) string {
	if i < len(r.fields) {
		return r.fields[i]
	}
	return Missing
}

// fieldAt returns the index of the field containing offset off.
func (r *record) fieldAt(off int) int {
	i := 0
	for i+1 < len(r.starts) && r.starts[i+1] <= off {
		i++
	}
	return i
}

// raw returns the text of the record from the start of field i, newline
// included, capped at rawLimit bytes.
func (r *record) raw(data []byte, i int) string {
	if i >= len(r.starts) {
		return Missing
	}
	return string(data[r.starts[i]:min(r.end, r.starts[i]+rawLimit)])
}

// parseRecord parses the RFC 4180 record starting at data[start:], stopping
// after its newline. It reads nothing beyond that record except when a
// quoted field is not closed. It stops at the first malformed field,
// recording it in bad and err.
func parseRecord(data []byte, start int) record {
	r := record{bad: -1, end: len(data)}
	if start >= len(data) {
		return r
	}
	pos := start
	for {
		r.starts = append(r.starts, pos)
		value, next, err := parseField(data, pos)
		if err != nil {
			r.bad, r.err = len(r.fields), err
			end := len(data)
			if nl := bytes.IndexByte(data[pos:], '\n'); nl >= 0 {
				end = pos + nl + 1
			}
			r.fields = append(r.fields, string(data[pos:min(end, pos+rawLimit)]))
			return r
		}
		r.fields = append(r.fields, value)
		switch {
		case next == len(data):
			return r
		case data[next] == '\n':
			r.end = next + 1
			return r
		}
		pos = next + 1 // skip the comma
	}
}

// parseField parses the field at data[pos:] and returns its value and the
// offset of the byte that ends it (a comma, a newline, or len(data)).
func parseField(data []byte, pos int) (string, int, error) {
	if pos == len(data) || data[pos] != '"' {
		i := pos
		for ; i < len(data) && data[i] != ',' && data[i] != '\n'; i++ {
			switch data[i] {
			case '"':
				return "", i, ErrBareQuote
			case '\r':
				return "", i, ErrCarriageReturn
			}
		}
		return string(data[pos:i]), i, nil
	}
	var value []byte
	i := pos + 1
	for {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return "", len(data), ErrUnterminatedQuote
		}
		value = append(value, data[i:i+q]...)
		i += q + 1
		if i < len(data) && data[i] == '"' { // a doubled quote
			value = append(value, '"')
			i++
			continue
		}
		if i < len(data) && data[i] != ',' && data[i] != '\n' {
			return "", i, ErrTextAfterQuote
		}
		return string(value), i, nil
	}
}
