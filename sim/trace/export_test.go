package trace

// FlushAt exposes how much a Writer gathers before it writes, so the specs
// can put a record boundary exactly there.
const FlushAt = flushAt

// PipeBatch exposes how many records a Pipe hands over at a time, so the
// specs can emit several batches and place a record in the second.
const PipeBatch = batchRecords

// PipeBatches exposes how many batches a Pipe keeps in flight.
const PipeBatches = batchesInFlight
