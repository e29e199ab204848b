package facts

import "time"

// SetBatch and SetMergeEvery let tests stop a pass between small batches
// and see it merge.
func SetBatch(s *Store, n int)                { s.batch = n }
func SetMergeEvery(s *Store, d time.Duration) { s.mergeEvery = d }

// OrderMatch is what an order is found by in the name index.
var OrderMatch = orderMatch
