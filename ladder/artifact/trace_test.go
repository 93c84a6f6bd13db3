package artifact_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
	"github.com/chronicle/ladder/sim/trace"
)

// rng is a tiny deterministic generator.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

const header = `{"branch":{"generation":0,"save_uuid":"s"},"keyframe_every":24,"kind":"header","schema":"chronicle.trace","seed_id":"s","version":1}`

// randomTrace is a header and records in tick order, some of them alike.
func randomTrace(r *rng) []byte {
	var b strings.Builder
	b.WriteString(header + "\n")
	tick := 0
	for i := range int(r.next() % 12) {
		tick += int(r.next() % 2)
		fmt.Fprintf(&b, `{"branch":{"generation":0,"save_uuid":"s"},"fired":%v,"id":"encounter@%d/m/[a,b]","kind":"encounter","seq":%d,"tick":%d,"value":0.%d}`+"\n",
			r.next()%2 == 0, tick, i, tick, r.next()%3)
	}
	return []byte(b.String())
}

// mutate changes a trace: a line dropped, added or edited, bytes cut, or
// nothing.
func mutate(r *rng, t []byte) []byte {
	if len(t) == 0 {
		return []byte(header + "\n")
	}
	lines := strings.SplitAfter(string(t), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	i := int(r.next() % uint64(len(lines)))
	switch r.next() % 6 {
	case 0:
		lines = append(lines[:i:i], lines[i+1:]...)
	case 1:
		lines = append(lines[:i:i], append([]string{lines[i]}, lines[i:]...)...)
	case 2:
		lines[i] = strings.Replace(lines[i], `"fired":true`, `"fired":false`, 1)
	case 3:
		out := []byte(strings.Join(lines, ""))
		return out[:r.next()%uint64(len(out)+1)]
	case 4:
		lines[i] = strings.Replace(lines[i], `"value":0.`, `"value":1.`, 1)
	}
	return []byte(strings.Join(lines, ""))
}

// follow runs a TraceFollower over actual as a run would feed it.
func follow(f *artifact.TraceFollower, actual []byte) (*trace.Divergence, error) {
	for _, l := range strings.SplitAfter(string(actual), "\n") {
		if l != "" {
			f.Line([]byte(l))
		}
	}
	return f.Finish()
}

// traceBefore is the cut as a whole file: the header and every record
// before tick ticks, refusing what is not a trace — the oracle the
// streamed cut is held to.
func traceBefore(file []byte, ticks int64) ([]byte, error) {
	end := bytes.IndexByte(file, '\n') + 1
	if end == 0 {
		return nil, errors.New("no header line")
	}
	for end < len(file) {
		next := bytes.IndexByte(file[end:], '\n')
		if next < 0 {
			return nil, fmt.Errorf("line %d: no final newline", bytes.Count(file[:end], []byte("\n"))+1)
		}
		var rec struct {
			Tick *int64 `json:"tick"`
		}
		if err := json.Unmarshal(file[end:end+next], &rec); err != nil || rec.Tick == nil {
			return nil, fmt.Errorf("line %d: not a trace record with a tick", bytes.Count(file[:end], []byte("\n"))+1)
		}
		if *rec.Tick >= ticks {
			break
		}
		end += next + 1
	}
	return file[:end], nil
}

var _ = Describe("TraceFollower", func() {
	It("names the first divergence as trace.Compare does on the whole files", func() {
		r := rng(3)
		dir := GinkgoT().TempDir()
		for i := range 3000 {
			golden := randomTrace(&r)
			actual := mutate(&r, golden)
			if r.next()%3 == 0 {
				golden = mutate(&r, golden)
			}
			want := trace.Compare(golden, actual)
			got, err := follow(artifact.NewTraceFollower(bytes.NewReader(golden)), actual)
			Expect(err).NotTo(HaveOccurred())
			Expect(cmp.Diff(want, got)).To(BeEmpty(), "golden %q\nactual %q", golden, actual)
			if i%20 == 0 {
				g, a := filepath.Join(dir, "g"), filepath.Join(dir, "a")
				Expect(os.WriteFile(g, golden, 0o644)).To(Succeed())
				Expect(os.WriteFile(a, actual, 0o644)).To(Succeed())
				got, err := artifact.CompareTraceFiles(g, a)
				Expect(err).NotTo(HaveOccurred())
				Expect(cmp.Diff(want, got)).To(BeEmpty())
			}
		}
	})

	It("cut at a tick, reads another run's trace up to it as the whole-file cut does, refusing what is not a trace", func() {
		r := rng(5)
		for range 3000 {
			golden := randomTrace(&r)
			if r.next()%4 == 0 {
				golden = mutate(&r, golden)
			}
			if r.next()%8 == 0 {
				golden = bytes.Replace(golden, []byte(`"tick"`), []byte(`"tock"`), 1)
			}
			cut := int64(r.next() % 8)
			prefix, wantErr := traceBefore(golden, cut)
			actual := []byte(header + "\n")
			if wantErr == nil {
				actual = mutate(&r, append([]byte(nil), prefix...))
			}
			got, err := follow(artifact.NewTraceFollowerCut(bytes.NewReader(golden), cut), actual)
			if wantErr != nil {
				Expect(err).To(MatchError(wantErr.Error()), "golden %q cut %d", golden, cut)
				continue
			}
			Expect(err).NotTo(HaveOccurred(), "golden %q cut %d", golden, cut)
			Expect(cmp.Diff(trace.Compare(prefix, actual), got)).To(BeEmpty(), "golden %q cut %d\nactual %q", golden, cut, actual)
		}
	})

	It("compares lines longer than its read buffer, whole and cut", func() {
		long := `{"kind":"note","tick":0,"text":"` + strings.Repeat("x", 200<<10) + `"}` + "\n"
		golden := []byte(header + "\n" + long + long)
		// The follower compares a long line with the actual one a piece of
		// its reader's buffer at a time and copies it only once they
		// differ: differences in the first piece, in the middle, in the
		// last, an actual line shorter or longer by a byte, and a golden
		// that ends inside a long line.
		at := len(header) + 1 + 100<<10 // inside the first long line's second piece
		actuals := [][]byte{
			golden,
			bytes.Replace(golden, []byte("x\"}"), []byte("y\"}"), 1),
			bytes.Replace(golden, []byte(`"text":"x`), []byte(`"text":"y`), 1),
			append(append(bytes.Clone(golden[:at]), 'y'), golden[at+1:]...),
			append(bytes.Clone(golden[:at]), golden[at+1:]...),
			append(append(bytes.Clone(golden[:at]), 'x'), golden[at:]...),
			bytes.Clone(golden[:len(golden)-1]),
			bytes.Replace(golden, []byte("\"}\n"), []byte("\"}x\n"), 2),
		}
		for _, g := range [][]byte{golden, golden[:len(golden)-len(long)/2]} {
			for _, actual := range actuals {
				got, err := follow(artifact.NewTraceFollower(bytes.NewReader(g)), actual)
				Expect(err).NotTo(HaveOccurred())
				Expect(cmp.Diff(trace.Compare(g, actual), got)).To(BeEmpty(), "golden of %d bytes, actual %q", len(g), actual[len(actual)-40:])
			}
		}
		for _, actual := range actuals[:2] {
			got, err := follow(artifact.NewTraceFollower(bytes.NewReader(golden)), actual)
			Expect(err).NotTo(HaveOccurred())
			Expect(cmp.Diff(trace.Compare(golden, actual), got)).To(BeEmpty())
			got, err = follow(artifact.NewTraceFollowerCut(bytes.NewReader(golden), 1), actual)
			Expect(err).NotTo(HaveOccurred())
			Expect(cmp.Diff(trace.Compare(golden, actual), got)).To(BeEmpty())
		}
	})

	It("says a golden that cannot be read cannot", func() {
		dir := GinkgoT().TempDir()
		f, err := os.Open(dir) // a directory opens, and fails to read
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		_, err = follow(artifact.NewTraceFollower(f), []byte(header+"\n"))
		Expect(err).To(MatchError(ContainSubstring("is a directory")))
	})
})

// FuzzTraceFollower holds the streamed comparison to trace.Compare on any
// two files.
func FuzzTraceFollower(f *testing.F) {
	r := rng(9)
	for range 20 {
		g := randomTrace(&r)
		f.Add(g, mutate(&r, g))
	}
	f.Fuzz(func(t *testing.T, golden, actual []byte) {
		got, err := follow(artifact.NewTraceFollower(bytes.NewReader(golden)), actual)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(trace.Compare(golden, actual), got); diff != "" {
			t.Fatalf("(-Compare +TraceFollower):\n%s", diff)
		}
	})
}
