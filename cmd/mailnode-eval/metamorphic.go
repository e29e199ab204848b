package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"mailnode/extract/eval"
)

// metaSets are the labelled development sets the metamorphic part
// rewrites: never the headline.
var metaSets = []string{"public-dev", "unseen", "handwritten", "public/kitinerary", "public/mail-and-packages"}

// metamorphic prints the metamorphic part (eval.Metamorphic): each mail
// client's rewriting of the development mails, scored against the same
// labels beside the same mails untransformed.
func metamorphic(data string, verbose bool, stdout, stderr io.Writer) bool {
	sets := map[string]eval.Public{}
	for _, name := range metaSets {
		p, err := eval.LoadPublic(data + "/" + name)
		if err != nil {
			fmt.Fprintln(stderr, "mailnode-eval:", err)
			return false
		}
		sets[name] = p
	}
	rows := eval.Metamorphic(sets, eval.Transformations)
	fmt.Fprintf(stdout, "Metamorphic part: the development mails (%s) as mail clients forward, quote, convert and re-encode them, "+
		"scored against the same labels; each cell is precision / recall after (before) on the mails the rewriting applies to. "+
		"The sender's fields (order domain and merchant, bill domain and issuer) are scored apart, in the second table.\n\n", strings.Join(metaSets, ", "))
	fmt.Fprintf(stdout, "| transformation | mails |")
	for _, kind := range eval.TableKinds {
		fmt.Fprintf(stdout, " %s |", kind)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "|---|---|"+strings.Repeat("---|", len(eval.TableKinds)))
	cell := func(after, before eval.Score) string {
		if after.Expected == 0 && after.Predicted == 0 && before.Predicted == 0 {
			return "–"
		}
		return fmt.Sprintf("%.3f / %.3f (%.3f / %.3f)", after.Precision(), after.Recall(), before.Precision(), before.Recall())
	}
	for _, r := range rows {
		fmt.Fprintf(stdout, "| %s | %d |", r.Name, r.Mails)
		for _, kind := range eval.TableKinds {
			fmt.Fprintf(stdout, " %s |", cell(r.After[kind], r.Before[kind]))
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintln(stdout, "\nThe sender's fields: precision / recall after (before)")
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "| transformation | order domain, merchant | bill domain, issuer |")
	fmt.Fprintln(stdout, "|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(stdout, "| %s | %s | %s |\n", r.Name, cell(r.Sender["order"], r.SenderBefore["order"]), cell(r.Sender["bill"], r.SenderBefore["bill"]))
	}
	fmt.Fprintln(stdout)
	for _, r := range rows[1:] {
		fmt.Fprintf(stdout, "- %s: %s\n", r.Name, r.About)
	}
	if verbose {
		for _, r := range rows[1:] {
			lines := make([]string, 0, len(r.Misses))
			for _, m := range r.Misses {
				lines = append(lines, fmt.Sprintf("  %s %s %s %s: want %q, got %q", r.Name, m.Kind, m.Key, m.Field, m.Want, m.Got))
			}
			slices.Sort(lines)
			for _, l := range lines {
				fmt.Fprintln(stdout, l)
			}
		}
	}
	fmt.Fprintln(stdout)
	return true
}
