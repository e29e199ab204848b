// Command mailnode-eval measures the extractors on the evaluation set in
// extract/eval/testdata: field-level precision and recall per kind, the
// shuffled-replay check, and redaction of the planted secrets. `make eval`
// runs it; docs/benchmarks.md records the latest table.
//
// With -injection it measures instead what attack mails stored beside the
// demo mailbox make the read tools return (app/injectioneval; `make
// eval-injection`, docs/extract.md "Measuring injection").
package main

import (
	"mailnode/mail/msgauth"

	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"mailnode/extract"
	"mailnode/extract/eval"
	"mailnode/extract/lang"
	"mailnode/gateway/redact"
	"mailnode/mail/mime"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mailnode-eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "extract/eval/testdata", "the evaluation set")
	generate := fs.Bool("generate", false, "regenerate the synthetic orders and bills in DATA/synthetic, then evaluate")
	verbose := fs.Bool("v", false, "list every missed or wrong field")
	importDir := fs.String("import", "", "import KItinerary's test data from `DIR` (the corpus's kitinerary/) into DATA/public/kitinerary, then evaluate")
	importUntuned := fs.String("import-untuned", "", "import the public material no rule was tuned on from `DIR` (../shared/corpus) into DATA/public-headline and DATA/public-dev, then evaluate")
	kit := fs.String("kitinerary", eval.FindKItinerary(), "KItinerary's extractor `binary` to compare with on the travel mails (\"\" to skip)")
	conf := fs.String("conformance", "../shared/corpus", "the corpus `dir` whose KItinerary structured inputs (boarding passes, Wallet passes, calendars, JSON-LD, microdata) are checked against KItinerary's expected outputs (\"\" or a missing dir to skip)")
	metaMisses := fs.Bool("metamorphic-misses", false, "list the metamorphic part's missed or wrong fields (every transformed development mail's)")
	inj := fs.Bool("injection", false, "measure prompt injection through the read tools instead (app/injectioneval)")
	bipia := fs.String("bipia", "app/injectioneval/testdata/bipia", "the BIPIA injection corpus `dir` (-injection; \"\" to skip)")
	styles := fs.String("styles", "app/injectioneval/testdata/styles", "the injection corpus in other styles `dir` (-injection; \"\" to skip)")
	outside := fs.String("outside", "app/injectioneval/testdata/outside", "the injection corpus an outside tester wrote `dir` (-injection; \"\" to skip)")
	flood := fs.String("flood", "app/injectioneval/testdata/flood", "the look-alike facts corpus `dir` (-injection; \"\" to skip)")
	only := fs.String("score", "", "score only the mails in `dir` (*.eml and a labels.json as in DATA/handwritten) and print their table; -v lists the misses. For a set kept outside the repository, such as mail of your own")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *inj {
		return injection([]corpusDir{{"bipia", *bipia}, {"styles", *styles}, {"outside", *outside}, {"flood", *flood}}, *verbose, stdout, stderr)
	}
	if *only != "" {
		return scoreDir(*only, *verbose, stdout, stderr)
	}
	ok := true
	dev := map[string]eval.Score{}
	if *importDir != "" {
		p, err := eval.ImportKItinerary(*importDir)
		if err == nil {
			err = p.Write(*data + "/public/kitinerary")
		}
		if err != nil {
			fmt.Fprintln(stderr, "mailnode-eval:", err)
			return 1
		}
	}
	if *importUntuned != "" {
		if err := writeUntuned(*importUntuned, *data); err != nil {
			fmt.Fprintln(stderr, "mailnode-eval:", err)
			return 1
		}
	}
	// The headline first: public mail written by others that no rule was
	// tuned on, whose misses are never printed
	// (extract/eval/testdata/public-headline/README.md).
	head, err := eval.LoadPublic(*data + "/public-headline")
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}
	headScores := eval.ScoreMails(head)
	// The rest of that material, and the mails written here that were once
	// the headline, are development data: reported, their misses shown.
	pubDev, err := eval.LoadPublic(*data + "/public-dev")
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}
	pubDevScores, pubDevMisses := eval.ScoreMailsShowing(pubDev)
	unseen, err := eval.LoadPublic(*data + "/unseen")
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}
	unseenScores, unseenMisses := eval.ScoreMailsShowing(unseen)
	var headline strings.Builder
	if !travel(*data+"/public/kitinerary", *kit, *verbose, dev, &headline, stderr) {
		ok = false
	}
	if !publicOrders(*data+"/public/mail-and-packages", *verbose, dev, &headline, stderr) {
		ok = false
	}
	dir := *data + "/synthetic"
	if *generate {
		if err := eval.Generate(1, 60, 45, 40).Write(dir); err != nil {
			fmt.Fprintln(stderr, "mailnode-eval:", err)
			return 1
		}
	}
	syn, err := eval.Load(dir)
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}

	scores, misses := eval.Compare(syn.Expected, eval.Entities(extract.Merge(eval.Extracted(syn.Mails))))
	if s, ok := scores[extract.KindBill]; ok {
		dev[extract.KindBill] = s
	}
	// The hand-written development mails: other senders, layouts and
	// languages than the public sets, their misses shown with -v.
	hand, err := eval.LoadPublic(*data + "/handwritten")
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}
	handScores, handMisses := eval.ScoreMailsShowing(hand)
	for _, kind := range eval.TableKinds {
		s := dev[kind]
		s.Add(handScores[kind])
		dev[kind] = s
	}
	fmt.Fprintf(&headline, "Hand-written development mails (extract/eval/testdata/handwritten: %d mails; booking-system printouts, plain-text itineraries, hotels, bills, carriers' and shops' parcel mails in %d languages)\n\n", len(hand.Mails), len(lang.Languages()))
	fmt.Fprintln(&headline, "| kind | fields | precision | recall |")
	fmt.Fprintln(&headline, "|---|---|---|---|")
	for _, kind := range eval.TableKinds {
		s := handScores[kind]
		fmt.Fprintf(&headline, "| %s | %d | %s |\n", kind, s.Expected, eval.Cell(s))
	}
	if *verbose {
		for _, m := range handMisses {
			fmt.Fprintf(&headline, "  %s %s %s: want %q, got %q\n", m.Kind, m.Key, m.Field, m.Want, m.Got)
		}
	}
	fmt.Fprintln(&headline)
	// Invoice PDFs attached to mails that say nothing themselves.
	inv, err := eval.LoadInvoices(*data + "/public/invoices")
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}
	invScores, invMisses := eval.ScoreMailsShowing(inv)
	fmt.Fprintf(&headline, "Invoice PDFs (invoice2data's real invoices, MIT: %d PDFs attached to mails whose text says nothing; number, amount, due date)\n\n", len(inv.Mails))
	fmt.Fprintln(&headline, "| kind | fields | precision | recall |")
	fmt.Fprintln(&headline, "|---|---|---|---|")
	fmt.Fprintf(&headline, "| bill | %d | %s |\n", invScores[extract.KindBill].Expected, eval.Cell(invScores[extract.KindBill]))
	if *verbose {
		for _, m := range invMisses {
			fmt.Fprintf(&headline, "  %s %s %s: want %q, got %q\n", m.Kind, m.Key, m.Field, m.Want, m.Got)
		}
	}
	fmt.Fprintln(&headline)
	for _, kind := range eval.TableKinds {
		s := dev[kind]
		s.Add(pubDevScores[kind])
		s.Add(unseenScores[kind])
		dev[kind] = s
	}
	fmt.Fprintf(stdout, "Public mail no rule was tuned on (the headline; extract/eval/testdata/public-headline: %d mails written by others, "+
		"KItinerary's, Mail and Packages', invoice2data's and the ZUGFeRD corpus's inputs no rule was tuned on, half of them by a hash of their path; misses not shown) beside the development part\n\n", len(head.Mails))
	fmt.Fprintln(stdout, "| kind | headline fields | headline precision | headline recall | development precision | development recall | goal (headline) |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|")
	headOK := true
	for _, kind := range eval.TableKinds {
		u := headScores[kind]
		fmt.Fprintf(stdout, "| %s | %d | %s | %s | P ≥ 0.95, R ≥ 0.85 |\n", kind, u.Expected, eval.Cell(u), eval.Cell(dev[kind]))
		headOK = headOK && u.Precision() >= 0.95 && u.Recall() >= 0.85
	}
	fmt.Fprintln(stdout, "\nDevelopment: the other half of that public material, flight, train, bus and hotel from KItinerary's mails, orders (parcels) from Mail and Packages', bills from the synthetic set, the hand-written mails of every kind and the mails written here as unseen batches.")
	fmt.Fprintln(stdout)
	printTable(stdout, fmt.Sprintf("Public development mails (extract/eval/testdata/public-dev: %d mails, the other half of the untuned public material)", len(pubDev.Mails)), pubDevScores, pubDevMisses, *verbose)
	printTable(stdout, fmt.Sprintf("Mails written here as unseen batches (extract/eval/testdata/unseen: %d mails; development data since issue 46, no longer the headline)", len(unseen.Mails)), unseenScores, unseenMisses, *verbose)
	fmt.Fprint(stdout, headline.String())
	if !conformance(*conf, *data+"/public-headline/README.md", *verbose, stdout, stderr) {
		return 1
	}
	if !metamorphic(*data, *metaMisses, stdout, stderr) {
		return 1
	}
	ok = ok && headOK
	fmt.Fprintf(stdout, "Synthetic orders and bills: %d mails, %d orders, %d bills (JSON-LD, microdata, HTML-only, plain text; EN/DE/FR)\n\n",
		len(syn.Mails), count(syn.Expected, extract.KindOrder), count(syn.Expected, extract.KindBill))
	fmt.Fprintln(stdout, "| kind | fields | precision | recall |")
	fmt.Fprintln(stdout, "|---|---|---|---|")
	for _, kind := range []string{extract.KindOrder, extract.KindBill} {
		s := scores[kind]
		fmt.Fprintf(stdout, "| %s | %d | %.3f | %.3f |\n", kind, s.Expected, s.Precision(), s.Recall())
		ok = ok && s.Precision() >= 0.97 && s.Recall() >= 0.90
	}
	if *verbose {
		for _, m := range misses {
			fmt.Fprintf(stdout, "  %s %s %s: want %q, got %q\n", m.Kind, m.Key, m.Field, m.Want, m.Got)
		}
	}

	same, total := eval.ShuffleCheck(syn.Mails, 20, 1)
	fmt.Fprintf(stdout, "\nShuffled replay (20 random orders per sequence): %d of %d sequences identical to in-order replay\n", same, total)
	ok = ok && same == total

	missed := redactionMisses(syn)
	fmt.Fprintf(stdout, "Redaction: %d planted secrets (one-time, login and pickup codes, card numbers, IBANs), %d missed\n", len(syn.Secrets), len(missed))
	for _, m := range missed {
		fmt.Fprintln(stdout, "  missed:", m)
	}
	ok = ok && len(missed) == 0
	if !ok {
		fmt.Fprintln(stdout, "\nGoals not met: on the headline part precision >= 0.95 and recall >= 0.85 per kind; on the development part precision >= 0.97 and recall >= 0.90 per kind, recall and 20x speed against KItinerary; 100% shuffled replay, no redaction miss.")
		return 1
	}
	return 0
}

