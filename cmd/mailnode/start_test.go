package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestStartCost bounds what every mailnode command pays before it does
// anything: the initialisation of the packages linked in, which the Go
// runtime runs whatever the command. The extractors' phrase sets and a few
// hundred expressions once made it 150 MiB of allocations and half a
// second (`mailnode version` took 0.5 s, a no-change sync 0.6 s); they are
// built on first use now (words.Set, lazyregexp). The child is this test
// binary under another name, so that lazyregexp does not compile eagerly
// as it does in tests; the bound is on bytes allocated, which unlike time
// does not depend on the machine's load.
func TestStartCost(t *testing.T) {
	// Every package initialised, then no test run.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Args[0] = "mailnode" // not NAME.test: see lazyregexp.inTest
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the child: %v\n%s", err, stderr.String())
	}
	var total, most int64
	var heaviest string
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init mailnode/extract @68 ms, 26 ms clock, 6612640 bytes, 29419 allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.ParseInt(f[7], 10, 64)
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		total += n
		if n > most {
			most, heaviest = n, f[1]
		}
	}
	if total == 0 {
		t.Fatalf("no inittrace lines from the child:\n%s", stderr.String())
	}
	t.Logf("packages' initialisation allocated %.1f MiB, the most %s (%.1f MiB)", float64(total)/(1<<20), heaviest, float64(most)/(1<<20))
	const limit = 40 << 20
	if total > limit {
		t.Errorf("packages' initialisation allocated %.1f MiB, more than %d MiB; the most: %s (%.1f MiB)",
			float64(total)/(1<<20), limit>>20, heaviest, float64(most)/(1<<20))
	}
}
