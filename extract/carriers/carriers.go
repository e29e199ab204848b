// Package carriers recognises parcel tracking numbers: which carrier's
// format a number has and whether its check digit holds, from the
// tracking_number_data definitions of 17 carriers and UPU S10 for postal
// operators worldwide (data/, MIT). A long number in a mail is a parcel's
// only when some carrier could have issued it; and a number that passes
// one carrier's check is not that carrier's when the mail comes from
// another (Identify's sender).
package carriers

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

//go:embed data/*.json
var data embed.FS

// Match is a tracking number a carrier could have issued.
type Match struct {
	Carrier string // the courier's name, e.g. "FedEx", "S10" for a postal operator
	Code    string // the courier's code, e.g. "fedex", "s10"
	Format  string // the format's id, e.g. "fedex_12"
	Number  string // the number without spaces
	// Country is, for a UPU S10 number, its two-letter country code.
	Country string
	// Domains are the carrier's mail domains (see senderDomains).
	Domains []string
	// Checked says the format has a check digit, and it holds: a format
	// without one ("Purolator (alpha + 9)": three letters, nine digits)
	// fits many a carrier's number and proves no carrier.
	Checked bool
}

// format is one compiled tracking-number format.
type format struct {
	courier, code, id string
	re                *regexp.Regexp
	check             *checksum
	prepend           *prependIf
	lookups           []lookup // "additional" groups that must match (validation.additional.exists)
	valid, invalid    []string
}

type checksum struct {
	Name            string `json:"name"`
	EvensMultiplier int    `json:"evens_multiplier"`
	OddsMultiplier  int    `json:"odds_multiplier"`
	Reverse         bool   `json:"reverse"`
	Weightings      []int  `json:"weightings"`
	Modulo1         int    `json:"modulo1"`
	Modulo2         int    `json:"modulo2"`
}

// prependIf puts content before a serial number that does not start with
// a prefix (the definitions write it as a negative lookahead).
type prependIf struct {
	unless  *regexp.Regexp
	content string
}

type lookup struct {
	group   string
	matches []*regexp.Regexp
	names   []string
}

var (
	loadOnce sync.Once
	formats  []format
	loadErr  error
)

// jsonFormat is a tracking_numbers entry of a courier file.
type jsonFormat struct {
	Name       string          `json:"name"`
	ID         string          `json:"id"`
	Regex      json.RawMessage `json:"regex"` // a string or an array of strings
	Validation struct {
		Checksum           *checksum `json:"checksum"`
		SerialNumberFormat *struct {
			PrependIf *struct {
				MatchesRegex string `json:"matches_regex"`
				Content      string `json:"content"`
			} `json:"prepend_if"`
		} `json:"serial_number_format"`
		Additional *struct {
			Exists []string `json:"exists"`
		} `json:"additional"`
	} `json:"validation"`
	Additional []struct {
		Name           string `json:"name"`
		RegexGroupName string `json:"regex_group_name"`
		Lookup         []struct {
			Name         string `json:"name"`
			Matches      string `json:"matches"`
			MatchesRegex string `json:"matches_regex"`
		} `json:"lookup"`
	} `json:"additional"`
	TestNumbers struct {
		Valid   []string `json:"valid"`
		Invalid []string `json:"invalid"`
	} `json:"test_numbers"`
}

func load() ([]format, error) {
	loadOnce.Do(func() {
		entries, err := data.ReadDir("data")
		if err != nil {
			loadErr = err
			return
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			b, err := data.ReadFile(path.Join("data", e.Name()))
			if err != nil {
				loadErr = err
				return
			}
			var c struct {
				Name            string       `json:"name"`
				CourierCode     string       `json:"courier_code"`
				TrackingNumbers []jsonFormat `json:"tracking_numbers"`
			}
			if err := json.Unmarshal(b, &c); err != nil {
				loadErr = fmt.Errorf("carriers: %s: %w", e.Name(), err)
				return
			}
			for _, t := range c.TrackingNumbers {
				f, err := compile(c.Name, c.CourierCode, t)
				if err != nil {
					loadErr = fmt.Errorf("carriers: %s %s: %w", e.Name(), t.ID, err)
					return
				}
				formats = append(formats, f)
			}
		}
	})
	return formats, loadErr
}