func count(es []eval.Entity, kind string) int {
	n := 0
	for _, e := range es {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// redactionMisses redacts every mail's text as ask and get_excerpt do
// (strictly in mails that announce a code) and lists the planted secrets
// still visible.
func redactionMisses(s eval.Synthetic) []string {
	var out strings.Builder
	for _, m := range s.Mails {
		msg := mime.Parse(m.Raw)
		clean := redact.Text
		if redact.AnnouncesCode(msg.Subject + "\n" + msg.Text + msg.HTMLText) {
			clean = redact.Strict
		}
		for _, text := range []string{msg.Subject, msg.Text, msg.HTMLText} {
			for _, line := range strings.Split(text, "\n") {
				out.WriteString(clean(line))
				out.WriteByte('\n')
			}
		}
	}
	var missed []string
	all := out.String()
	for _, sec := range s.Secrets {
		if strings.Contains(all, sec) {
			missed = append(missed, sec)
		}
	}
	slices.Sort(missed)
	return missed
}

// travel scores the public travel mails, and KItinerary on the same mails
// in the same run when its extractor is installed.
func travel(dir, kit string, verbose bool, dev map[string]eval.Score, stdout, stderr io.Writer) bool {
	p, err := eval.LoadPublic(dir)
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return false
	}
	ours := eval.RunMailnode(p.Mails, 21)
	var theirs eval.TravelRun
	var startup time.Duration
	if kit != "" {
		ctx := context.Background()
		if theirs, err = eval.RunKItinerary(ctx, kit, p.Mails); err == nil {
			startup, err = eval.KItineraryStartup(ctx, kit, 11)
		}
		if err != nil {
			fmt.Fprintln(stderr, "mailnode-eval:", err)
			return false
		}
	}
	kinds := []string{extract.KindFlight, extract.KindTrain, extract.KindBus, extract.KindHotel}
	fmt.Fprintf(stdout, "Public travel mails (KDE KItinerary's test data, CC0): %d mails, %d flight, %d train, %d bus, %d hotel segments\n\n",
		len(p.Mails), count(p.Expected, extract.KindFlight), count(p.Expected, extract.KindTrain), count(p.Expected, extract.KindBus), count(p.Expected, extract.KindHotel))
	ourScores, ourMisses := eval.ComparePerMail(p.Expected, ours.Found)
	for _, kind := range kinds {
		dev[kind] = ourScores[kind]
	}
	theirScores, theirMisses := eval.ComparePerMail(p.Expected, theirs.Found)
	fmt.Fprintln(stdout, "| kind | fields | mailnode precision | mailnode recall | KItinerary precision | KItinerary recall |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|")
	ok := true
	var ourAll, theirAll eval.Score
	for _, kind := range append(kinds, "all") {
		o, t := ourScores[kind], theirScores[kind]
		if kind == "all" {
			o, t = ourAll, theirAll
		} else {
			ourAll.Add(o)
			theirAll.Add(t)
		}
		them := "not run | not run"
		if kit != "" {
			them = fmt.Sprintf("%.3f | %.3f", t.Precision(), t.Recall())
			ok = ok && o.Recall() >= t.Recall()
		}
		fmt.Fprintf(stdout, "| %s | %d | %.3f | %.3f | %s |\n", kind, o.Expected, o.Precision(), o.Recall(), them)
	}
	fmt.Fprintf(stdout, "\nTime per mail (median over mails): mailnode %v (parse and extract, median of 21 runs each)", ours.Median().Round(time.Microsecond))
	if kit != "" {
		k := theirs.Median()
		fmt.Fprintf(stdout, "; KItinerary %v per run, of which %v is starting the process (median of 11 runs on an empty mail)\n",
			k.Round(100*time.Microsecond), startup.Round(100*time.Microsecond))
		ratio := float64(k) / float64(ours.Median())
		net := float64(k-startup) / float64(ours.Median())
		fmt.Fprintf(stdout, "Speed ratio: %.0fx per run, %.0fx without KItinerary's process start\n", ratio, net)
		ok = ok && net >= 20
	} else {
		fmt.Fprintln(stdout, "\nKItinerary not installed: `make eval-deps` installs it (Debian libkpimitinerary-bin).")
	}
	if verbose {
		for _, m := range ourMisses {
			fmt.Fprintf(stdout, "  mailnode %s %s %s: want %q, got %q\n", m.Kind, m.Key, m.Field, m.Want, m.Got)
		}
		for _, m := range theirMisses {
			fmt.Fprintf(stdout, "  KItinerary %s %s %s: want %q, got %q\n", m.Kind, m.Key, m.Field, m.Want, m.Got)
		}
	}
	fmt.Fprintln(stdout)
	return ok
}

// conformance prints the structured-source check (eval.ImportConformance)
// when the corpus is there: each folder's flights, trains and stays
// against KItinerary's expected outputs. It sets no goal.
func conformance(dir, headlineReadme string, verbose bool, stdout, stderr io.Writer) bool {
	if dir == "" {
		return true
	}
	if _, err := os.Stat(dir + "/kitinerary"); err != nil {
		// Said, not silent: a clone elsewhere than beside ../shared
		// would otherwise lose the part without a word.
		fmt.Fprintf(stdout, "Structured sources against KItinerary's expected outputs: skipped, no %s/kitinerary (-conformance names the corpus)\n\n", dir)
		return true
	}
	readme, err := os.ReadFile(headlineReadme)
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return false
	}
	us, err := eval.ImportConformance(dir, eval.HeadlineList(readme))
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return false
	}
	byFolder, misses := eval.ScoreConformance(us)
	fmt.Fprintf(stdout, "Structured sources against KItinerary's expected outputs (%s/kitinerary: %d inputs not in the headline, each carried as a mail carries it; "+
		"flights also by day, every reservation by status)\n\n", dir, len(us))
	fmt.Fprintln(stdout, "| folder | inputs | flight fields | flight P | flight R | train fields | train P | train R | bus fields | bus P | bus R | hotel fields | hotel P | hotel R |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	inputs := map[string]int{}
	for _, u := range us {
		inputs[eval.ConformanceFolder(u.Path)]++
	}
	all := map[string]eval.Score{}
	row := func(name string, n int, scores map[string]eval.Score) {
		fmt.Fprintf(stdout, "| %s | %d", name, n)
		for _, kind := range []string{extract.KindFlight, extract.KindTrain, extract.KindBus, extract.KindHotel} {
			s := scores[kind]
			fmt.Fprintf(stdout, " | %d | %s", s.Expected, eval.Cell(s))
		}
		fmt.Fprintln(stdout, " |")
	}
	for _, folder := range eval.ConformanceFolders {
		for kind, s := range byFolder[folder] {
			a := all[kind]
			a.Add(s)
			all[kind] = a
		}
		row(folder, inputs[folder], byFolder[folder])
	}
	row("all", len(us), all)
	if verbose {
		for _, m := range misses {
			fmt.Fprintf(stdout, "  %s %s %s: want %q, got %q\n", m.Kind, m.Key, m.Field, m.Want, m.Got)
		}
	}
	fmt.Fprintln(stdout)
	return true
}

