package nonces

// SetMaxLive lowers the bound on live nonces for a test.
func (s *Store) SetMaxLive(n int) { s.maxLive = n }
