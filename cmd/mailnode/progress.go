package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"mailnode/app"
)

// syncProgress shows a sync's per-folder progress from the node's status
// stream: a bar per folder with messages, bytes, rate and time left on a
// terminal, and one line per folder when it is done otherwise (a log, a
// pipe), so that a first sync of 50,000 messages says what it is doing.
type syncProgress struct {
	out   io.Writer
	tty   bool
	bars  *mpb.Progress
	shown map[string]*folderBar
	done  chan struct{}
}

type folderBar struct {
	bar    *mpb.Bar
	status app.FolderStatus
	mu     sync.Mutex // guards status: the bar's decorators read it
	ended  bool
}

// showProgress follows sub until it closes or stop is called, then
// returns once everything is printed.
func showProgress(out io.Writer, sub <-chan app.Status) (stop func()) {
	p := &syncProgress{out: out, shown: map[string]*folderBar{}, done: make(chan struct{})}
	// A terminal without a width (a pty nobody sized) shows no bars:
	// lines it is.
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) && termWidth(f) > 0 {
		p.tty = true
		p.bars = mpb.New(mpb.WithOutput(out), mpb.WithWidth(32), mpb.WithRefreshRate(200*time.Millisecond))
	}
	quit := make(chan struct{})
	go func() {
		defer close(p.done)
		for {
			select {
			case s, ok := <-sub:
				if !ok {
					p.finish()
					return
				}
				p.update(s.Folders)
			case <-quit:
				// The newest status may still wait in the channel.
				select {
				case s, ok := <-sub:
					if ok {
						p.update(s.Folders)
					}
				default:
				}
				p.finish()
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(quit) })
		<-p.done
	}
}

func (p *syncProgress) update(folders []app.FolderStatus) {
	for _, f := range folders {
		key := f.Account + "\x00" + f.Folder
		fb := p.shown[key]
		if fb == nil {
			if f.Total == 0 && f.Done == 0 {
				continue // nothing new in this folder
			}
			fb = &folderBar{status: f}
			p.shown[key] = fb
			if p.tty {
				fb.bar = p.bars.AddBar(int64(max(f.Total, 1)),
					mpb.PrependDecorators(decor.Name(f.Folder, decor.WCSyncSpaceR), decor.CountersNoUnit("%d / %d", decor.WCSyncSpace)),
					mpb.AppendDecorators(decor.Any(fb.describe, decor.WCSyncSpace)))
			}
		}
		fb.mu.Lock()
		fb.status = f
		fb.mu.Unlock()
		if fb.bar != nil {
			fb.bar.SetTotal(int64(max(f.Total, f.Done, 1)), false)
			fb.bar.SetCurrent(int64(f.Done))
		}
		if f.Finished && !fb.ended {
			fb.ended = true
			p.end(fb)
		}
	}
}

// end completes a folder's bar, or prints its line.
func (p *syncProgress) end(fb *folderBar) {
	if fb.bar != nil {
		fb.bar.SetTotal(-1, true) // complete at the current count
		return
	}
	f := fb.status
	el := time.Since(f.Started)
	round := 100 * time.Millisecond
	if el < time.Second {
		round = time.Millisecond
	}
	noun := "messages"
	if f.Done == 1 {
		noun = "message"
	}
	fmt.Fprintf(p.out, "%s: %d new %s, %s in %v (%.0f messages/s)\n",
		folderName(f), f.Done, noun, sizeText(f.Bytes), el.Round(round), float64(f.Done)/max(el.Seconds(), 1e-3))
}

// finish ends what is still shown: a pass that failed leaves folders
// unfinished.
func (p *syncProgress) finish() {
	for _, fb := range p.shown {
		if !fb.ended && fb.bar != nil {
			fb.bar.Abort(false)
		}
	}
	if p.bars != nil {
		p.bars.Wait()
	}
}

// describe is the bar's right side: bytes, rate and time left.
func (fb *folderBar) describe(decor.Statistics) string {
	fb.mu.Lock()
	f := fb.status
	fb.mu.Unlock()
	now := time.Now()
	s := sizeText(f.Bytes)
	if r := f.Rate(now); r > 0 {
		s += fmt.Sprintf("  %.0f/s", r)
	}
	if left := f.Left(now); left > 0 {
		s += "  " + left.Round(time.Second).String() + " left"
	} else if f.Finished {
		s += "  " + now.Sub(f.Started).Round(100*time.Millisecond).String()
	}
	return s
}

func folderName(f app.FolderStatus) string {
	if f.Account == "" || f.Account == "default" {
		return f.Folder
	}
	return f.Account + "/" + f.Folder
}

func sizeText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	default:
		return fmt.Sprintf("%.0f KiB", float64(b)/(1<<10))
	}
}

func termWidth(f *os.File) int {
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// reportRereading prints, for `mailnode serve`, each facts pass of the
// status stream sub that reads at least rereadLines messages (after an
// extractor upgrade: the whole mailbox) when it begins and when it ends;
// the node serves agents meanwhile. It returns when sub closes.
func reportRereading(out io.Writer, sub <-chan app.Status) {
	var total int // of the pass being reported, 0 when none
	for st := range sub {
		f := st.Facts
		switch {
		case total == 0 && f.Total >= rereadLines:
			total = f.Total
			fmt.Fprintf(out, "Re-reading %d of %d messages for trips, orders and bills; agents get what was read before until then.\n", f.Done, f.Total)
		case total > 0 && f.Total == 0:
			fmt.Fprintf(out, "Re-read %d messages.\n", total)
			total = 0
		case total > 0:
			total = f.Total
		}
	}
}

// rereadLines is the smallest pass worth two lines: the few messages with
// a PDF that a sync pass leaves to the facts pass are not.
const rereadLines = 1000
