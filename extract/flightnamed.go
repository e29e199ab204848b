package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Flights whose number follows the airline's name in words, with no
// designator: "UNITED 1187", "Air Canada 311", "HAWAIIAN 21", "Frontier
// Airlines flight #1129", as US and Canadian airlines' own mail prints
// them. The name is its designator by airlines.tsv.

// namedFlightNumber is the flight's number that line ln prints after an
// airline's name, as "UA 1187", or "". The name counts when a word for a
// flight stands between it and the number, or when it is the airline the
// mail is from (airlineDesignator): "Delta 128" in a bank's mail is no flight.
func namedFlightNumber(ln string, mailAirline string) string {
	if len(ln) > 200 {
		return ""
	}
	for i := 0; i < len(ln); {
		if !isDigitByte(ln[i]) {
			i++
			continue
		}
		j := i
		for j < len(ln) && isDigitByte(ln[j]) {
			j++
		}
		if num := ln[i:j]; j-i <= 4 && numberEnds(ln[j:]) {
			if code := airlineBefore(ln[:i], mailAirline); code != "" {
				return code + " " + strings.TrimLeft(num, "0")
			}
		}
		i = j
	}
	return ""
}

// numberEnds reports whether what follows a flight's digits ends the
// number: the line's end, a space or a punctuation mark that starts no
// clock, date or amount ("1187", "1187 ·", but not "2:15", "2/14", "4.5").
func numberEnds(rest string) bool {
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		return false
	}
	if len(rest) > 1 && strings.IndexByte(":./,-", rest[0]) >= 0 && isDigitByte(rest[1]) {
		return false
	}
	return true
}

// airlineBefore is the designator of the airline whose name before ends,
// a word for a flight and "#" or "No." perhaps between, when the flight
// word is there or the name is the mail's airline's; else "".
func airlineBefore(before, mailAirline string) string {
	s := strings.TrimRight(before, " \t")
	if s == before && !strings.HasSuffix(s, "#") {
		return "" // "UNITED1187" is no name and a number
	}
	s = strings.TrimRight(strings.TrimSuffix(s, "#"), " \t")
	ws := strings.Fields(s)
	// "Wizz Air Vluchtnummer: 1999": the flight's label ends with a colon.
	if n := len(ws); n > 1 && strings.HasSuffix(ws[n-1], ":") {
		ws[n-1] = strings.TrimSuffix(ws[n-1], ":")
	}
	if n := len(ws); n > 0 && (flightNumberWords[strings.ToLower(ws[n-1])] || ws[n-1] == "n°") {
		ws = ws[:n-1]
	}
	if code := parenDesignator(ws); code != "" {
		return code
	}
	flightWord := false
	if n := len(ws); n > 0 && flightColumnWords[strings.ToLower(ws[n-1])] {
		ws, flightWord = ws[:n-1], true
	}
	// The longest name that ends the words, of up to four words.
	for k := min(4, len(ws)); k >= 1; k-- {
		name := strings.ToUpper(strings.Join(ws[len(ws)-k:], " "))
		if code := airlineCodes[name]; code != "" && (flightWord || code == mailAirline) {
			return code
		}
	}
	return ""
}

// parenDesignator is the designator in parentheses that ends words after
// the airline's name ("TAAG Angola Airlines (DT)", "Air France (AF)", as
// agencies' tickets print a flight before its number): the name ends in
// a word of airlines or is the designator's by airlines.tsv. Else "".
func parenDesignator(ws []string) string {
	n := len(ws)
	if n < 2 {
		return ""
	}
	w := ws[n-1]
	if len(w) != 4 || w[0] != '(' || w[3] != ')' {
		return ""
	}
	code := w[1:3]
	if !designatorShaped(code) || !isFlightDesignator(code) {
		return ""
	}
	if airlineNameWords[strings.ToLower(ws[n-2])] {
		return code
	}
	for k := min(4, n-1); k >= 1; k-- {
		if airlineCodes[strings.ToUpper(strings.Join(ws[n-1-k:n-1], " "))] == code {
			return code
		}
	}
	return ""
}

// designatorShaped reports whether s is two characters shaped as an
// airline's designator: two capitals, or a capital and a digit either way.
func designatorShaped(s string) bool {
	up := func(b byte) bool { return b >= 'A' && b <= 'Z' }
	return len(s) == 2 && (up(s[0]) && (up(s[1]) || isDigitByte(s[1])) || isDigitByte(s[0]) && up(s[1]))
}

// airlineNameWords are the words an airline's name ends with ("TAAG Angola
// Airlines", "Qatar Airways", "Wizz Air", "Aerolíneas Argentinas" does
// not), in lower case.
var airlineNameWords = map[string]bool{"airlines": true, "airline": true, "airways": true, "air": true, "aviation": true,
	"aerolineas": true, "aerolíneas": true, "aéreas": true, "aereas": true, "aéreo": true, "aereo": true}

// namedFlightShaped reports whether an airline's own mail (its sender's
// name is an airline's) prints one of its flights by its name and number
// ("UNITED 523" over "DEPART", "TUCSON, AZ"): a flight's mail whatever its
// words.
func (c *msgContext) namedFlightShaped(text string) bool {
	airline := airlineCodes[strings.ToUpper(c.senderName)]
	if airline == "" {
		return false
	}
	for ln := range strings.Lines(text) {
		if hasDigit(ln) && namedFlightNumber(strings.TrimRight(ln, "\r\n"), airline) != "" {
			return true
		}
	}
	return false
}
