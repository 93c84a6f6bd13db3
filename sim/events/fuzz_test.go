package events_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/chronicle/ladder/sim/events"
)

// fuzzInput hands out the fuzzer's bytes one at a time, then zeros.
type fuzzInput []byte

// next returns the next byte, or 0 once the input is used up.
func (in *fuzzInput) next() byte {
	if len(*in) == 0 {
		return 0
	}
	b := (*in)[0]
	*in = (*in)[1:]
	return b
}

// str returns a string of up to four arbitrary bytes.
func (in *fuzzInput) str() string {
	b := make([]byte, in.next()%5)
	for i := range b {
		b[i] = in.next()
	}
	return string(b)
}

// fuzzLog builds a log of one to six records from spec. Ids get a prefix
// that keeps them unique and non-empty; ticks never fall.
func fuzzLog(t *testing.T, spec []byte) *events.Log {
	in := fuzzInput(spec)
	l := events.NewLog(events.Branch{SaveUUID: in.str(), Generation: int64(int8(in.next()))})
	n := 1 + int(in.next()%6)
	tick := int64(int8(in.next()))
	for i := range n {
		tick += int64(in.next() % 3)
		e := events.Event{ID: fmt.Sprintf("e%d:%s", i, in.str()), Kind: "k" + in.str(), Tick: tick}
		for range in.next() % 4 {
			if e.Attrs == nil {
				e.Attrs = map[string]string{}
			}
			e.Attrs[in.str()] = in.str()
		}
		for range in.next() % 3 {
			e.Witnesses = append(e.Witnesses, in.str())
		}
		if _, err := l.Append(e); err != nil {
			t.Fatalf("building the log: %v", err)
		}
	}
	return l
}

// Fields a fuzz case can tamper with, chosen by fieldPick modulo the count.
const (
	fieldSeq = iota
	fieldSaveUUID
	fieldGeneration
	fieldPrev
	fieldHash
	fieldID
	fieldKind
	fieldTick
	fieldAttrKey
	fieldAttrValue
	fieldWitness
	fieldCount
)

// flipInt XORs mask into byte pick%8 of v.
func flipInt(v *int64, pick uint16, mask byte) {
	*v ^= int64(mask) << (8 * (pick % 8))
}

// flipString XORs mask into byte pick%len of s; it reports false for "".
func flipString(s *string, pick uint16, mask byte) bool {
	if *s == "" {
		return false
	}
	b := []byte(*s)
	b[int(pick)%len(b)] ^= mask
	*s = string(b)
	return true
}

// tamper changes one byte of one field of r and reports whether it could;
// an empty string or list has no byte to change.
func tamper(r *events.Record, field uint8, pick uint16, mask byte) bool {
	switch field % fieldCount {
	case fieldSeq:
		flipInt(&r.Seq, pick, mask)
	case fieldSaveUUID:
		return flipString(&r.Branch.SaveUUID, pick, mask)
	case fieldGeneration:
		flipInt(&r.Branch.Generation, pick, mask)
	case fieldPrev:
		return flipString(&r.Prev, pick, mask)
	case fieldHash:
		return flipString(&r.Hash, pick, mask)
	case fieldID:
		return flipString(&r.Event.ID, pick, mask)
	case fieldKind:
		return flipString(&r.Event.Kind, pick, mask)
	case fieldTick:
		flipInt(&r.Event.Tick, pick, mask)
	case fieldAttrKey, fieldAttrValue:
		keys := slices.Sorted(maps.Keys(r.Event.Attrs))
		if len(keys) == 0 {
			return false
		}
		k := keys[int(pick)%len(keys)]
		v := r.Event.Attrs[k]
		if field%fieldCount == fieldAttrValue {
			ok := flipString(&v, pick/uint16(len(keys)), mask)
			r.Event.Attrs[k] = v
			return ok
		}
		nk := k
		if !flipString(&nk, pick/uint16(len(keys)), mask) {
			return false
		}
		delete(r.Event.Attrs, k)
		r.Event.Attrs[nk] = v
	case fieldWitness:
		if len(r.Event.Witnesses) == 0 {
			return false
		}
		w := &r.Event.Witnesses[int(pick)%len(r.Event.Witnesses)]
		return flipString(w, pick/uint16(len(r.Event.Witnesses)), mask)
	}
	return true
}

// FuzzVerify builds a log from the input, changes one byte of one field of
// one record, and requires Verify to name that record. Every check Verify
// makes on a record reads only that record and earlier ones, and any
// changed byte changes the record's encoding, so the break is found at the
// tampered seq exactly: never earlier, and never missed.
func FuzzVerify(f *testing.F) {
	// Branch "ab"/5 and three records; the first two have attributes and
	// witnesses, so every field of theirs has a byte to change.
	seed := []byte("\x02ab\x05\x02\x00" +
		"\x01\x03xyz\x02pq\x02\x01a\x02bc\x01d\x01e\x02\x02w1\x02w2" +
		"\x00\x01m\x01n\x01\x01k\x01v\x01\x01z" +
		"\x02\x00\x00\x00\x00")
	for field := range uint8(fieldCount) {
		f.Add(seed, field%2, field, uint16(field)*7, byte(0x20))
	}
	f.Add([]byte{}, uint8(0), uint8(fieldHash), uint16(63), byte(0xff))
	f.Fuzz(func(t *testing.T, spec []byte, recordPick, field uint8, pick uint16, mask byte) {
		if mask == 0 {
			mask = 1 // XOR with zero would leave the byte as it was
		}
		recs := fuzzLog(t, spec).Records()
		if err := events.Verify(recs); err != nil {
			t.Fatalf("intact log rejected: %v", err)
		}
		k := int(recordPick) % len(recs)
		if !tamper(&recs[k], field, pick, mask) {
			t.Skip("chosen field has no byte to change")
		}
		err := events.Verify(recs)
		var ce *events.ChainError
		if !errors.As(err, &ce) {
			t.Fatalf("tampered field %d of seq %d: Verify returned %v", field%fieldCount, k, err)
		}
		if ce.Seq != int64(k) || ce.Index != k {
			t.Fatalf("tampered field %d of seq %d, but Verify named seq %d index %d (%s)", field%fieldCount, k, ce.Seq, ce.Index, ce.Reason)
		}
	})
}

// FuzzParseJSON holds ParseJSON to its contract on arbitrary bytes: it
// never panics, and whatever it accepts is exactly the line AppendJSON
// writes for the record it returns, so no two spellings read as one.
func FuzzParseJSON(f *testing.F) {
	l := events.NewLog(events.Branch{SaveUUID: "s1", Generation: 3})
	for _, e := range []events.Event{
		{ID: "theft@2", Kind: "theft", Tick: 2, Attrs: map[string]string{"actor": "thief", "item": "ring"}, Witnesses: []string{"guard"}},
		{ID: "death@9", Kind: "death", Tick: 9, Attrs: map[string]string{"victim": "é\n\"q\""}},
		{ID: "bare", Kind: "k", Tick: 9},
	} {
		r, err := l.Append(e)
		if err != nil {
			f.Fatal(err)
		}
		line, err := events.AppendJSON(nil, r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(line)
	}
	f.Add([]byte(`{"seq":0}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := events.ParseJSON(line)
		if err != nil {
			return
		}
		again, err := events.AppendJSON(nil, r)
		if err != nil {
			t.Fatalf("accepted %q but cannot write it back: %v", line, err)
		}
		if string(again) != string(line) {
			t.Fatalf("accepted %q, which writes back as %q", line, again)
		}
	})
}
