package wallclock

import "time"

func now() time.Time {
	return time.Now() // want `time.Now reads the wall clock`
}

func elapsed(t time.Time) time.Duration {
	return time.Since(t) // want `time.Since reads the wall clock`
}

var clock = time.Now // want `time.Now reads the wall clock`

func durations() time.Duration {
	d, _ := time.ParseDuration("90s")
	return d + time.Second // arithmetic on durations reads no clock
}

func justified() time.Time {
	return time.Now() //determinism:wallclock for a progress line on stderr only
}
