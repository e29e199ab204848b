package gateway

// DisableVerification makes s skip signature verification, as the
// benchmark's baseline and the JSON-RPC fuzz test need. It exists only in
// tests: no configuration of the node can reach it.
func DisableVerification(s *Server) { s.noVerify = true }
