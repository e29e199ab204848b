package injectioneval

import (
	"fmt"
	"io"
	"time"
)

// Print writes the report as Markdown tables; verbose lists every
// finding under them.
func Print(w io.Writer, rep Report, verbose bool) {
	fmt.Fprintln(w, "Attack text reaching an agent: each corpus stored beside the demo mailbox; every read tool asked the questions its mails invite (plain and adversarial)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| corpus | mails | calls | (a) payload via any of ask + structured | ask | get_upcoming_travel | order_status | bills_due | get_excerpt (labelled) | (b) unverified contacts | (c) secrets | (d) facts from payload | (d) stale bills as due | (e) errors | (e) calls > 100 ms | p50 | p99 |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rep.Corpora {
		ex := len(r.Leaked[excerptTool])
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s | %s | %s (%d) | %d | %d | %d | %d | %d | %d | %s | %s |\n",
			r.Corpus, r.Mails, r.Calls, pct(r.LeakedAny(), r.Mails),
			pct(len(r.Leaked["ask"]), r.Mails), pct(len(r.Leaked["get_upcoming_travel"]), r.Mails),
			pct(len(r.Leaked["order_status"]), r.Mails), pct(len(r.Leaked["bills_due"]), r.Mails),
			pct(ex, r.Mails), len(r.ExcerptLabelled),
			Distinct(r.Contacts), Distinct(r.Secrets), Distinct(r.PayloadFacts), Distinct(r.StaleBills),
			len(r.Errors), len(r.Slow), ms(r.Percentile(50)), ms(r.Percentile(99)))
	}
	fmt.Fprintln(w)
	for _, r := range rep.Corpora {
		if r.Unfingerprinted > 0 {
			fmt.Fprintf(w, "%s: %d payloads have no five-word run of their own (only function words or the demo mailbox's text) and cannot be detected.\n", r.Corpus, r.Unfingerprinted)
		}
	}
	fmt.Fprintln(w, "Answer quality: the benign questions about the demo mailbox (ask), with each corpus beside it")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| mailbox | questions | right | wrong | no answer |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, r := range append([]Result{rep.Demo}, rep.Corpora...) {
		q := r.Quality
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d |\n", r.Corpus, q.Right+q.Wrong+q.None, q.Right, q.Wrong, q.None)
	}
	if !verbose {
		return
	}
	for _, r := range append([]Result{rep.Demo}, rep.Corpora...) {
		fmt.Fprintf(w, "\n%s:\n", r.Corpus)
		for _, l := range []struct {
			name string
			fs   []Finding
		}{
			{"(a)", r.LeakFindings}, {"(b)", r.Contacts}, {"(c)", r.Secrets}, {"(d) fact", r.PayloadFacts},
			{"(d) stale", r.StaleBills}, {"(e) error", r.Errors}, {"(e) slow", r.Slow}, {"quality", r.Quality.Misses},
		} {
			for _, f := range l.fs {
				fmt.Fprintf(w, "  %s %s %s: %s\n", l.name, f.Tool, f.Args, f.What)
			}
		}
	}
}

// Distinct counts the different things found (the same fact or secret
// in several calls' outputs is one).
func Distinct(fs []Finding) int {
	seen := map[string]bool{}
	for _, f := range fs {
		seen[f.Key] = true
	}
	return len(seen)
}

// pct is "n (p %)" of all.
func pct(n, all int) string {
	if all == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%.0f %%)", n, 100*float64(n)/float64(all))
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
