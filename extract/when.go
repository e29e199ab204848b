package extract

import (
	"strconv"
	"strings"
	"time"

	"mailnode/extract/lang"
	"mailnode/extract/places"
)

// wallTime is a date and time as a mail writes it, before a zone is
// known: the clock reading, and the UTC offset when the mail gave one.
type wallTime struct {
	y, mo, d, h, mi, s int
	dateOnly           bool
	hasOffset          bool
	offset             int // seconds east of UTC
}

// parseDateTime reads the date and time forms found in schema.org markup
// and calendars: RFC 3339 and its relatives (no seconds, no offset, a
// space for the T, offsets like "+0:00" or "+0100"), plain dates, and the
// day-first "15.06.2017 12:55" and month-first "02-02-2018 18:35" forms
// some senders put in markup.
func parseDateTime(s string) (wallTime, bool) {
	s = strings.TrimSpace(s)
	var w wallTime
	if len(s) < 8 {
		return w, false
	}
	date, rest, _ := strings.Cut(s, "T")
	if rest == "" {
		date, rest, _ = strings.Cut(s, " ")
	}
	if !w.parseDate(date) {
		return w, false
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		w.dateOnly = true
		return w, true
	}
	// Split the clock from a trailing offset.
	clock, off := rest, ""
	if i := strings.IndexAny(rest, "Z+-"); i >= 0 {
		clock, off = rest[:i], rest[i:]
	}
	clock = strings.TrimSpace(clock)
	if i := strings.IndexByte(clock, '.'); i >= 0 { // fractional seconds
		clock = clock[:i]
	}
	parts := strings.Split(clock, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return w, false
	}
	var ok bool
	if w.h, ok = atoiRange(parts[0], 0, 24); !ok {
		return w, false
	}
	if w.mi, ok = atoiRange(parts[1], 0, 59); !ok {
		return w, false
	}
	if len(parts) == 3 {
		if w.s, ok = atoiRange(parts[2], 0, 60); !ok {
			return w, false
		}
	}
	if off = strings.TrimSpace(off); off != "" {
		if off == "Z" || off == "z" {
			w.hasOffset = true
			return w, true
		}
		sign := 1
		if off[0] == '-' {
			sign = -1
		}
		oh, om, found := strings.Cut(off[1:], ":")
		if !found && len(oh) == 4 {
			oh, om = oh[:2], oh[2:]
		}
		hh, ok1 := atoiRange(oh, 0, 14)
		mm, ok2 := 0, true
		if om != "" {
			mm, ok2 = atoiRange(om, 0, 59)
		}
		if !ok1 || !ok2 {
			return w, false
		}
		w.hasOffset = true
		w.offset = sign * (hh*3600 + mm*60)
	}
	return w, true
}

func (w *wallTime) parseDate(s string) bool {
	var sep byte
	for _, c := range []byte{'-', '.', '/'} {
		if strings.Count(s, string(c)) == 2 {
			sep = c
			break
		}
	}
	if sep == 0 {
		return false
	}
	f := strings.Split(s, string(sep))
	var a, b, c int
	var ok1, ok2, ok3 bool
	a, ok1 = atoiRange(f[0], 0, 9999)
	b, ok2 = atoiRange(f[1], 1, 31)
	c, ok3 = atoiRange(f[2], 0, 9999)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	switch {
	case len(f[0]) == 4: // 2017-06-15
		w.y, w.mo, w.d = a, b, c
	case len(f[2]) == 4 && sep == '.': // 15.06.2017
		w.y, w.mo, w.d = c, b, a
	case len(f[2]) == 4 && a > 12: // 15-06-2017
		w.y, w.mo, w.d = c, b, a
	case len(f[2]) == 4: // 02-04-2018: month first, as US senders write it
		w.y, w.mo, w.d = c, a, b
	default:
		return false
	}
	return w.mo >= 1 && w.mo <= 12 && w.d >= 1 && w.d <= 31 && w.y >= 1900 && w.y <= 2200
}

func atoiRange(s string, lo, hi int) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil && n >= lo && n <= hi
}

// zoneHint is what is known about where a time happens.
type zoneHint struct {
	name string         // IANA name, "" if unknown
	loc  *time.Location // nil if unknown
}

