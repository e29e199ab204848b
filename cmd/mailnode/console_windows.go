package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// attachConsole gives a command run from a console its output there.
// The Windows desktop app is a GUI program (fyne package links it with
// -H windowsgui, so that starting it opens no console window), and
// Windows starts such a program with no standard output at all: "mailnode
// version" or "mailnode backup" typed in cmd.exe or PowerShell would print
// nothing. When the program has no output of its own and its parent has
// a console, it attaches to that one. The headless build is a console
// program and keeps its own.
func attachConsole() {
	if h, err := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE); err == nil && h != 0 && h != windows.InvalidHandle {
		return // a console program, or output redirected to a file or pipe
	}
	const attachParentProcess = ^uintptr(0) // ATTACH_PARENT_PROCESS, (DWORD)-1
	if r, _, _ := windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole").Call(attachParentProcess); r == 0 {
		return // started from Explorer or the Run key: no console, as it should be
	}
	if f, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
		os.Stdout, os.Stderr = f, f
	}
	if f, err := os.OpenFile("CONIN$", os.O_RDONLY, 0); err == nil {
		os.Stdin = f
	}
}
