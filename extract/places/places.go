// Package places answers, offline, where a travel code is and which time
// zone it keeps: IATA codes to IANA zones, countries to their zone, and
// airport names to codes. The tables are embedded (see README.md for their
// sources and licences); nothing is looked up on the network.
package places

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the zone rules travel with the binary, like the tables

	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

var (
	//go:embed iata_zones.tsv
	iataZones string
	//go:embed country_zones.tsv
	countryZones string
	//go:embed country_names.tsv
	countryNamesTSV string
	//go:embed city_names.tsv
	cityNamesTSV string
	//go:embed airports.tsv
	airportsTSV string
	//go:embed cjk_airports.tsv
	cjkAirportsTSV string
	//go:embed na_cities.tsv
	naCitiesTSV string
	//go:embed na_regions.tsv
	naRegionsTSV string
)

// Airport is one row of the airport table.
type Airport struct {
	Code, Name, City, Country string
	// Region is the airport's ISO 3166-2 subdivision less its country
	// ("PA" of BR-PA, Pará): a city written with its state's
	// abbreviation is placed by it ("Belém, PA" is no town of
	// Pennsylvania's).
	Region string
	Large  bool
	// Retired airports (Berlin Tegel) are known by name and code; by
	// their city's name only on a day before Closed, the last day they
	// served flights (AsOf): "Berlin" is the airport open today.
	Retired bool
	Closed  time.Time
}

// tables is parsed once, on first use; it is read-only afterwards.
type tables struct {
	zones     map[string]string
	airports  map[string]Airport
	retired   []Airport            // the retired airports with their closing days
	byName    map[string]string    // folded name or city → code
	cityZones map[string]string    // folded city → zone, when all its airports agree
	cityLarge map[string][]string  // folded city → its large airports, when it has several
	byCity    map[string][]Airport // folded city (or its name in another language) → its airports open today
	english   map[string]string    // a city's folded name in another language → its English one
	cjk       map[string]string    // an airport's name in Chinese, Japanese or Korean → its code
	regional  map[string]string    // a US or Canadian city, folded, and its state → its airport's code, "" for none
	// regionZones are a state's or province's zones by its abbreviation,
	// regionNames its abbreviation by its name in full, folded.
	regionZones map[string][]string
	regionNames map[string]string
	inCountry   map[string]bool // the countries the airport table holds airports in
	// byCountryName are the countries the zone table holds, by their
	// English names folded ("nicaragua" → "NI"; country_names.tsv).
	byCountryName map[string]string
}

// countryTable is the countries' zones and the zones loaded so far, kept
// apart from the airport tables: a bill's dates need only its country's
// zone, and load parses some 8,000 airports and their cities (about 0.1 s
// of CPU), which a sync of mail that names no place paid in every process.
type countryTable struct {
	countries map[string]string
	locs      sync.Map // zone name → *time.Location
}

var loadCountries = sync.OnceValue(func() *countryTable {
	return &countryTable{countries: parseTSV(countryZones)}
})

