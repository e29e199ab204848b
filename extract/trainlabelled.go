package extract

import (
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// A rail itinerary's stops by their labels, each over its day and clock
// ("Departure: New York (Penn Station), New York" / "Monday  May 18, 2015
// 3:40PM"), the leg's train or coach service named in its head ("Train: 49
// Lake Shore Ltd.", "Service: 3612").

// labelledStopAbove is the station a label names on the line above a
// stop's day and clock (line i): "Departure:", "Arrival:", "From:", "To:",
// "Leaves:", "Arrives:" and their kin in every language (station.from,
// station.to, departure, arrival), and which stop the label says it is.
func labelledStopAbove(lines []string, i int) (name string, dep, arr bool, at int) {
	if i == 0 {
		return "", false, false, -1
	}
	t := strings.TrimSpace(lines[i-1])
	if t == "" || len(findClocks(t)) > 0 {
		return "", false, false, -1
	}
	var rest string
	switch {
	case fromStationRE.MatchString(t):
		rest, dep = fromStationRE.FindStringSubmatch(t)[1], true
	case toStationRE.MatchString(t):
		rest, arr = toStationRE.FindStringSubmatch(t)[1], true
	default:
		if r, ok := depMarkers.starts(t); ok && strings.HasPrefix(strings.TrimSpace(r), ":") {
			rest, dep = strings.TrimSpace(r)[1:], true
		} else if r, ok := arrMarkers.starts(t); ok && strings.HasPrefix(strings.TrimSpace(r), ":") {
			rest, arr = strings.TrimSpace(r)[1:], true
		}
	}
	if name = stationName(rest); name == "" {
		return "", false, false, -1
	}
	return name, dep, arr, i - 1
}

var (
	// serviceHeadRE is a leg's head that names a service by its number,
	// alone or before the service's name ("Service: 3612", "Thruway Bus
	// 3612", "Train: 5 California Zephyr", "Autocar n° 512").
	serviceHeadRE = lazyregexp.New(`(?i)^\s*(` + strings.Join(longestFirst(append(lang.Entries("service.head"), lang.Entries("train.head")...)), "|") + `)\s*(?:n[°º]|no\.?|#)?\s*:?\s*(\d{1,6})(?-i:\s+\p{Lu}[\p{L}.'’ -]*)?\s*$`)
	// trainHeads are the heads that name a train, never a coach.
	trainHeads = wordSet("train.head")
	// serviceBusRE are the words that make such a service a coach.
	serviceBusRE = lazyregexp.New(`(?i)\b(?:` + strings.Join(longestFirst(lang.Entries("service.bus")), "|") + `)\b`)
)

// serviceHead is the number a leg's head names (line ln, the i-th of
// lines) and whether the service is a coach: its head says so, or a line
// of its block under it does ("Accommodation: 1 Reserved Thruway Seat"),
// up to the blank line that ends the block.
func serviceHead(lines []string, i int) (number string, bus, ok bool) {
	m := serviceHeadRE.FindStringSubmatch(lines[i])
	if m == nil {
		return "", false, false
	}
	if trainHeads[strings.ToLower(m[1])] {
		return m[2], false, true
	}
	if serviceBusRE.MatchString(m[1]) {
		return m[2], true, true
	}
	for _, ln := range lines[i+1 : min(len(lines), i+12)] {
		if strings.TrimSpace(ln) == "" {
			break
		}
		if serviceBusRE.MatchString(ln) {
			return m[2], true, true
		}
	}
	return m[2], false, true
}
