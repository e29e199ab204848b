//go:build !race

package connlimittest

// Tunnels is how many tunnels from one address the relay tests bring up.
const Tunnels = 1000
