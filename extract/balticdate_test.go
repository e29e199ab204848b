package extract

import "testing"

// TestBalticSlavicDates: Slovak, Croatian, Slovenian, Lithuanian, Latvian
// and Estonian dates: month names in their cases, Croatian's dot after
// the year, Lithuanian's "2026 m. gruodžio 18 d." and Latvian's "2026.
// gada 18. decembrī", whose year would otherwise stay in a station's name.
func TestBalticSlavicDates(t *testing.T) {
	for _, c := range []struct {
		line, want string
		end        int // the date's end, 0 for any
	}{
		{"Odchod: Bratislava hl.st., 18. decembra 2030, 06:05", "2030-12-18", 0},
		{"Dátum splatnosti: 23. januára 2031", "2031-01-23", 0},
		{"Polazak: Zagreb Glavni kolodvor, 18. prosinca 2030. u 07:05", "2030-12-18", 0},
		{"Datum dospijeća: 24. siječnja 2031.", "2031-01-24", 0},
		{"Odhod: Ljubljana, 18. julija 2030 ob 06:45", "2030-07-18", 0},
		{"Apmokėti iki: 2030 m. gruodžio 20 d.", "2030-12-20", len("Apmokėti iki: 2030 m. gruodžio 20 d.")},
		{"Siuntą atsiimkite iki 2031 m. sausio 5 d. imtinai", "2031-01-05", 0},
		{"Atiešana: Rīga, 2030. gada 18. decembrī, 07:52", "2030-12-18", len("Atiešana: Rīga, 2030. gada 18. decembrī")},
		{"Apmaksāt līdz: 2031. gada 3. februārim", "2031-02-03", 0},
		{"Väljumine: Tallinn, 18. detsember 2030 kell 07:10", "2030-12-18", 0},
		{"Pasūtījums 2030. gada 18 preces", "", 0},
		{"Summa 2030 m. 18", "", 0},
	} {
		got, end := "", 0
		if ds := findDates(c.line, false); len(ds) > 0 && ds[0].hasYear {
			got, end = dateString(ds[0]), ds[0].end
		}
		if got != c.want || c.end > 0 && end != c.end {
			t.Errorf("findDates(%q) = %q ending at %d, want %q ending at %d", c.line, got, end, c.want, c.end)
		}
	}
}