// publicOrders scores the hand-labelled real shipping and order mails, mail
// by mail.
func publicOrders(dir string, verbose bool, dev map[string]eval.Score, stdout, stderr io.Writer) bool {
	p, err := eval.LoadPublic(dir)
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return false
	}
	var found []eval.Entity
	for _, m := range p.Mails {
		found = append(found, eval.MailOrders(m.Name, mime.Parse(m.Raw), m.Raw, msgauth.Checker{})...)
	}
	scores, misses := eval.ComparePerMail(p.Expected, found)
	s := scores[extract.KindOrder]
	dev[extract.KindOrder] = s
	fmt.Fprintf(stdout, "Public order mails (Mail and Packages' test mails: Amazon, UPS, FedEx, USPS, DHL; MIT; labelled by hand): %d mails, %d orders\n\n",
		len(p.Mails), count(p.Expected, extract.KindOrder))
	fmt.Fprintln(stdout, "| kind | fields | precision | recall |")
	fmt.Fprintln(stdout, "|---|---|---|---|")
	fmt.Fprintf(stdout, "| order | %d | %.3f | %.3f |\n", s.Expected, s.Precision(), s.Recall())
	if verbose {
		for _, m := range misses {
			fmt.Fprintf(stdout, "  %s %s %s: want %q, got %q\n", m.Kind, m.Key, m.Field, m.Want, m.Got)
		}
	}
	fmt.Fprintln(stdout)
	return s.Precision() >= 0.97 && s.Recall() >= 0.90
}