var load = sync.OnceValue(func() *tables {
	t := &tables{
		zones:         parseTSV(iataZones),
		airports:      map[string]Airport{},
		byName:        map[string]string{},
		cityZones:     map[string]string{},
		cityLarge:     map[string][]string{},
		english:       map[string]string{},
		cjk:           map[string]string{},
		regional:      map[string]string{},
		regionZones:   map[string][]string{},
		regionNames:   map[string]string{},
		inCountry:     map[string]bool{},
		byCountryName: map[string]string{},
	}
	for code, name := range parseTSV(countryNamesTSV) {
		t.byCountryName[Fold(name)] = code
	}
	for k, v := range parseTSV(cjkAirportsTSV) {
		t.cjk[Fold(k)] = v
	}
	cities := map[string][]Airport{}
	shortNames := map[string]string{}
	for line := range strings.Lines(airportsTSV) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) != 6 && len(f) != 7 {
			continue
		}
		a := Airport{Code: f[0], Name: f[1], City: f[2], Country: f[3], Large: f[4] == "l", Retired: f[4] == "r", Region: f[5]}
		if len(f) == 7 {
			a.Closed, _ = time.Parse(time.DateOnly, f[6])
		}
		t.airports[a.Code] = a
		if a.Retired {
			t.retired = append(t.retired, a)
		}
		t.inCountry[a.Country] = true
		t.byName[Fold(a.Name)] = a.Code
		// "London Heathrow" for "London Heathrow Airport", unless two
		// airports would share the short name.
		if short := withoutGeneric(Fold(a.Name)); short != "" && short != Fold(a.Name) {
			if prev, ok := shortNames[short]; ok && prev != a.Code {
				shortNames[short] = ""
			} else {
				shortNames[short] = a.Code
			}
		}
		// "Toulouse/Blagnac": the airport serves both places. "Olbia
		// (SS)", "Guangzhou (Huadu)": the city is the name before its
		// province's or district's in parentheses.
		for city := range strings.SplitSeq(a.City, "/") {
			if a.Retired {
				continue
			}
			if i := strings.Index(city, " ("); i > 0 && strings.HasSuffix(city, ")") {
				if main := Fold(city[:i]); main != "" {
					cities[main] = append(cities[main], a)
				}
			}
			if city = Fold(city); city != "" {
				cities[city] = append(cities[city], a)
			}
			// The table writes Mexico's municipalities as "Ciudad de
			// Cancún", "Ciudad de Mérida": mail says "Cancún", and
			// without it "Mérida" was Venezuela's. "Ciudad de México"
			// keeps its whole name ("México" is the country).
			if rest, ok := strings.CutPrefix(city, "ciudad de "); ok && a.Country == "MX" && rest != "mexico" {
				cities[rest] = append(cities[rest], a)
			}
		}
	}
	// A city's own name is the city: "Roma" is Rome, "München" Munich.
	for line := range strings.Lines(cityNamesTSV) {
		local, english, ok := strings.Cut(strings.TrimRight(line, "\n"), "\t")
		if !ok || strings.HasPrefix(local, "#") {
			continue
		}
		if as, ok := cities[Fold(english)]; ok {
			cities[Fold(local)] = as
		}
		t.english[Fold(local)] = Fold(english)
	}
	// A city name stands for its airport only when it has one large
	// airport, or one airport at all: "Munich" is MUC, "London" is none.
	// A city's zone is the one its large airports agree on ("London": not
	// London, Kentucky), else the one all its airports agree on. Cities
	// are also known by their first word ("Frankfurt am Main").
	// Votes per key: a city's zone from its large airports when it has
	// any, else from all; airports also vote under the first word of
	// their own name, so that Glasgow International (municipality
	// Paisley) outvotes Glasgow, Montana.
	large, all := map[string]map[string]bool{}, map[string]map[string]bool{}
	vote := func(m map[string]map[string]bool, key, zone string) {
		if m[key] == nil {
			m[key] = map[string]bool{}
		}
		m[key][zone] = true
	}
	for city, as := range cities {
		zone := agreedZone(t.zones, as, true)
		if zone == "" {
			zone = agreedZone(t.zones, as, false)
		}
		for _, key := range []string{city, strings.Fields(city)[0]} {
			vote(all, key, zone)
		}
	}
	for _, a := range t.airports {
		if f := strings.Fields(Fold(a.Name)); a.Large && len(f) > 0 && t.zones[a.Code] != "" {
			vote(large, f[0], t.zones[a.Code])
			vote(large, Fold(a.City), t.zones[a.Code])
		}
	}
	for key, zones := range all {
		if lz, ok := large[key]; ok {
			zones = lz
		}
		if len(zones) == 1 {
			for z := range zones {
				if z != "" {
					t.cityZones[key] = z
				}
			}
		}
	}
	for key, zones := range large {
		if _, done := all[key]; !done && len(zones) == 1 {
			for z := range zones {
				t.cityZones[key] = z
			}
		}
	}
	for short, code := range shortNames {
		// A short name that is a city's ("London Airport" in Ontario)
		// stays with the city rules below.
		if _, city := cities[short]; city {
			continue
		}
		if _, taken := t.byName[short]; !taken && code != "" {
			t.byName[short] = code
		}
	}
	// Large airports by the first word of their name: "Glasgow
	// International Airport" lies in Paisley, and the only airport whose
	// city is Glasgow is a small field in Montana.
	largeByWord := map[string][]string{}
	for _, a := range t.airports {
		if f := strings.Fields(Fold(a.Name)); a.Large && len(f) > 0 {
			largeByWord[f[0]] = append(largeByWord[f[0]], a.Code)
		}
	}
	for city, as := range cities {
		var large []Airport
		for _, a := range as {
			if a.Large {
				large = append(large, a)
			}
		}
		switch {
		case len(as) == 1 && !as[0].Large && len(largeByWord[city]) == 1:
			t.byName[city] = largeByWord[city][0]
		case len(as) == 1:
			t.byName[city] = as[0].Code
		case len(large) == 1:
			t.byName[city] = large[0].Code
		case len(large) > 1:
			for _, a := range large {
				t.cityLarge[city] = append(t.cityLarge[city], a.Code)
			}
			slices.Sort(t.cityLarge[city])
		}
	}
	t.byCity = cities
	t.shortForms(cities)
	t.readRegional()
	return t
})

