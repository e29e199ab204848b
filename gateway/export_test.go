package gateway

// DisableVerification makes s skip signature verification, as the
// benchmark's baseline and the JSON-RPC fuzz test need. It exists only in
// tests: no configuration of the node can reach it.
func DisableVerification(s *Server) { s.noVerify = true }

// Unlimited raises s's rate limits out of reach, for benchmarks that
// measure throughput rather than the limits; the buckets are still
// taken from, so their cost is measured.
func Unlimited(s *Server) {
	s.verifier.Admit = newLimiters(RateLimit{PerAgent: 1e9, Burst: 1e9, PerSite: 1e9, SiteBurst: 1e9}, s.cfg.Sites, s.cfg.Now).admit
}

// Limit sets s's rate limits to rl.
func Limit(rl RateLimit) func(*Server) {
	return func(s *Server) { s.verifier.Admit = newLimiters(rl, s.cfg.Sites, s.cfg.Now).admit }
}
