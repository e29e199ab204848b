package app

import "mailnode/extract/facts"

// OnFactsProgress has f see each report of n's facts passes, after the
// status, on the pass's goroutine: a test holds a pass there. Set it
// before Start.
func OnFactsProgress(n *Node, f func(facts.Progress)) { n.factsProgress = f }

// StopAfterFactsBatch has n stop, as Stop does, as soon as a facts pass
// has stored its first batch: a stop in the middle of a pass.
func StopAfterFactsBatch(n *Node) {
	n.factsProgress = func(p facts.Progress) {
		if p.Done > 0 && !p.Finished {
			n.mu.Lock()
			cancel := n.cancel
			n.mu.Unlock()
			cancel()
		}
	}
}
