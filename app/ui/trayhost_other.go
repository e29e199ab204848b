//go:build !linux

package ui

// trayHostOnSessionBus: on macOS and Windows the system always has a tray
// (menu bar extras, the notification area), which Fyne drives.
func trayHostOnSessionBus() bool { return true }