// printTable prints one set's precision and recall per kind, and its
// misses with -v.
func printTable(w io.Writer, title string, scores map[string]eval.Score, misses []eval.Mismatch, verbose bool) {
	fmt.Fprintf(w, "%s\n\n", title)
	fmt.Fprintln(w, "| kind | fields | precision | recall |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, kind := range eval.TableKinds {
		s := scores[kind]
		fmt.Fprintf(w, "| %s | %d | %s |\n", kind, s.Expected, eval.Cell(s))
	}
	if verbose {
		for _, m := range misses {
			fmt.Fprintf(w, "  %s %s %s: want %q, got %q\n", m.Kind, m.Key, m.Field, m.Want, m.Got)
		}
	}
	fmt.Fprintln(w)
}

// scoreDir scores one folder of labelled mails on its own. It exists for
// sets that must stay outside the repository (a held-out set, someone's own
// mail): the folder is read, scored and forgotten, nothing is written.
func scoreDir(dir string, verbose bool, stdout, stderr io.Writer) int {
	p, err := eval.LoadPublic(dir)
	if err != nil {
		fmt.Fprintln(stderr, "mailnode-eval:", err)
		return 1
	}
	if len(p.Mails) == 0 {
		fmt.Fprintf(stderr, "mailnode-eval: no *.eml in %s\n", dir)
		return 1
	}
	scores, misses := eval.ScoreMailsShowing(p)
	printTable(stdout, fmt.Sprintf("%s: %d mails", dir, len(p.Mails)), scores, misses, verbose)
	return 0
}

