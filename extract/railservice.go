package extract

import (
	_ "embed"
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

//go:embed railservices.txt
var railServicesFile string

// railServiceNames are railservices.txt's names, one a line.
var railServiceNames = func() []string {
	var out []string
	for ln := range strings.Lines(railServicesFile) {
		if ln = strings.TrimSpace(ln); ln != "" && !strings.HasPrefix(ln, "#") {
			out = append(out, ln)
		}
	}
	return out
}()

// railServiceSet finds the names in one pass, case as printed.
var railServiceSet = words.NewSet(railServiceNames)

// railServiceRE is a service's name and its number of two to five
// digits, apart by spaces or a dash between spaces ("AVE - 05143"), a
// word for a number between or not ("Iryo n° 6071"), with no letter or
// digit right before the name nor right after the number ("RJ45" is a
// plug).
var railServiceRE = lazyregexp.New(`(?:^|[^\p{L}\p{N}])((?:TGV )?(?:` + strings.Join(longestFirst(quoteAll(railServiceNames)), "|") +
	`))(?:[ \t]+[-–][ \t]+|[ \t]+)(?:(?:n[°º]|[Nn]r\.|[Nn]o\.)[ \t]*)?(\d{2,5})(?:[^\p{L}\p{N}]|$)`)

// railService is the service ln names by its name and number
// ("AVE 05143" for "AVE - 05143 en clase Estándar"), or "".
func railService(ln string) string {
	found := false
	railServiceSet.EachAt(ln, func(int, int) bool {
		found = true
		return false
	})
	if !found {
		return ""
	}
	m := railServiceRE.FindStringSubmatchIndex(ln)
	if m == nil {
		return ""
	}
	if rest := strings.TrimLeft(ln[m[5]:], " \t"); rest != "" && isDigitByte(rest[0]) {
		return "" // a train's model before its number ("Frecciarossa 1000 9521")
	}
	return ln[m[2]:m[3]] + " " + ln[m[4]:m[5]]
}

// railServiceShaped reports whether a text with two clocks or more names
// a rail service with its number on a line: the train rules read it,
// whatever words the mail uses (a reseller's "Viaje de ida" over "AVE -
// 05143 en clase Estándar").
func railServiceShaped(text string) bool {
	if colonClocks(text) < 2 || !railServiceSet.Any(text) {
		return false
	}
	for ln := range strings.Lines(text) {
		if railService(ln) != "" {
			return true
		}
	}
	return false
}

// classedServiceRE is a train's code of capitals and its number right
// before the ticket's class (rail.class), after an operator's name and a
// dash or at the line's start: "Deutsche Bahn - CB 55672 Zweite Klasse",
// a regional line's code no category list holds (trainCategories).
var classedServiceRE = lazyregexp.New(`(?:^|[ \t][-–][ \t]+)(\p{Lu}{1,4})[ \t]{1,3}(\d{2,6})[ \t]+(?i:` + strings.Join(longestFirst(lang.Entries("rail.class")), "|") + `)(?:[^\p{L}]|$)`)

// classedService is the train ln names by its code and number before its
// class ("CB 55672"), or "".
func classedService(ln string) string {
	m := classedServiceRE.FindStringSubmatch(ln)
	if m == nil {
		return ""
	}
	return m[1] + " " + m[2]
}
