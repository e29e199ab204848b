package places

import (
	_ "embed"
	"strings"
	"time"
)

// Stations: the rail and coach stations of Europe and their towns, by
// name, with their zones (stations.tsv, from Trainline's stations, ODbL;
// see README.md). A train's stop in a town without an airport
// ("Bielefeld Hbf", "Leer (Ostfriesl)") is placed by it when nothing
// else is: a ticket's text carried without its mail's header has no
// sender and no Date to read its clocks by.
//
// The table is searched where it lies in the binary, a line at a time by
// halving: 1.9 MB of names would be some megabytes of map on the heap,
// and most mails never ask.

//go:embed stations.tsv
var stationsTSV string

// StationZone returns the zone of a station by its name: the whole name
// folded ("Frankfurt (Main) Hbf"), else its first words when they name a
// town ("Hamm (Westf) Hbf" is in Hamm); "" and nil when the table has
// neither, or the name is one two zones share.
func StationZone(name string) (string, *time.Location) {
	words := strings.Fields(Fold(name))
	if len(words) > 8 {
		return "", nil // no station's name; a line of text
	}
	for n := len(words); n >= 1; n-- {
		key := strings.Join(words[:n], " ")
		if n == 1 && len(key) < 4 {
			break
		}
		zone, town, ok := stationLine(key)
		if ok && (n == len(words) || town) {
			return load().location(zone)
		}
	}
	return "", nil
}

// stationLine finds key's line in the sorted table: its zone, and whether
// the name is a town's.
func stationLine(key string) (zone string, town, ok bool) {
	lo, hi := 0, len(stationsTSV)
	for lo < hi {
		mid := lo + (hi-lo)/2
		// The line that holds mid, from its start.
		start := strings.LastIndexByte(stationsTSV[:mid], '\n') + 1
		end := strings.IndexByte(stationsTSV[start:], '\n')
		if end < 0 {
			end = len(stationsTSV) - start
		}
		line := stationsTSV[start : start+end]
		name, rest, _ := strings.Cut(line, "\t")
		switch {
		case name == key:
			zone, mark, _ := strings.Cut(rest, "\t")
			return zone, mark == "c", true
		case name < key:
			lo = start + end + 1
		default:
			hi = start
		}
	}
	return "", false, false
}
