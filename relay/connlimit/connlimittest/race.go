//go:build race

package connlimittest

// Tunnels is how many tunnels from one address the relay tests bring up:
// fewer under the race detector, whose TLS handshakes on a shared 2-core
// machine are ten times slower or more (before and after the cap alike).
const Tunnels = 100
