package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"mailnode/approvals"
)

// agentsView lists the agents that hold grants and the blocked ones:
// revoke a grant, block an agent or its whole site, unblock.
type agentsView struct {
	u        *UI
	box      *fyne.Container
	grants   *fyne.Container
	blocked  *fyne.Container
	errLabel *widget.Label
}

type agentsData struct {
	grants  []approvals.Grant
	blocked []string
}

func newAgentsView(u *UI) *agentsView {
	v := &agentsView{u: u, grants: container.NewVBox(), blocked: container.NewVBox(), errLabel: errorLabel()}
	v.box = container.NewBorder(v.errLabel, nil, nil, nil, container.NewVScroll(container.NewVBox(
		widget.NewLabelWithStyle("Agents you allowed", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), v.grants,
		widget.NewSeparator(),
		widget.NewLabelWithStyle("Blocked", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), v.blocked)))
	return v
}

func (v *agentsView) load() {
	call(v.u, func(ctx context.Context) (agentsData, error) {
		g, err := v.u.node.Grants(ctx)
		if err != nil {
			return agentsData{}, err
		}
		b, err := v.u.node.Blocked(ctx)
		return agentsData{g, b}, err
	}, func(d agentsData, err error) {
		showError(v.errLabel, err)
		if err == nil {
			v.show(d)
		}
	})
}

func (v *agentsView) show(d agentsData) {
	v.grants.RemoveAll()
	if len(d.grants) == 0 {
		v.grants.Add(wrapped("No agent holds a grant."))
	}
	slices.SortFunc(d.grants, func(a, b approvals.Grant) int {
		return strings.Compare(a.Domain+string(a.Tier), b.Domain+string(b.Tier))
	})
	for _, g := range d.grants {
		text := fmt.Sprintf("%s may %s until %s (key %s)", g.Domain, tierLabel(g.Tier),
			g.ExpiresAt.Local().Format("2 Jan 2006"), shortFP(g.KeyFP))
		if approvals.IsOAuthKey(g.KeyFP) {
			text = fmt.Sprintf("OAuth client %s may %s until %s", g.Domain, tierLabel(g.Tier), g.ExpiresAt.Local().Format("2 Jan 2006"))
		}
		v.grants.Add(container.NewVBox(wrapped(text), buttonRow(
			widget.NewButton("Revoke", func() { v.revoke(g) }),
			widget.NewButton("Block agent", func() { v.block(g.Domain) }),
			widget.NewButton("Block all of "+v.u.node.Site(g.Domain), func() { v.block("*." + v.u.node.Site(g.Domain)) }),
		)))
	}
	v.blocked.RemoveAll()
	if len(d.blocked) == 0 {
		v.blocked.Add(wrapped("No agent is blocked."))
	}
	for _, b := range d.blocked {
		label := b
		if strings.HasPrefix(b, "*.") {
			label = "every agent under " + strings.TrimPrefix(b, "*.")
		}
		v.blocked.Add(container.NewBorder(nil, nil, nil,
			widget.NewButton("Unblock", func() { v.unblock(b) }), wrapped(label)))
	}
	v.box.Refresh()
}

func (v *agentsView) revoke(g approvals.Grant) {
	call(v.u, func(ctx context.Context) (int, error) { return v.u.node.Revoke(ctx, g.Domain, g.Tier) },
		func(_ int, err error) { showError(v.errLabel, err); v.load() })
}

func (v *agentsView) block(agent string) {
	call(v.u, func(ctx context.Context) (string, error) { return v.u.node.Block(ctx, agent) },
		func(_ string, err error) { showError(v.errLabel, err); v.load() })
}

func (v *agentsView) unblock(agent string) {
	call(v.u, func(ctx context.Context) (struct{}, error) { return struct{}{}, v.u.node.Unblock(ctx, agent) },
		func(_ struct{}, err error) { showError(v.errLabel, err); v.load() })
}

func shortFP(fp string) string {
	if len(fp) > 12 {
		return fp[:12] + "…"
	}
	return fp
}
