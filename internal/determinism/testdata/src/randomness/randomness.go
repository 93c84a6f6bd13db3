package randomness

import (
	crand "crypto/rand" // want `imports crypto/rand`
	"hash/maphash"      // want `imports hash/maphash`
	"math/rand/v2"      // want `imports math/rand/v2`
)

var _ = rand.IntN
var _ = crand.Read
var _ maphash.Seed
