//go:build !windows

package main

// attachConsole has nothing to do: a program started from a terminal
// has it as its output.
func attachConsole() {}