// shortForms makes a city's name that is also the short form of a large
// airport's city in another country name neither alone: "Santiago" is
// Chile's capital and, in Spain, Santiago de Compostela, and a Madrid
// shuttle to "Santiago" is no flight to Chile (the tenth outside
// review, LOW-11). Both stay candidates for the other end of a route to
// choose between (LargeAirportsIn), as a city of two large airports does.
func (t *tables) shortForms(cities map[string][]Airport) {
	for long, as := range cities {
		words := strings.Fields(long)
		for n := 1; n < len(words); n++ {
			short := strings.Join(words[:n], " ")
			code, ok := t.byName[short]
			if !ok {
				continue
			}
			for _, a := range as {
				if a.Large && t.airports[code].Large && a.Country != t.airports[code].Country {
					delete(t.byName, short)
					t.cityLarge[short] = append(t.cityLarge[short], code, a.Code)
					slices.Sort(t.cityLarge[short])
					t.cityLarge[short] = slices.Compact(t.cityLarge[short])
				}
			}
		}
	}
}

// readRegional reads na_cities.tsv: a city with its state or province is
// the airport the table gives it, or none; a city named there only as one
// of several main airports ("Washington", "Houston") names none alone.
func (t *tables) readRegional() {
	none := map[string]bool{}
	for line := range strings.Lines(naCitiesTSV) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) != 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		city := Fold(f[0])
		t.regional[city+"|"+f[1]] = f[2]
		if _, seen := none[city]; !seen || f[2] != "" {
			none[city] = f[2] == ""
		}
	}
	for city, n := range none {
		if n {
			delete(t.byName, city)
		}
	}
	for line := range strings.Lines(naRegionsTSV) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) != 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		t.regionZones[f[0]] = strings.Split(f[2], ",")
		for name := range strings.SplitSeq(f[1], "|") {
			t.regionNames[Fold(name)] = f[0]
		}
	}
}

// splitRegion splits a name that ends in a US state or a Canadian
// province after a comma, abbreviated ("Kingston, ON") or in full
// ("Emeryville, California", "Québec, Québec"): the name before it, the
// region's abbreviation, and whether it was written in full.
func (t *tables) splitRegion(name string) (before, region string, full, ok bool) {
	i := strings.LastIndexByte(name, ',')
	if i <= 0 {
		return "", "", false, false
	}
	r := strings.TrimSpace(name[i+1:])
	if _, ok := regions[r]; ok {
		return strings.TrimSpace(name[:i]), r, false, true
	}
	if code, ok := t.regionNames[Fold(r)]; ok {
		return strings.TrimSpace(name[:i]), code, true, true
	}
	return "", "", false, false
}

