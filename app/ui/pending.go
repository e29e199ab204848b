package ui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"mailnode/approvals"
)

// pendingView lists the agents' requests that wait for the person. Each
// shows its readable arguments and match code. A structured, free-form or
// compose request may be decided here; raw_read and send only on the phone,
// as the protocol says.
type pendingView struct {
	u        *UI
	box      *fyne.Container
	list     *fyne.Container
	empty    *widget.Label
	errLabel *widget.Label
	items    []approvals.Approval
}

func newPendingView(u *UI) *pendingView {
	v := &pendingView{u: u, list: container.NewVBox(), errLabel: errorLabel(),
		empty: widget.NewLabel("No request waits for you.")}
	v.box = container.NewBorder(
		container.NewVBox(wrapped("Agents' requests that wait for a decision. Check that the match "+
			"code is the one your agent shows."), v.errLabel),
		nil, nil, nil, container.NewVScroll(container.NewVBox(v.empty, v.list)))
	return v
}

// load fetches the requests off the UI goroutine.
func (v *pendingView) load() {
	call(v.u, v.u.node.Pending, func(items []approvals.Approval, err error) {
		showError(v.errLabel, err)
		if err != nil {
			return
		}
		v.show(items)
	})
}

func (v *pendingView) show(items []approvals.Approval) {
	v.items = items
	v.list.RemoveAll()
	if len(items) == 0 {
		v.empty.Show()
	} else {
		v.empty.Hide()
	}
	now := time.Now()
	for _, a := range items {
		v.list.Add(v.card(a, now))
	}
	v.list.Refresh()
}

func (v *pendingView) card(a approvals.Approval, now time.Time) fyne.CanvasObject {
	title := heading(fmt.Sprintf("%s asks: %s", a.Domain, toolLabel(a.Tool)))
	code := widget.NewLabelWithStyle("Match code "+a.MatchCode, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	meta := wrapped(fmt.Sprintf("%s · asked %s · expires %s", tierLabel(a.Tier), since(now, a.CreatedAt),
		a.ExpiresAt.Local().Format("15:04")))
	details := wrapped(a.Details)
	details.TextStyle.Monospace = true
	var actions fyne.CanvasObject
	if a.Tier.PerCall() {
		actions = wrapped("Only your paired phone can approve this: open mailnode on your phone.")
	} else {
		approve := widget.NewButton("Approve", func() { v.decide(a, true) })
		approve.Importance = widget.HighImportance
		deny := widget.NewButton("Deny", func() { v.decide(a, false) })
		actions = container.NewVBox(
			wrapped(fmt.Sprintf("Approving grants %s to %s for 90 days.", tierLabel(a.Tier), a.Domain)),
			buttonRow(approve, deny))
	}
	// Blocking answers every request of the agent (or of every agent
	// of its site, as the request recorded it) from now on.
	block := buttonRow(
		widget.NewButton("Block "+a.Domain, func() { v.block(a.Domain) }),
		widget.NewButton("Block all of "+a.Site, func() { v.block("*." + a.Site) }))
	actions = container.NewVBox(actions, block)
	return widget.NewCard("", "", container.NewVBox(title, code, meta, details, actions))
}

func (v *pendingView) decide(a approvals.Approval, approve bool) {
	call(v.u, func(ctx context.Context) (approvals.Approval, error) {
		return v.u.node.Decide(ctx, a.ID, approve)
	}, func(_ approvals.Approval, err error) {
		showError(v.errLabel, err)
		v.load()
	})
}

func (v *pendingView) block(agent string) {
	call(v.u, func(ctx context.Context) (string, error) { return v.u.node.Block(ctx, agent) },
		func(_ string, err error) {
			showError(v.errLabel, err)
			v.load()
			v.u.agents.load()
		})
}

func toolLabel(tool string) string {
	switch tool {
	case "get_upcoming_travel":
		return "your upcoming trips"
	case "order_status":
		return "your orders"
	case "bills_due":
		return "the bills you have to pay"
	case "ask":
		return "an answer from your mail"
	case "get_excerpt":
		return "an excerpt of one mail"
	case "create_draft", "draft_reply":
		return "to write a draft"
	case "send_draft":
		return "to send a draft"
	}
	return tool
}

func tierLabel(t approvals.Tier) string {
	switch t {
	case approvals.StructuredRead:
		return "read trips, orders and bills"
	case approvals.FreeFormRead:
		return "short answers from your mail"
	case approvals.RawRead:
		return "one excerpt of a mail (each time)"
	case approvals.Compose:
		return "write drafts"
	case approvals.Send:
		return "send a mail (each time)"
	}
	return string(t)
}
