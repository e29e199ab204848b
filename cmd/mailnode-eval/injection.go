package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"mailnode/app/injectioneval"
)

// corpusDir is an attack corpus to measure: its name and directory ("" to
// skip it).
type corpusDir struct{ name, dir string }

// injection measures the attack corpora through a demo node's read tools
// and prints the tables; it fails when an unverified sender's contact, a
// secret or an error reaches an agent, or a call is slow ((b), (c), (e)).
func injection(dirs []corpusDir, verbose bool, stdout, stderr io.Writer) int {
	var corpora []injectioneval.Corpus
	for _, c := range dirs {
		if c.dir == "" {
			continue
		}
		corpus, err := injectioneval.Load(c.name, c.dir)
		if err != nil {
			fmt.Fprintln(stderr, "mailnode-eval:", err)
			return 1
		}
		corpora = append(corpora, corpus)
	}
	dir, err := os.MkdirTemp("", "mailnode-injection-")
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	rep, err := injectioneval.Measure(context.Background(), dir, corpora, injectioneval.Options{})
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}
	injectioneval.Print(stdout, rep, verbose)
	for _, r := range rep.Corpora {
		if len(r.Contacts)+len(r.Secrets)+len(r.Errors)+len(r.Slow) > 0 {
			fmt.Fprintln(stdout, "\nGoals not met: no unverified sender's contact, no secret, no error and no call over 100 ms in any output.")
			return 1
		}
	}
	return 0
}
