//go:build race

package app

// endToEndEvery: with the race detector (make test) extraction is several
// times slower, so the end-to-end test delivers every fourth mail: still
// every set and kind, in seconds. Its losses can only be fewer.
const endToEndEvery = 4