// WithoutRegionName is a station's or town's name without the US state or
// Canadian province written in full after its comma ("New York (Penn
// Station), New York" is "New York (Penn Station)"): the region is where
// the place lies, not its name. An abbreviation stays ("Washington, DC").
func WithoutRegionName(name string) string {
	if before, _, full, ok := load().splitRegion(name); ok && full && before != "" {
		return before
	}
	return name
}

// RegionZone is the zone of a place named with its US state or Canadian
// province after a comma ("Emeryville, California", "Toronto Union, ON",
// "Chicago (Union Station), IL", "Hudson, NY (HUD)"): its town's, when the
// town is in the regional table or has an airport in that country and one
// of the region's zones, else the region's own when it keeps one. in
// reports that the name is such a place, zone or none: a town of a region
// of several zones that nothing places has none, and no namesake's or
// code's elsewhere (Kingston, ON is not Jamaica's, nor "(HUD)" an
// airport's). A name whose abbreviation is its country's ("Berlin, DE",
// "Toronto, CA") or whose town lies abroad under a region written in full
// ("Tbilisi, Georgia") is none of them.
func RegionZone(name string) (zone string, loc *time.Location, in bool) {
	t := load()
	// A station's code after the region ("Hudson, NY (HUD)").
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		name = strings.TrimSpace(name[:i])
	}
	before, region, full, ok := t.splitRegion(name)
	if !ok {
		return "", nil, false
	}
	zones := t.regionZones[region]
	if i := strings.IndexByte(before, '('); i > 0 {
		before = before[:i] // "New York (Penn Station)": the town
	}
	countryCode := t.inCountry[region] // "DE", "CA", "IN": also a country's
	words := strings.Fields(Fold(before))
	// The town may go on with its station's words ("Toronto Union"): its
	// longest first words that name one.
	for n := min(4, len(words)); n >= 1; n-- {
		city := strings.Join(words[:n], " ")
		if code, ok := t.regional[city+"|"+region]; ok && code != "" {
			if z := t.zones[code]; slices.Contains(zones, z) {
				zone, loc = t.location(z)
				return zone, loc, true
			}
			return "", nil, true
		}
		if code, ok := t.lookup(city); ok {
			switch country := t.airports[code].Country; {
			case countryCode && country == region, full && country != regions[region]:
				return "", nil, false // "Berlin, DE", "Tbilisi, Georgia"
			case !full && country != regions[region] && t.airports[code].Region == region:
				// The abbreviation is the town's own state's abroad
				// ("Belém, PA" is Pará's, "Maceió, AL" Alagoas').
				return "", nil, false
			case country == regions[region]:
				if z := t.zones[code]; slices.Contains(zones, z) {
					zone, loc = t.location(z)
					return zone, loc, true
				}
				return "", nil, true
			}
			break // a namesake abroad ("Paris, TX"): the region decides
		}
		// A city of several large airports ("Toronto, CA" is Canada's).
		for _, code := range t.cityLarge[city] {
			if country := t.airports[code].Country; countryCode && country == region {
				return "", nil, false
			}
		}
		if z, ok := t.cityZones[city]; ok && n == len(words) && len(zones) > 1 && slices.Contains(zones, z) {
			zone, loc = t.location(z) // "New York", "Chicago": several airports, one zone
			return zone, loc, true
		}
	}
	if len(zones) == 1 {
		zone, loc = t.location(zones[0])
		return zone, loc, true
	}
	return "", nil, true
}

// regions are the United States' states, its capital's district and
// Puerto Rico, and Canada's provinces and territories, as addresses
// abbreviate them, with their country.
var regions = func() map[string]string {
	m := map[string]string{}
	for r := range strings.FieldsSeq("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR") {
		m[r] = "US"
	}
	for r := range strings.FieldsSeq("AB BC MB NB NL NS NT NU ON PE QC SK YT") {
		m[r] = "CA"
	}
	return m
}()

