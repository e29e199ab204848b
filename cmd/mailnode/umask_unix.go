//go:build unix

package main

import "syscall"

// privateFiles makes every file the process creates owner-only (umask
// 077): the data directory holds the mailbox and keys, and a file a
// library creates with 0644 must not open it to other local users.
func privateFiles() { syscall.Umask(0o077) }