// resolve places a wall time in a zone. A time with an offset keeps its
// instant; it is shown in the place's zone when that zone agrees with the
// offset. A UTC-marked time at a place that is not on UTC is taken to be
// local time wrongly labelled Z, a common markup mistake. A time without
// an offset is local time at the place; when the place is unknown it gets
// fallback's offset (the mail's Date) and no zone name.
func resolve(w wallTime, z zoneHint, fallback *time.Location) *Time {
	if z.loc != nil {
		local := time.Date(w.y, time.Month(w.mo), w.d, w.h, w.mi, w.s, 0, z.loc)
		if !w.hasOffset || w.dateOnly {
			return &Time{Time: local, Zone: z.name, DateOnly: w.dateOnly}
		}
		at := time.Date(w.y, time.Month(w.mo), w.d, w.h, w.mi, w.s, 0, time.FixedZone("", w.offset))
		if _, off := at.In(z.loc).Zone(); off == w.offset {
			return &Time{Time: at.In(z.loc), Zone: z.name}
		}
		if w.offset == 0 {
			return &Time{Time: local, Zone: z.name}
		}
		return &Time{Time: at}
	}
	loc := fallback
	if w.hasOffset {
		loc = time.FixedZone("", w.offset)
	}
	if loc == nil {
		loc = time.UTC
	}
	return &Time{Time: time.Date(w.y, time.Month(w.mo), w.d, w.h, w.mi, w.s, 0, loc), DateOnly: w.dateOnly}
}

// placeZoneHint is the zone of a place: by an IATA code in its name, by
// the city its name starts with, by its country, else by the sender's
// country.
func (c *msgContext) placeZoneHint(name, country string) zoneHint {
	// The city first: a station's code in parentheses may be an airport's
	// elsewhere ("London Kings Cross (KGX)" is not Grayling, Alaska).
	if z := c.placedZone(name); z.loc != nil {
		return z
	}
	return c.countryZone(country)
}

// countryZone is the zone of a country, else of the sender's country.
func (c *msgContext) countryZone(country string) zoneHint {
	if country == "" {
		country = c.senderCountry
	}
	if country == "" && c.date.IsZero() {
		// Nothing says where the mail is from, not even a Date header's
		// offset (a ticket's text carried without its mail's header): the
		// country its language is spoken in, where that is one zone, when
		// its words say the language beyond doubt.
		if !c.sureDone {
			c.sureLanguage, c.sureDone = lang.DetectSure(c.langText), true
		}
		country = languageCountry[c.sureLanguage]
		if country == "" {
			country = scriptCountry(c.langText)
		}
	}
	name, loc := places.CountryZone(country)
	return zoneHint{name, loc}
}

// languageCountry is the country whose zone a language's text is read in
// when nothing else places it: languages spoken at home in one zone of
// Europe (German's Germany, Austria and Switzerland, Dutch's Netherlands
// and Belgium, French's France, Belgium and Switzerland share one; Serbian's
// Serbia, Bosnia and Montenegro, Greek's Greece and Cyprus), not English,
// Spanish or Portuguese, spoken on several continents.
var languageCountry = map[string]string{
	"de": "DE", "nl": "NL", "fr": "FR", "it": "IT", "da": "DK", "sv": "SE",
	"nb": "NO", "fi": "FI", "cs": "CZ", "pl": "PL", "uk": "UA", "bg": "BG",
	"sk": "SK", "hr": "HR", "sl": "SI", "lt": "LT", "lv": "LV", "et": "EE",
	"sr": "RS", "mk": "MK", "el": "GR",
}

// countryCode accepts an ISO code or a few common country names.
func countryCode(s string) string {
	s = strings.TrimSpace(s)
	if len(s) == 2 {
		return strings.ToUpper(s)
	}
	return countryNames[places.Fold(s)]
}

var countryNames = map[string]string{
	"germany": "DE", "deutschland": "DE", "france": "FR", "united kingdom": "GB", "uk": "GB",
	"great britain": "GB", "spain": "ES", "espana": "ES", "italy": "IT", "italia": "IT",
	"netherlands": "NL", "belgium": "BE", "austria": "AT", "osterreich": "AT", "switzerland": "CH",
	"schweiz": "CH", "czech republic": "CZ", "czechia": "CZ", "poland": "PL", "denmark": "DK",
	"sweden": "SE", "norway": "NO", "portugal": "PT", "ireland": "IE", "japan": "JP",
	"taiwan": "TW", "india": "IN",
}