// regionSuffix splits a name that ends in a US state's or a Canadian
// province's abbreviation after a comma ("HARTFORD, CT", "Kelowna, BC").
func regionSuffix(name string) (city, region string, ok bool) {
	i := strings.LastIndexByte(name, ',')
	if i <= 0 {
		return "", "", false
	}
	region = strings.TrimSpace(name[i+1:])
	if _, ok := regions[region]; !ok {
		return "", "", false
	}
	return strings.TrimSpace(name[:i]), region, true
}

// countrySuffix splits a name that ends in a country's English name after
// a comma ("Managua, Nicaragua") into the city and the country's code.
func (t *tables) countrySuffix(name string) (city, country string, ok bool) {
	i := strings.LastIndexByte(name, ',')
	if i <= 0 {
		return "", "", false
	}
	country, ok = t.byCountryName[Fold(name[i+1:])]
	return strings.TrimSpace(name[:i]), country, ok
}

// inCountryNamed is the airport of a folded city in a country: the city's
// own when it lies there, else its one airport there open today.
func (t *tables) inCountryNamed(city, country string) (string, bool) {
	if code, ok := t.lookup(city); ok && t.airports[code].Country == country {
		return code, true
	}
	found := ""
	for _, a := range t.byCity[city] {
		if a.Country == country {
			if found != "" {
				return "", false
			}
			found = a.Code
		}
	}
	return found, found != ""
}

// InRegion reports whether a name ends in a US state's or a Canadian
// province's abbreviation after a comma ("DENVER, CO").
func InRegion(name string) bool {
	_, _, ok := regionSuffix(name)
	return ok
}

// inRegion is the airport of a folded city in a state or province: the
// regional table's, else the city's own when it lies in that country
// ("Birmingham, AL" is not Birmingham in England) or in a state of its
// own country that the abbreviation names ("Belém, PA" is Pará's, its
// airport's region). Abbreviations that are also countries' ("DE") keep
// that country's cities ("Berlin, DE").
func (t *tables) inRegion(city, region string) (string, bool) {
	if code, ok := t.regional[city+"|"+region]; ok {
		return code, code != ""
	}
	code, ok := t.lookup(city)
	if !ok {
		return "", false
	}
	if a := t.airports[code]; a.Country != region && a.Country != regions[region] && a.Region != region {
		return "", false // "Birmingham, AL" is not Birmingham in England; "Belém, PA" is Pará's
	}
	return code, true
}

// genericWords say "airport" and nothing about which one.
var genericWords = map[string]bool{"airport": true, "international": true, "intl": true, "aeroporto": true,
	"aeropuerto": true, "aeroport": true, "flughafen": true, "regional": true, "municipal": true, "airfield": true, "apt": true}

// isGeneric reports whether a folded word says "airport" and nothing
// about which one, misspelt by a letter too ("Francisco Bangoy
// International Aiport" in Cebu Pacific's receipts).
func isGeneric(w string) bool { return genericWords[w] || oneEdit(w, "airport") }

// oneEdit reports whether a is b with one letter left out, added,
// changed or two neighbours swapped.
func oneEdit(a, b string) bool {
	if a == b || len(a) < len(b)-1 || len(a) > len(b)+1 {
		return false
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case len(a) == len(b):
		return a[i+1:] == b[i+1:] || i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case len(a) < len(b):
		return a[i:] == b[i+1:]
	default:
		return a[i+1:] == b[i:]
	}
}

// withoutGeneric drops the generic words from a folded name.
func withoutGeneric(folded string) string {
	var keep []string
	for _, w := range strings.Fields(folded) {
		if !isGeneric(w) {
			keep = append(keep, w)
		}
	}
	return strings.Join(keep, " ")
}

// agreedZone is the zone shared by the (large) airports, or "".
func agreedZone(zones map[string]string, as []Airport, largeOnly bool) string {
	zone := ""
	for _, a := range as {
		if largeOnly && !a.Large {
			continue
		}
		z := zones[a.Code]
		if zone != "" && z != zone {
			return ""
		}
		zone = z
	}
	return zone
}

