package ui

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"mailnode/approvals"
)

// activityDays is how many days the chart shows.
const activityDays = 14

// activityLimit is how many log entries the window reads.
const activityLimit = 2000

const allAgents = "All agents"

// activityView shows what agents asked, per agent: a chart of calls per
// day (allowed, and everything else) over a list of the calls.
type activityView struct {
	u        *UI
	box      *fyne.Container
	agent    *widget.Select
	chart    *canvas.Image
	summary  *widget.Label
	axis     *widget.Label // the chart's first and last day
	list     *widget.List
	errLabel *widget.Label
	entries  []approvals.AuditEntry
	shown    []approvals.AuditEntry
	now      func() time.Time
}

func newActivityView(u *UI) *activityView {
	v := &activityView{u: u, errLabel: errorLabel(), summary: widget.NewLabel(""), axis: widget.NewLabel(""), now: time.Now}
	v.chart = canvas.NewImageFromImage(chartImage(make([]dayCount, activityDays)))
	v.chart.FillMode = canvas.ImageFillContain
	v.chart.SetMinSize(fyne.NewSize(560, 140))
	v.list = widget.NewList(func() int { return len(v.shown) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(activityLine(v.shown[i]))
		})
	v.agent = widget.NewSelect([]string{allAgents}, func(string) { v.filter() })
	v.agent.Selected = allAgents
	v.box = container.NewBorder(container.NewVBox(v.errLabel, container.NewHBox(widget.NewLabel("Agent"), v.agent),
		v.chart, v.axis, v.summary), nil, nil, nil, v.list)
	return v
}

func (v *activityView) load() {
	call(v.u, func(ctx context.Context) ([]approvals.AuditEntry, error) {
		return v.u.node.Audit(ctx, activityLimit)
	}, func(entries []approvals.AuditEntry, err error) {
		showError(v.errLabel, err)
		if err != nil {
			return
		}
		v.entries = entries
		agents := []string{allAgents}
		for _, e := range entries {
			if !slices.Contains(agents, e.Domain) {
				agents = append(agents, e.Domain)
			}
		}
		slices.Sort(agents[1:])
		v.agent.SetOptions(agents)
		if !slices.Contains(agents, v.agent.Selected) {
			v.agent.SetSelected(allAgents)
		}
		v.filter()
	})
}

// filter shows the selected agent's calls.
func (v *activityView) filter() {
	v.shown = v.shown[:0]
	for _, e := range v.entries {
		if v.agent.Selected == allAgents || e.Domain == v.agent.Selected {
			v.shown = append(v.shown, e)
		}
	}
	slices.SortFunc(v.shown, func(a, b approvals.AuditEntry) int { return b.At.Compare(a.At) })
	days := dailyCounts(v.shown, v.now(), activityDays)
	v.chart.Image = chartImage(days)
	v.chart.Refresh()
	v.axis.SetText(fmt.Sprintf("One bar a day, from %s (left) to today (right).", days[0].Day.Format("Mon 2 Jan")))
	allowed, other := 0, 0
	for _, d := range days {
		allowed += d.Allowed
		other += d.Other
	}
	v.summary.SetText(fmt.Sprintf("Last %d days: %d calls allowed (green), %d refused or waiting for you (amber).",
		activityDays, allowed, other))
	v.list.Refresh()
}

// dayCount is one day's calls.
type dayCount struct {
	Day            time.Time // local midnight
	Allowed, Other int
}

// dailyCounts counts entries per local day over the days ending today,
// oldest first.
func dailyCounts(entries []approvals.AuditEntry, now time.Time, days int) []dayCount {
	now = now.Local()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	out := make([]dayCount, days)
	for i := range out {
		out[i].Day = today.AddDate(0, 0, i-days+1)
	}
	for _, e := range entries {
		at := e.At.Local()
		day := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, now.Location())
		i := days - 1 - int(today.Sub(day).Hours()/24+0.5)
		if i < 0 || i >= days {
			continue
		}
		if e.Decision == approvals.Allowed {
			out[i].Allowed++
		} else {
			out[i].Other++
		}
	}
	return out
}

var (
	chartAllowed = color.NRGBA{0x2e, 0x7d, 0x32, 0xff}
	chartOther   = color.NRGBA{0xf5, 0x9e, 0x0b, 0xff}
	chartAxis    = color.NRGBA{0x9e, 0x9e, 0x9e, 0xff}
)

// chartImage draws one stacked bar a day: allowed calls at the bottom,
// the others above them.
func chartImage(days []dayCount) image.Image {
	const w, h, gap = 560, 140, 6
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	top := 1
	for _, d := range days {
		top = max(top, d.Allowed+d.Other)
	}
	barW := (w - gap*(len(days)+1)) / max(len(days), 1)
	draw.Draw(img, image.Rect(0, h-1, w, h), &image.Uniform{chartAxis}, image.Point{}, draw.Src)
	for i, d := range days {
		x := gap + i*(barW+gap)
		ha := (h - 4) * d.Allowed / top
		ho := (h - 4) * d.Other / top
		draw.Draw(img, image.Rect(x, h-1-ha, x+barW, h-1), &image.Uniform{chartAllowed}, image.Point{}, draw.Src)
		draw.Draw(img, image.Rect(x, h-1-ha-ho, x+barW, h-1-ha), &image.Uniform{chartOther}, image.Point{}, draw.Src)
	}
	return img
}

// activityLine is one entry of the list. A call the agent repeated while
// it waited for the user is one entry, with how often it was asked ("asked
// you 30 times"); only such an entry has Retries.
func activityLine(e approvals.AuditEntry) string {
	outcome := outcomeLabel(e.Decision)
	if e.Retries > 0 {
		outcome += fmt.Sprintf(" %d times", e.Calls())
	}
	return fmt.Sprintf("%s  %s  %s (%s): %s", e.At.Local().Format("2 Jan 15:04"), e.Domain, e.Tool, e.Tier, outcome)
}

func outcomeLabel(o approvals.Outcome) string {
	switch o {
	case approvals.Allowed:
		return "allowed"
	case approvals.ApprovalRequired:
		return "asked you"
	case approvals.ApprovalDenied:
		return "denied"
	case approvals.AgentBlocked:
		return "blocked"
	case approvals.TooManyPending, approvals.TooManyPrompts:
		return "refused: too many requests"
	}
	return string(o)
}
