//go:build !race

package app

// endToEndEvery: without the race detector every mail is delivered.
const endToEndEvery = 1