func parseTSV(s string) map[string]string {
	m := make(map[string]string, strings.Count(s, "\n"))
	for line := range strings.Lines(s) {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\n"), "\t")
		if ok {
			m[k] = v
		}
	}
	return m
}

// Zone returns the time zone of an IATA location code ("FRA"), or "" and
// nil when the table does not know it.
func Zone(code string) (string, *time.Location) {
	t := load()
	return t.location(t.zones[strings.ToUpper(code)])
}

// CountryZone returns the zone of most of a country (ISO 3166 alpha-2),
// or "" and nil when the country spans several zones.
func CountryZone(country string) (string, *time.Location) {
	t := loadCountries()
	return t.location(t.countries[strings.ToUpper(country)])
}

// Known reports whether code is an IATA location code in the zone table.
func Known(code string) bool {
	_, ok := load().zones[code]
	return ok
}

// CityZone returns the zone of the city a place name starts with
// ("London St Pancras" → Europe/London), from the cities of the airport
// table, or "" and nil.
func CityZone(name string) (string, *time.Location) {
	t := load()
	words := strings.Fields(Fold(name))
	for n := min(3, len(words)); n >= 1; n-- {
		if z, ok := t.cityZones[strings.Join(words[:n], " ")]; ok {
			return t.location(z)
		}
	}
	return "", nil
}

// AirportByName returns the code of the airport a name or city refers to,
// when exactly one airport matches. A US or Canadian city may end in its
// state's or province's abbreviation ("HARTFORD, CT": na_cities.tsv).
func AirportByName(name string) (string, bool) {
	t := load()
	// "LOS ANGELES, CA", "Portland, ME": the city in its state.
	if city, region, ok := regionSuffix(name); ok {
		return t.inRegion(Fold(city), region)
	}
	// "Managua, Nicaragua", "San José, Costa Rica": the city in its
	// country, by the country's English name.
	if city, country, ok := t.countrySuffix(name); ok {
		return t.inCountryNamed(Fold(city), country)
	}
	f := Fold(name)
	if code, ok := t.lookup(f); ok {
		return code, true
	}
	// An airport's name with its city's name in another language:
	// "Londres Heathrow" is London Heathrow.
	if first, rest, ok := strings.Cut(f, " "); ok && t.english[first] != "" {
		if code, ok := t.lookup(t.english[first] + " " + rest); ok {
			return code, true
		}
	}
	if !isASCII(f) {
		return t.cjkAirport(f)
	}
	if code, ok := t.cityAndWord(f); ok {
		return code, true
	}
	// "Kota Kinabalu International Airport (T2)", "Kuching International
	// Airport (Main": an airport's full name and a terminal or a note in
	// parentheses after it, perhaps cut at the line's end. Only a name
	// that says "airport" before the parenthesis stands without it:
	// "Tokyo (Haneda)" is no airport without what it holds.
	if before, _, ok := strings.Cut(name, "("); ok && strings.Contains(before, " ") && slices.ContainsFunc(strings.Fields(Fold(before)), isGeneric) {
		return t.lookup(Fold(before))
	}
	return "", false
}

// cityAndWord reads a name that is a city's followed by words of one of
// its airports' own names ("Roma Fiumicino", "Barcelona El Prat",
// "Stockholm Arlanda"), or by the city's name again and generic words
// ("Munich Munich", "San Francisco San Francisco Intl Apt": a booking
// page's city over the airport's short name): the one airport of the
// city whose name holds every such word. A word that no airport of the
// city or two of them hold names none.
func (t *tables) cityAndWord(folded string) (string, bool) {
	words := strings.Fields(folded)
	for n := min(len(words)-1, 3); n >= 1; n-- {
		city := strings.Join(words[:n], " ")
		as := t.byCity[city]
		if len(as) == 0 {
			continue
		}
		var rest []string
		for _, w := range words[n:] {
			if !isGeneric(w) && !slices.Contains(words[:n], w) {
				rest = append(rest, w)
			}
		}
		if len(rest) == 0 {
			code, ok := t.byName[city]
			return code, ok
		}
		found := ""
		for _, a := range as {
			own := strings.Fields(Fold(a.Name))
			if !a.Retired && !slices.ContainsFunc(rest, func(w string) bool { return !slices.Contains(own, w) }) {
				if found != "" && found != a.Code {
					return "", false
				}
				found = a.Code
			}
		}
		return found, found != ""
	}
	return "", false
}

