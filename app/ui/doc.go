// Package ui is the desktop app: a tray icon and the windows behind it,
// over one running app.Node. It is the only package that imports fyne.io.
//
// The app calls the node's methods in-process and never touches mail/ or
// the store. Every node call runs off the UI goroutine (call) and its result
// is shown with fyne.Do; the node's status stream is read on a goroutine of
// its own and applied the same way, so a slow disk or a long sync never
// freezes a window. An error is shown in the window it belongs to.
//
// Where no tray host runs (GNOME without the AppIndicator extension: no
// owner of org.kde.StatusNotifierWatcher on the session bus), the app says
// so once and keeps its main window open instead of hiding into nothing.
package ui
