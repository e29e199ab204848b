// Package clocale keeps Fyne quiet about the C locale. Fyne reads the
// language at package initialisation through go-locale, which takes the
// "C" of "C.UTF-8" (Debian's default in containers and on servers) for a
// language and logs three lines of "Error parsing user locale C" on every
// start of the desktop binary, even `mailnode version`. The C locale
// means "no language": this package, imported for its side effect before
// Fyne, says so in the form go-locale understands ("C" exactly), so the
// app falls back to English in silence.
//
// It must import nothing that imports Fyne: Go initialises a package
// whose imports are ready before others later in import-path order, so
// with only os and strings this runs before fyne.io/fyne/v2/lang.
package clocale

import (
	"os"
	"strings"
)

func init() { normalize(os.Getenv, os.Setenv) }

// normalize rewrites the variable go-locale reads (the first set of
// LC_ALL, LC_MESSAGES, LANG) from C.<codeset> or POSIX.<codeset> to C.
func normalize(getenv func(string) string, setenv func(string, string) error) {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(name)
		if v == "" {
			continue
		}
		if strings.HasPrefix(v, "C.") || strings.HasPrefix(v, "POSIX.") {
			setenv(name, "C")
		}
		return
	}
}