// AsOf is the airport a city's name meant on a day, given the code it
// means today: where a retired airport of the same city still served
// flights that day, that airport, when it was the only one ("Legazpi"
// on 2016-01-24 is LGP, Bicol International's DRP opening in 2021); ""
// and false when several were (Berlin's Tegel and Schönefeld before
// BER); the code itself otherwise. Archived mail names a city as its
// day knew it.
func AsOf(code string, day time.Time) (string, bool) {
	t := load()
	a, ok := t.airports[code]
	if !ok || a.Retired {
		return code, true
	}
	found := ""
	for _, r := range t.retired {
		if r.Country != a.Country || Fold(r.City) != Fold(a.City) || r.Closed.IsZero() || !day.Before(r.Closed.AddDate(0, 0, 1)) {
			continue
		}
		if found != "" {
			return "", false
		}
		found = r.Code
	}
	if found == "" {
		return code, true
	}
	return found, true
}

// CityOf returns the city an airport's code serves, or "".
func CityOf(code string) string { return load().airports[strings.ToUpper(code)].City }

// CountryOf returns the country of an airport's code, or "".
func CountryOf(code string) string { return load().airports[strings.ToUpper(code)].Country }

// CityAirports returns the airports open today of the city a name is, by
// its English name or its own ("Aberdeen": Scotland's and South
// Dakota's), for a route's other end to choose between.
func CityAirports(name string) []Airport {
	return slices.Clone(load().byCity[Fold(name)])
}

// cjkWords are the words for "airport" that follow an airport's name in
// Chinese, Japanese and Korean, longest first.
var cjkWords = []string{"國際機場", "国际机场", "国際空港", "국제공항", "飞机场", "機場", "机场", "空港", "공항"}

// cjkAirport is the airport of a folded name in Chinese, Japanese or
// Korean (cjk_airports.tsv): the name whole, else the one word of it
// that names an airport ("東京 羽田" for "東京(羽田)", "서울 김포" for
// "서울/김포"), its word for "airport" left off. Two words that name
// two airports name none.
func (t *tables) cjkAirport(folded string) (string, bool) {
	bare := func(w string) string {
		for _, g := range cjkWords {
			if b, ok := strings.CutSuffix(w, g); ok && b != "" {
				return b
			}
		}
		return w
	}
	if code, ok := t.cjk[bare(strings.ReplaceAll(folded, " ", ""))]; ok {
		return code, true
	}
	found := ""
	for _, w := range strings.Fields(folded) {
		if code, ok := t.cjk[bare(w)]; ok {
			if found != "" && found != code {
				return "", false
			}
			found = code
		}
	}
	return found, found != ""
}

func (t *tables) lookup(folded string) (string, bool) {
	if code, ok := t.byName[folded]; ok {
		return code, true
	}
	code, ok := t.byName[withoutGeneric(folded)]
	return code, ok
}

// LargeAirportsIn returns the codes of a city's large airports when it has
// more than one and its name alone says none ("Barcelona": BCN in Spain,
// BLA in Venezuela); the other end of a route may choose between them.
func LargeAirportsIn(city string) []string {
	return load().cityLarge[Fold(city)]
}

// Location returns the IANA zone name as a location, loaded once per
// zone (time.LoadLocation reads the zone database on every call), or nil
// when the zone database does not know it.
func Location(name string) *time.Location {
	_, l := loadCountries().location(name)
	return l
}

