// Package detmath provides exponential functions, and the natural
// logarithm, whose results have the same bits on every platform, CPU and
// compiler setting the engine runs on.
//
// # Why not the math package
//
// The engine's decay curves (belief confidence, rumour half-lives) feed
// values that end up in goldens, hashes and branch decisions, so a
// difference in the last bit is a different run. math.Exp does not promise
// that. On amd64 it is assembly that picks one of two code paths at run
// time by whether the CPU has fused multiply-add: the same binary gives
// math.Exp(708) = 3.023383144276055e+307 on a CPU with FMA and
// 3.0233831442760547e+307 with GODEBUG=cpu.fma=off. That assembly also
// returns +Inf from about x = 709.4361 up, where the true result is still
// finite. On arm64 math.Exp and math.Exp2 are different assembly again,
// and where the math package runs pure Go, the compiler may fuse x*y + z
// into one instruction (always on arm64, and on amd64 built with
// GOAMD64=v3), skipping a rounding and moving the last bit.
//
// # Model
//
// [Exp] and [Exp2] are the fdlibm algorithm that the math package's pure-Go
// code also follows, written so that no compiler may fuse:
//
//  1. Reduce: pick the integer k nearest x/ln2 (for Exp2, nearest x) and
//     write the remainder r, with |r| <= ln2/2, as hi - lo, where ln2 is
//     split into a high part with trailing zero bits and a tiny low part.
//  2. Approximate e**r by 1 + r + r*c/(2-c), where c = r - P(r*r) and P is
//     fdlibm's degree-5 minimax polynomial, evaluated by Horner's rule.
//  3. Scale by 2**k with math.Ldexp, which is exact bit manipulation except
//     for one correctly rounded multiply when the result is subnormal.
//
// The Go specification lets an implementation fuse a multiplication with a
// following addition or subtraction, even across statements, unless the
// product is explicitly converted: float64(x*y) + z must round x*y first.
// Every product here that reaches an addition or subtraction is wrapped in
// such a conversion. With every operation then a single IEEE 754 binary64
// operation in round-to-nearest-even, the result is fixed by the standard,
// not by the machine.
//
// # Accuracy and special cases
//
// Results are within 1 ulp of the exact value; they are not always the
// correctly rounded one (Exp2(0.5) is 1 ulp above it), which does not
// matter here: what matters is that they never vary. Special cases match
// the math package: NaN gives NaN, +Inf and overflow give +Inf, -Inf and
// underflow give 0, Exp of |x| < 2**-28 is 1 + x, and Exp2 is exact at
// every integer whose power of two is representable.
//
// # How it is checked
//
// The tests pin more than 100 inputs to exact output bits, including inputs
// found to change by one ulp when a product in the polynomial is fused on
// amd64 v3 or arm64, so a lost conversion fails the vectors there. They
// must pass unchanged under GOARCH=386, GOAMD64=v3 and GODEBUG=cpu.fma=off.
// On 386, where the math package runs this same code unfused, a 200,000
// input sweep must agree with math.Exp and math.Exp2 bit for bit; elsewhere
// the sweep must stay within 1 ulp of them, and a math/big Taylor series
// reference confirms the error bound and settles the rare inputs where the
// amd64 assembly of math.Exp is itself more than 1 ulp off.
package detmath