func compile(courier, code string, t jsonFormat) (format, error) {
	var parts []string
	if err := json.Unmarshal(t.Regex, &parts); err != nil {
		var one string
		if err := json.Unmarshal(t.Regex, &one); err != nil {
			return format{}, err
		}
		parts = []string{one}
	}
	src := stripLookaheads(strings.Join(parts, ""))
	re, err := regexp.Compile(`^(?:` + src + `)$`)
	if err != nil {
		return format{}, err
	}
	id := t.ID
	if id == "" {
		id = t.Name
	}
	f := format{courier: courier, code: code, id: id, re: re, check: t.Validation.Checksum,
		valid: t.TestNumbers.Valid, invalid: t.TestNumbers.Invalid}
	if sf := t.Validation.SerialNumberFormat; sf != nil && sf.PrependIf != nil {
		p := &prependIf{content: sf.PrependIf.Content}
		// The definitions write "does not start with X" as ^(?!X).+ ,
		// which Go's regexp has no syntax for.
		inner, ok := strings.CutPrefix(sf.PrependIf.MatchesRegex, "^(?!")
		if !ok {
			return format{}, fmt.Errorf("prepend_if %q is not ^(?!...)", sf.PrependIf.MatchesRegex)
		}
		inner = inner[:strings.LastIndex(inner, ")")]
		if p.unless, err = regexp.Compile(`^(?:` + inner + `)`); err != nil {
			return format{}, err
		}
		f.prepend = p
	}
	if t.Validation.Additional != nil {
		for _, name := range t.Validation.Additional.Exists {
			for _, a := range t.Additional {
				if a.Name != name {
					continue
				}
				l := lookup{group: a.RegexGroupName}
				for _, m := range a.Lookup {
					pat := regexp.QuoteMeta(m.Matches)
					if m.MatchesRegex != "" {
						pat = m.MatchesRegex
					}
					r, err := regexp.Compile(`^(?:` + pat + `)$`)
					if err != nil {
						return format{}, err
					}
					l.matches, l.names = append(l.matches, r), append(l.names, m.Name)
				}
				f.lookups = append(f.lookups, l)
			}
		}
	}
	return f, nil
}

// stripLookaheads drops (?=...) and (?!...) assertions, which Go's regexp
// does not have: the formats that use them only narrow what they match.
func stripLookaheads(s string) string {
	for {
		i := strings.Index(s, "(?=")
		if j := strings.Index(s, "(?!"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			return s
		}
		depth, end := 0, -1
		for k := i; k < len(s); k++ {
			switch s[k] {
			case '\\':
				k++
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					end = k
				}
			}
			if end >= 0 {
				break
			}
		}
		if end < 0 {
			return s
		}
		s = s[:i] + s[end+1:]
	}
}

// validate reports whether number is a number of format f, and the S10
// country when it has one.
func (f *format) validate(number string) (country string, ok bool) {
	m := f.re.FindStringSubmatch(number)
	if m == nil {
		return "", false
	}
	group := func(name string) string {
		i := f.re.SubexpIndex(name)
		if i < 0 {
			return ""
		}
		return strings.Join(strings.Fields(m[i]), "")
	}
	serial, check := group("SerialNumber"), group("CheckDigit")
	if f.prepend != nil && !f.prepend.unless.MatchString(serial) {
		serial = f.prepend.content + serial
	}
	if f.check != nil && !f.check.holds(serial, check) {
		return "", false
	}
	for _, l := range f.lookups {
		v, found := group(l.group), false
		for _, r := range l.matches {
			if r.MatchString(v) {
				found = true
				break
			}
		}
		if !found {
			return "", false
		}
	}
	return group("CountryCode"), true
}

