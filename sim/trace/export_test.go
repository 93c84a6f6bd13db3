package trace

// FlushAt exposes how much a Writer gathers before it writes, so the specs
// can put a record boundary exactly there.
const FlushAt = flushAt
