package events

import "encoding/hex"

// EncodeRecord exposes the v1 encoding to the tests, with Prev read from
// the record's hex field.
func EncodeRecord(r Record) []byte {
	return appendRecord(nil, r, rawHash(r.Prev))
}

// Rehash recomputes every Prev and Hash of records in place, so a test can
// build a chain whose links are sound but whose content breaks a rule.
func Rehash(records []Record) {
	var prev [hashSize]byte
	for i := range records {
		records[i].Prev = hex.EncodeToString(prev[:])
		prev = recordDigest(records[i], prev)
		records[i].Hash = hex.EncodeToString(prev[:])
	}
}

// rawHash decodes a 64-digit hex hash; the tests only pass valid ones.
func rawHash(s string) [hashSize]byte {
	var h [hashSize]byte
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		panic(err)
	}
	return h
}
