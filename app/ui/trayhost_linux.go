package ui

import (
	"github.com/godbus/dbus/v5"
)

// trayHostOnSessionBus reports whether a StatusNotifierItem host runs: the
// name org.kde.StatusNotifierWatcher has an owner on the session bus. KDE,
// XFCE, Cinnamon, MATE and GNOME with the AppIndicator extension own it;
// plain GNOME does not, and an icon registered there shows nowhere.
func trayHostOnSessionBus() bool {
	conn, err := dbus.SessionBus() // shared with Fyne's notifications: not closed
	if err != nil {
		return false
	}
	var has bool
	err = conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.kde.StatusNotifierWatcher").Store(&has)
	return err == nil && has
}
