// Package bench measures the initial sync, the no-change incremental sync,
// peak memory and IDLE latency of `mailnode sync`/`serve` against mbsync
// (Debian isync) on the same generated mailbox in a local Dovecot, in one
// run. It only has benchmarks; `make bench` runs them and prints the table
// that docs/benchmarks.md records.
package bench
