package facts

import "time"

// SetBatch and SetMergeEvery let tests stop a pass between small batches
// and see it merge.
func SetBatch(s *Store, n int)                { s.batch = n }
func SetMergeEvery(s *Store, d time.Duration) { s.mergeEvery = d }
