package schedule_test

import (
	"testing"

	"github.com/chronicle/ladder/sim/schedule"
)

// FuzzCovers checks Covers against the definition in the package
// documentation, written out naively: a one-off block covers [From, To);
// a recurring one covers Since + k·Every + [From, To) for every k ≥ 0; both
// only within [Since, Until).
func FuzzCovers(f *testing.F) {
	f.Add(int64(8), int64(18), int64(24), int64(0), int64(1000), int64(30))
	f.Add(int64(0), int64(2), int64(10), int64(3), int64(40), int64(13))
	f.Add(int64(5), int64(8), int64(0), int64(0), int64(7), int64(6))
	f.Add(int64(0), int64(1), int64(4), int64(-8), int64(0), int64(-4))
	f.Fuzz(func(t *testing.T, from, to, every, since, until, tick int64) {
		// Keep the naive model's loop short and free of overflow.
		const lim = 1 << 12
		for _, v := range []int64{from, to, every, since, until, tick} {
			if v < -lim || v > lim {
				t.Skip()
			}
		}
		b := schedule.Block{At: "x", From: from, To: to, Every: every, Since: since, Until: until}
		if b.Validate() != nil {
			t.Skip()
		}
		want := false
		if since <= tick && tick < until {
			if every == 0 {
				want = from <= tick && tick < to
			} else {
				for start := since; start <= tick; start += every {
					if start+from <= tick && tick < start+to {
						want = true
					}
				}
			}
		}
		if got := b.Covers(tick); got != want {
			t.Fatalf("%+v covers %d: got %v, want %v", b, tick, got, want)
		}
	})
}
