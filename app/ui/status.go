package ui

import (
	"fmt"
	"net"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"mailnode/app"
)

// statusView is the main window's first tab: what the node is doing.
type statusView struct {
	u        *UI
	box      *fyne.Container
	headline *widget.Label
	progress *widget.ProgressBar
	detail   *widget.Label
	counts   *widget.Label
	agents   *widget.Label
	notice   *widget.Label
	errLabel *widget.Label
}

func newStatusView(u *UI) *statusView {
	v := &statusView{u: u,
		headline: heading("Starting"),
		progress: widget.NewProgressBar(),
		detail:   wrapped(""),
		counts:   wrapped(""),
		agents:   wrapped(""),
		notice:   wrapped(""),
		errLabel: errorLabel(),
	}
	v.notice.Hide()
	v.progress.Hide()
	v.box = container.NewVBox(v.notice, v.headline, v.progress, v.detail, widget.NewSeparator(),
		v.counts, widget.NewSeparator(), v.agents, v.errLabel)
	return v
}

// note shows a standing remark above the status (no tray on this desktop).
func (v *statusView) note(text string) {
	v.notice.SetText(text)
	v.notice.Show()
}

func (v *statusView) fail(err error) { showError(v.errLabel, err) }

// show renders a status: state in, text out.
func (v *statusView) show(st app.Status) {
	v.headline.SetText(headline(st))
	done, total, folder := syncProgress(st.Folders)
	switch {
	case st.State == app.StateSyncing && total > 0:
		v.progress.Max = float64(total)
		v.progress.SetValue(float64(done))
		v.progress.Show()
		v.detail.SetText(fmt.Sprintf("%d of %d new messages copied (%s)", done, total, folder))
	case st.Facts.Total > 0:
		// After an extractor upgrade: agents are answered meanwhile.
		v.progress.Max = float64(st.Facts.Total)
		v.progress.SetValue(float64(st.Facts.Done))
		v.progress.Show()
		v.detail.SetText(rereadingText(st.Facts))
	default:
		v.progress.Hide()
		v.detail.SetText(lastSyncText(st))
	}
	v.counts.SetText(fmt.Sprintf("%d messages on this computer. Read from them: %s, %s, %s.",
		st.Messages, plural(st.Facts.Trips, "trip"), plural(st.Facts.Orders, "order"), plural(st.Facts.Bills, "bill")))
	v.agents.SetText(agentsText(st))
	if st.LastError != "" {
		v.errLabel.SetText(st.LastError)
		v.errLabel.Show()
	} else {
		v.errLabel.Hide()
	}
}

// headline is the status in one sentence, as the tray's tooltip would say it.
func headline(st app.Status) string {
	if p := accountProblem(st); p != "" {
		return p
	}
	switch trayState(st) {
	case iconError:
		return "Something needs your attention"
	case iconApproval:
		if st.PushUnreachable {
			return fmt.Sprintf("%s waiting for you; no paired phone gets push notifications, so open the phone app to decide", plural(st.Pending, "request"))
		}
		return fmt.Sprintf("%s waiting for you", plural(st.Pending, "request"))
	case iconOffline:
		return "Offline: the mail server cannot be reached; retrying"
	case iconSyncing:
		return "Copying your mail"
	case iconPaused:
		return "Sync paused"
	case iconStarting:
		return "Starting"
	}
	if len(st.Accounts) == 0 && st.Messages == 0 {
		return "No mail account yet: add one under Accounts"
	}
	return "Up to date"
}

// accountProblem is what the person must do for an account to sync again
// ("Sign in to Microsoft again"), naming the account when there are
// several; "" when every account syncs.
func accountProblem(st app.Status) string {
	for _, a := range st.Accounts {
		if a.Problem != "" {
			if len(st.Accounts) > 1 {
				return a.Problem + " (" + a.Username + ")"
			}
			return a.Problem
		}
	}
	return ""
}

// syncProgress sums the folders still being copied.
func syncProgress(folders []app.FolderStatus) (done, total int, current string) {
	for _, f := range folders {
		if f.Finished {
			continue
		}
		done += f.Done
		total += f.Total
		if current == "" {
			current = f.Folder
		}
	}
	return done, total, current
}

// rereadingText is a facts pass's progress, as the tray and the command
// line say it.
func rereadingText(f app.FactsStatus) string {
	return fmt.Sprintf("Re-reading %d of %d messages for trips, orders and bills; agents get what was read before until then.", f.Done, f.Total)
}

func lastSyncText(st app.Status) string {
	if st.LastSync.IsZero() {
		return ""
	}
	return "Last checked " + st.LastSync.Local().Format("15:04, Mon 2 Jan") + "."
}

// agentsText says every address agents and phones reach the node at, and
// from where: the gateway's own listener (this computer only when it is
// loopback), the LAN address while pairing over this network is on, and
// the relay name while the tunnel is up.
func agentsText(st app.Status) string {
	var b strings.Builder
	g := st.Gateway
	if g.URL == "" && g.Relay.URL == "" {
		b.WriteString("Agents cannot reach this node: it serves none.")
	}
	if g.URL != "" {
		fmt.Fprintf(&b, "Agents and phones reach this node at %s (%s).", g.URL, listenScope(g.Listen))
	}
	if g.LANURL != "" {
		fmt.Fprintf(&b, " On this computer's local network: %s, for phones on the same network (and agents' signed requests); on until you turn it off under Phones.", g.LANURL)
	}
	switch {
	case g.Relay.State == "connected" && g.Relay.Address != "":
		fmt.Fprintf(&b, " Agents reach you as %s through %s", g.Relay.Address, g.Relay.URL)
		if g.Relay.PublicURL != "" {
			fmt.Fprintf(&b, ", at %s, from any network", g.Relay.PublicURL)
		}
		b.WriteString(".")
	case g.Relay.URL != "":
		fmt.Fprintf(&b, " Relay %s: %s.", g.Relay.URL, g.Relay.State)
		if g.Relay.LastError != "" {
			fmt.Fprintf(&b, " %s", g.Relay.LastError)
		}
	}
	fmt.Fprintf(&b, " %s paired.", plural(st.Phones, "phone"))
	return strings.TrimSpace(b.String())
}

// listenScope says from where the gateway's listen address is reached.
func listenScope(listen string) string {
	host, _, err := net.SplitHostPort(listen)
	ip := net.ParseIP(host)
	switch {
	case err != nil || ip == nil && host != "":
		return "its configured address"
	case ip == nil || ip.IsUnspecified():
		return "every network this computer is on"
	case ip.IsLoopback():
		return "this computer only"
	}
	return "address " + host + " of this computer"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// since says how long ago t was, for lists.
func since(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return t.Local().Format("2 Jan 15:04")
}
