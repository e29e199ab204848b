package eval

import (
	"mailnode/mail/msgauth"

	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
)

// KItineraryPaths are where Debian's libkpimitinerary-bin puts the
// extractor (KF5 and KF6 builds).
var KItineraryPaths = []string{
	"/usr/lib/x86_64-linux-gnu/libexec/kf5/kitinerary-extractor",
	"/usr/lib/x86_64-linux-gnu/libexec/kf6/kitinerary-extractor",
	"/usr/lib/aarch64-linux-gnu/libexec/kf5/kitinerary-extractor",
	"/usr/lib/aarch64-linux-gnu/libexec/kf6/kitinerary-extractor",
	"/usr/libexec/kitinerary-extractor",
}

// FindKItinerary returns the first extractor binary that exists.
func FindKItinerary() string {
	for _, p := range KItineraryPaths {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("kitinerary-extractor"); err == nil {
		return p
	}
	return ""
}

// TravelRun is one extractor's travel entities and its time per mail.
type TravelRun struct {
	Found   []Entity
	PerMail []time.Duration // in the order of the mails
}

// Median is the median time per mail.
func (r TravelRun) Median() time.Duration { return median(r.PerMail) }

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// RunMailnode extracts every mail, timing parse and extraction together as
// the node runs them; each mail's time is the median of reps runs.
func RunMailnode(mails []Mail, reps int) TravelRun {
	var r TravelRun
	opt := msgauth.Checker{}
	for _, m := range mails {
		var res extract.Result
		times := make([]time.Duration, reps)
		for i := range reps {
			start := time.Now()
			msg := mime.Parse(m.Raw)
			res = extract.Extract(msg, opt.Check(msg, m.Raw))
			times[i] = time.Since(start)
		}
		r.Found = append(r.Found, SegmentEntities(m.Name, res.Facts)...)
		r.PerMail = append(r.PerMail, median(times))
	}
	return r
}

// RunKItinerary runs KItinerary's command-line extractor once per mail, as
// a mail client would hand it a message, and reads its JSON-LD output.
// The time per mail includes starting the process; Startup measures that
// part alone.
func RunKItinerary(ctx context.Context, bin string, mails []Mail) (TravelRun, error) {
	var r TravelRun
	dir, err := os.MkdirTemp("", "mailnode-eval-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	for _, m := range mails {
		path := filepath.Join(dir, m.Name+".eml")
		if err := os.WriteFile(path, m.Raw, 0o600); err != nil {
			return r, err
		}
		out, d, err := runKItinerary(ctx, bin, path)
		if err != nil {
			return r, fmt.Errorf("kitinerary-extractor on %s: %w", m.Name, err)
		}
		r.Found = append(r.Found, SchemaEntities(m.Name, out)...)
		r.PerMail = append(r.PerMail, d)
	}
	return r, nil
}

// KItineraryStartup is the median time of runs on a message with nothing
// to extract: the part of each run that is process start and loading.
func KItineraryStartup(ctx context.Context, bin string, runs int) (time.Duration, error) {
	dir, err := os.MkdirTemp("", "mailnode-eval-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "empty.eml")
	empty := "From: someone@example.org\r\nSubject: hello\r\nContent-Type: text/plain\r\n\r\nHello.\r\n"
	if err := os.WriteFile(path, []byte(empty), 0o600); err != nil {
		return 0, err
	}
	var ds []time.Duration
	for range runs {
		_, d, err := runKItinerary(ctx, bin, path)
		if err != nil {
			return 0, err
		}
		ds = append(ds, d)
	}
	return median(ds), nil
}

func runKItinerary(ctx context.Context, bin, path string) ([]byte, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, path)
	cmd.Env = append(os.Environ(), "QT_QPA_PLATFORM=offscreen")
	start := time.Now()
	out, err := cmd.Output()
	return out, time.Since(start), err
}