// Identify returns the carriers whose format number has and whose check
// digit holds, best first. A number several carriers could have issued is
// put in the order: the sender's own carrier (its mail domain), then
// formats with a check digit, then the rest. sender is the mail's From
// domain ("" if unknown).
func Identify(number, sender string) []Match {
	fs, err := load()
	if err != nil {
		return nil
	}
	number = strings.ToUpper(strings.TrimSpace(number))
	compact := strings.Join(strings.Fields(number), "")
	if len(compact) < 8 || len(compact) > 40 {
		return nil
	}
	var out []Match
	seen := map[string]bool{}
	for i := range fs {
		f := &fs[i]
		country, ok := f.validate(number)
		if !ok || seen[f.code] {
			continue
		}
		seen[f.code] = true
		out = append(out, Match{Carrier: f.courier, Code: f.code, Format: f.id, Number: compact, Country: country,
			Domains: senderDomains[f.code], Checked: f.check != nil})
	}
	rank := func(m Match) int {
		r := 0
		if sender != "" && fromCarrier(sender, m) {
			r -= 4
		}
		if f := formatOf(m.Format); f != nil && f.check != nil {
			r -= 2
		}
		return r
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

func formatOf(id string) *format {
	fs, _ := load()
	for i := range fs {
		if fs[i].id == id {
			return &fs[i]
		}
	}
	return nil
}

// fromCarrier reports whether sender is one of m's carrier's domains.
func fromCarrier(sender string, m Match) bool {
	sender = strings.ToLower(sender)
	for _, d := range m.Domains {
		if sender == d || strings.HasSuffix(sender, "."+d) {
			return true
		}
	}
	return false
}

// CarrierOf is the carrier whose mail domain sender is ("" if none): a
// mail from a carrier is about a parcel it carries.
func CarrierOf(sender string) string {
	sender = strings.ToLower(sender)
	for _, b := range brandDomains {
		if sender == b.domain || strings.HasSuffix(sender, "."+b.domain) {
			return b.brand
		}
	}
	for code, ds := range senderDomains {
		for _, d := range ds {
			if sender == d || strings.HasSuffix(sender, "."+d) {
				return carrierNames[code]
			}
		}
	}
	return ""
}

// brandDomains are the domains of a carrier's brand, whose mails name
// the brand rather than the carrier (Colissimo's, La Poste's parcels).
var brandDomains = []struct{ domain, brand string }{{"colissimo.fr", "Colissimo"}, {"colissimo.com", "Colissimo"}}

// Name is the display name of a carrier code ("" if unknown).
func Name(code string) string { return carrierNames[code] }

// Names are the names carriers go by in mail: every display name, and
// the brands written instead of them ("Colissimo" for La Poste's parcels,
// "Posten" for Bring's).
func Names() []string {
	var out []string
	for _, n := range carrierNames {
		out = append(out, n)
	}
	for n := range longNames {
		out = append(out, n)
	}
	return append(out, brandNames...)
}

// longNames are carriers' full names as shops and payment services write
// them ("Shipper: U.S. Postal Service"), and the names of their parcel
// services that Japanese shops write for the carrier ("ヤマト宅急便でお届け
// いたします", "ゆうパックにて発送"), by the name the carrier goes by.
var longNames = map[string]string{
	"U.S. Postal Service": "USPS", "US Postal Service": "USPS", "United States Postal Service": "USPS",
	"United Parcel Service": "UPS", "Federal Express": "FedEx",
	"ヤマト宅急便": "ヤマト運輸", "クロネコヤマト": "ヤマト運輸", "ゆうパック": "日本郵便", "ゆうパケット": "日本郵便", "飛脚宅配便": "佐川急便",
}

// FullNames are the full names longNames holds of the carrier that goes
// by short.
func FullNames(short string) []string {
	var out []string
	for long, s := range longNames {
		if s == short {
			out = append(out, long)
		}
	}
	return out
}

// Canonical is the name a carrier goes by for one of its full names
// (longNames), else name.
func Canonical(name string) string {
	if short, ok := longNames[name]; ok {
		return short
	}
	return name
}

// wordNames are carriers' names that are also words of a language the
// mails are written in: "Bring photo ID" opens an English sentence with
// the verb.
var wordNames = map[string]bool{"Bring": true}

// IsWord reports whether a carrier's name is also a word of some
// language, so that a sentence may start with it meaning that word.
func IsWord(name string) bool { return wordNames[name] }

// brandNames are carriers' and their services' names that mails write and
// that have no format or domain of their own here.
var brandNames = []string{"Colissimo", "Posten", "SDA", "Nacex", "MRW", "Zásilkovna", "PPL", "DAO", "Omniva",
	"Correos Express", "Post Danmark", "Matkahuolto",
	// Freight and cross-border carriers that shops name ("Carrier:
	// Cainiao", "Transportör: DB Schenker").
	"DB Schenker", "Cainiao", "Asendia", "GEODIS", "Colis Privé", "Relais Colis", "Yanwen", "4PX", "J&T Express",
	"Venipak", "Dachser", "Helthjem", "Airmee", "Early Bird", "Porterbuddy",
	// Ukrainian, Bulgarian, Serbian and Greek couriers, as their own
	// scripts and Latin write them.
	"Нова пошта", "Нова Пошта", "Nova Poshta", "Укрпошта", "Meest", "Еконт", "Econt Express", "Спиди", "Post Express",
	"Пошта Србије", "Пост Експрес", "ΕΛΤΑ", "ΕΛΤΑ Courier", "ACS Courier", "Γενική Ταχυδρομική",
	// Slovak, Croatian, Slovenian, Lithuanian and Latvian posts and
	// couriers: a label's value of two words ("Dostavna služba: Hrvatska
	// pošta") was read as its first.
	"Slovenská pošta", "Hrvatska pošta", "Pošta Slovenije", "Lietuvos paštas", "LP Express", "Latvijas Pasts",
	"Overseas Express",
	// South Asia's, South-East Asia's and Iberia's couriers that shops
	// name before a tracking number's label ("M&P tracking number: …",
	// "Leopards Courier tracking number: …"; issue 46, xf9o).
	"M&P", "Leopards Courier", "TCS", "Trax", "PostEx", "BlueEx", "Call Courier", "Pakistan Post", "DTDC", "Ecom Express",
	"Xpressbees", "Shadowfax", "India Post", "Ekart", "J&T", "Kerry Express", "Flash Express", "LBC Express", "Pos Laju",
	"Tipsa", "CTT Expresso", "Paack"}