// writeUntuned imports the public material no rule was tuned on from the
// corpus at dir and writes its two parts, split by eval.HeadlinePath.
func writeUntuned(dir, data string) error {
	us, err := eval.ImportUntuned(dir)
	if err != nil {
		return err
	}
	head, dev := eval.SplitUntuned(us)
	const note = "Imported by `go run ./cmd/mailnode-eval -import-untuned ../shared/corpus` (extract/eval/untuned.go): " +
		"public inputs no rule was tuned on, the %s part by a hash of each input's path (eval.HeadlinePath); labels from each input's " +
		"upstream expected output, the Informed Delivery digests' by hand from what they say. Licences: README.md."
	for _, part := range []struct {
		name, dir string
		set       eval.Public
		headline  bool
	}{{"headline", data + "/public-headline", head, true}, {"development", data + "/public-dev", dev, false}} {
		if err := part.set.WriteWithNote(part.dir, fmt.Sprintf(note, part.name)); err != nil {
			return err
		}
		var readme strings.Builder
		fmt.Fprintf(&readme, untunedReadme, part.name)
		for _, u := range us {
			if eval.HeadlinePath(u.Path) == part.headline {
				fmt.Fprintf(&readme, "| `%s` | `%s.eml` | %d |\n", u.Path, u.Mail.Name, len(u.Expected))
			}
		}
		readme.WriteString(untunedLicences)
		if err := os.WriteFile(part.dir+"/README.md", []byte(readme.String()), 0o644); err != nil {
			return err
		}
		for _, l := range [][2]string{{"kitinerary/LICENSE-CC0-1.0.txt", "LICENSE-kitinerary-CC0-1.0.txt"},
			{"mail-and-packages/LICENSE", "LICENSE-mail-and-packages-MIT.txt"}, {"invoice2data/LICENSE.md", "LICENSE-invoice2data-MIT.md"},
			{"zugferd-corpus/LICENSE", "LICENSE-zugferd-Apache-2.0.txt"}} {
			b, err := os.ReadFile(dir + "/" + l[0])
			if err != nil {
				return err
			}
			if err := os.WriteFile(part.dir+"/"+l[1], b, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

const untunedReadme = `# Public mail no rule was tuned on: the %s part

Written by others, never looked at by anyone writing extraction rules before it was set aside
(issue 46): the inputs of the project's shared corpus that no test, testdata copy or import
used. Imported by ` + "`go run ./cmd/mailnode-eval -import-untuned ../shared/corpus`" + `
(extract/eval/untuned.go says what is taken from where and how each is made a mail); an input
is in the headline part when the first byte of the SHA-256 of its path under the corpus is
even (` + "`eval.HeadlinePath`" + `), in the development part otherwise. The headline part's
misses are never printed; the development part's are, with -v. docs/extract.md ("The
evaluation's parts") lists both.

Labels: KItinerary's expected outputs (its ` + "`.json`" + ` beside each input) reduced to the
scored fields; invoice2data's expected JSON (number when it holds a digit, amount and
currency, due date); the CII XML of each ZUGFeRD invoice (document id, amount due and
currency, due date); USPS Informed Delivery digests by hand from what they say (a package
under "Arriving Today"; a scanned letter is no parcel). Never from what mailnode extracts.

| input (under ../shared/corpus) | mail | labelled entities |
|---|---|---|
`

const untunedLicences = `
## Licences

- KItinerary (github.com/KDE/kitinerary, autotests/, commit f234c0c0): CC0-1.0,
  LICENSE-kitinerary-CC0-1.0.txt.
- Home-Assistant Mail and Packages (github.com/moralmunky/Home-Assistant-Mail-And-Packages,
  tests/test_emails, commit f2a8ecfe): MIT, Copyright (c) 2020 The Mail and Packages Authors,
  LICENSE-mail-and-packages-MIT.txt.
- invoice2data (github.com/invoice-x/invoice2data, tests/, commit bd2fcceb): MIT, Copyright (c)
  2015 Manuel Riel, LICENSE-invoice2data-MIT.md.
- ZUGFeRD corpus (github.com/ZUGFeRD/corpus, Mustang project samples, commit 47b61beb):
  Apache-2.0, LICENSE-zugferd-Apache-2.0.txt; the files are attached unchanged.
`