// location is the zone called name (countryTable's location): the airport
// tables share the countries' cache of loaded zones.
func (t *tables) location(name string) (string, *time.Location) {
	return loadCountries().location(name)
}

// location is the zone called name, loaded once.
func (t *countryTable) location(name string) (string, *time.Location) {
	if name == "" {
		return "", nil
	}
	if l, ok := t.locs.Load(name); ok {
		return name, l.(*time.Location)
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return "", nil
	}
	t.locs.Store(name, l)
	return name, l
}

// withoutMarks drops the nonspacing marks (Mn) from s, decomposed, and
// writes a byte that is not UTF-8 as U+FFFD, as a chain of transform's
// NFD, runes.Remove and NFC did, without the chain's two buffers of 4 KiB
// for each name: a sixth of a calendar mail's allocations.
func withoutMarks(s string) string {
	var b []byte // nil until the first change
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		invalid := r == utf8.RuneError && n == 1
		drop := !invalid && unicode.Is(unicode.Mn, r)
		if (drop || invalid) && b == nil {
			b = append(make([]byte, 0, len(s)+2), s[:i]...)
		}
		switch {
		case invalid:
			b = utf8.AppendRune(b, utf8.RuneError)
		case !drop && b != nil:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	if b == nil {
		return s
	}
	return string(b)
}

// Fold lower-cases s, strips accents and collapses punctuation and space,
// so that "Zürich-Flughafen" and "zurich flughafen" compare equal; a
// compass word after a place's first word is read in English ("Tenerife
// Sur" is "tenerife south").
func Fold(s string) string {
	f := FoldWords(s)
	if !strings.ContainsAny(f, " ") {
		return f
	}
	// "Tenerife South" is "Tenerife Sur Airport": the compass in one word
	// whatever the language.
	w := strings.Fields(f)
	for i, x := range w[1:] {
		if c, ok := compass[x]; ok {
			w[i+1] = c
		}
	}
	return strings.Join(w, " ")
}

// FoldWords is Fold without reading compass words: for names that are
// not places, as a shop's ("Fietsenwinkel Noord" is not "fietsenwinkel
// north", whose domain is fietsenwinkelnoord.nl).
func FoldWords(s string) string {
	r := s
	if !isASCII(s) {
		r = norm.NFC.String(withoutMarks(norm.NFD.String(s)))
	}
	var b strings.Builder
	space := false
	for _, c := range strings.ToLower(r) {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(c)
		} else {
			space = true
		}
	}
	return b.String()
}

// compass words of the languages airports are named in, after Fold.
var compass = map[string]string{
	"sur": "south", "sud": "south", "sul": "south", "zuid": "south", "syd": "south", "sor": "south", "sør": "south", "süd": "south",
	"norte": "north", "nord": "north", "noord": "north", "norr": "north",
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Serves reports whether an airport's code is one a place's name may
// mean: the name, or its city's name in another language ("Lissabon",
// "Helsingfors"), is the airport's city or its name, whole or at the
// name's start ("Rome Fiumicino"). A code a mail prints beside a name
// that is no such airport's (a hotel's "(TXL)" beside a street) is none
// of the name's.
func Serves(name, code string) bool {
	t := load()
	a, ok := t.airports[code]
	if !ok || a.Retired {
		return false
	}
	f := withoutGeneric(Fold(name))
	if f == "" {
		return false
	}
	own := withoutGeneric(Fold(a.Name))
	fits := func(f string) bool {
		if f == own {
			return true
		}
		for c := range strings.SplitSeq(a.City, "/") {
			if c = Fold(c); c != "" && (f == c || strings.HasPrefix(f, c+" ")) {
				return true
			}
		}
		return false
	}
	if fits(f) {
		return true
	}
	first, rest, _ := strings.Cut(f, " ")
	if e := t.english[first]; e != "" {
		return fits(strings.TrimSpace(e + " " + rest))
	}
	return false
}
