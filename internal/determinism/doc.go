// Package determinism holds the analyzers that keep the project's first
// promise by the shape of its code: the same fixture gives the same bytes
// on every run, in every process, on every platform. A rerun finds a leak
// only when the dice show it — a tie broken by map order one world in
// eight passes about four reruns in five — so these rules refuse the code
// that could leak before it runs, and the reruns stay as a backstop.
//
// Each analyzer is a golang.org/x/tools/go/analysis pass:
//
//	maporder      a range over a map whose order can reach anything
//	wallclock     time.Now and the timers
//	environ       the environment, the command line, the host, the platform
//	filesystem    files, in the engine
//	randomness    math/rand, crypto/rand, hash/maphash
//	concurrency   goroutines, channels, select and sync, in the engine
//	platformmath  math.Exp, Log, Pow and the rest whose bits vary, math.FMA
//	fusion        a float product added or subtracted without float64()
//	formatting    %p, and fmt of a map, channel, function or pointer
//
// Areas says which hold where: all of them in sim/ and views/, all but
// filesystem and concurrency where the ladder records and writes (those
// packages write files, and work beside the engine on goroutines whose
// order they fix). tools/detcheck runs them, and `make check` runs it.
//
// An exception is written where it is made, as a comment the analyzer
// reads:
//
//	//determinism:order-free each key writes its own entry of out
//	for k, v := range m {
//
// The rule is the analyzer's (order-free for maporder, platform-math for
// platformmath, the analyzer's name otherwise) and the reason is
// required. In a function body it covers what starts on the next line
// (or, trailing code, its own line); as a declaration's doc comment, the
// declaration; at the top level of a file outside any declaration, the
// file. One that covers nothing is itself a finding, so an exception
// cannot outlive the code it excused. The driver lists every exception
// with the number of findings it covers.
package determinism
