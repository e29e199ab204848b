package uic918

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rct2Record reads a bare U_TLAY record (the .rct2 files) as far as its
// stated length.
func rct2Record(t testing.TB, name string) Record {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	n, ok := number(b[8:12])
	if !ok || n > len(b) {
		n = len(b)
	}
	return Record{ID: string(b[:6]), Version: string(b[6:8]), Data: b[12:n]}
}

func legString(r *RCT2) string {
	var out []string
	for _, l := range r.Legs {
		s := fmt.Sprintf("%s>%s %d-%02d-%02d", l.From, l.To, l.Depart.Year, l.Depart.Month, l.Depart.Day)
		if l.Further {
			s = fmt.Sprintf("(%s>%s) %d-%02d-%02d", l.From, l.To, l.Depart.Year, l.Depart.Month, l.Depart.Day)
		}
		if l.DepartClock.OK {
			s += fmt.Sprintf(" %02d:%02d", l.DepartClock.Hour, l.DepartClock.Minute)
		}
		if l.ArriveClock.OK {
			s += fmt.Sprintf("-%02d:%02d", l.ArriveClock.Hour, l.ArriveClock.Minute)
		}
		if l.Train != "" {
			s += " " + l.Train
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// TestRCT2 holds the layouts' journeys to what their tickets print
// (KItinerary's expected outputs beside them agree).
func TestRCT2(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"irt-mav.rct2", "BUDAPEST-KELETI>MUENCHEN HBF 0-08-19 07:40-14:32 RJX 42"},
		{"irt-oebb.rct2", "SOMEWHERE HBF>NUERNBERG 0-12-29 01:37-02:37 NJ 421"},
		{"nrt-db.rct2", "Duisburg>Wien 2018-08-10"},
		{"nrt-oebb-bound.rct2", "WIEN HBF>GRAZ HBF 0-09-16 18:58-21:33"},
		{"nrt-oebb-unbound.rct2", "GRAZ>WIEN 2017-09-10"},
		{"nrt-sbb.rct2", "VISP>RANDA 0-09-21"},
		{"nrt-zssk-return.rct2", "BRATISLAVA>WIEN 0-04-01; WIEN>BRATISLAVA 0-04-01"}, // "00:00" to "24:00": the day
		{"res-dsb-invalid-unicode-encoding.rct2", "København H>Odense 0-12-08 17:22-18:50 267"},
		{"res-oebb.rct2", "VERONA PN>MUENCHEN HBF 0-05-16 11:02-16:25 EC 42"},
		{"rpt-interrail.rct2", ""},          // a rail pass: no journey
		{"unclassified-vvt-local.rct2", ""}, // a local ticket's zones: no stations at their places
	} {
		l, err := ParseLayout(rct2Record(t, tc.file))
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		r, err := l.RCT2()
		got := ""
		if err == nil {
			got = legString(r)
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestParse reads containers whole: a journey where the layout or DB's
// record states one, none from passes, railcards and day tickets, and an
// error for every broken container.
func TestParse(t *testing.T) {
	for _, tc := range []struct{ file, issuer, want string }{
		{"uic-mav.bin", "1154", "PRAHA>BUDAPEST 2016-09-02"},
		{"uic-eurail-pass.bin", "5217", ""},
		{"uic-bahncard.bin", "1080", ""},
		{"20230501-Deutschlandticket-FCB-TLB-RCT2-v1.01.bin", "1080", ""},

		{"Testw_VOW8XG6_A9E8DXL_0.bin", "0080", ""}, // version 2: no first day of validity
		{"20210113-Muster-918-3-City-Ticket.bin", "0080", "Kassel+City>Frankfurt(Main)+City 2021-01-13"},

		// U_FLEX (UIC 918.9, package fcb): full days, the train a ticket
		// is bound to and its clock, each further train on the route
		// "(From>To)" with no station of its own; nothing from a version
		// not read.
		{"20220421-Muster-918-9-CityTicket.bin", "1080", "Kassel+City>Frankfurt(Main)+City 2022-04-21"},
		{"20221030-Muster-918-9-FV_SuperSparpreisSenior_InklRueckfahrt.bin", "1080",
			"Flensburg>Rosenheim 2022-10-30 17:35 ICE803; (Flensburg>Rosenheim) 2022-10-30 20:05 ICE1109; Rosenheim>Flensburg 2022-11-01 13:35 ICE786"},
		{"20221020-Muster-918-9-Laenderticket-Thueringen.bin", "1080", ""},
		{"20240118-Muster-918-9-BahnCard-25.bin", "1080", ""},
		{"20250227-Muster-918-9-Deutschland-Ticket.bin", "1080", ""},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		tk, err := Parse(b)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if tk.Issuer != tc.issuer {
			t.Errorf("%s: issuer %q, want %q", tc.file, tk.Issuer, tc.issuer)
		}
		got := ""
		if j, err := tk.Journey(); err == nil {
			got = legString(j)
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.file, got, tc.want)
		}
	}
	bad, _ := filepath.Glob("testdata/invalid/*.bin")
	for _, f := range bad {
		b, _ := os.ReadFile(f)
		if _, err := Parse(b); err == nil {
			t.Errorf("%s: read as a ticket", f)
		}
	}
}

// TestBodyCap: a body that inflates past MaxBody is refused.
func TestBodyCap(t *testing.T) {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(bytes.Repeat([]byte("U_TLAY"), MaxBody))
	w.Close()
	b := Container(1, "1080", z.Bytes())
	if _, err := Parse(b); err == nil || !strings.Contains(err.Error(), "larger") {
		t.Fatalf("got %v", err)
	}
}

// Container wraps a compressed body in a header with a blank signature.
func Container(version int, issuer string, body []byte) []byte {
	sig := 50
	if version == 2 {
		sig = 64
	}
	h := fmt.Sprintf("#UT%02d%s00001", version, issuer)
	b := append([]byte(h), make([]byte, sig)...)
	b = append(b, fmt.Sprintf("%04d", len(body))...)
	return append(b, body...)
}

func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.bin")
	more, _ := filepath.Glob("testdata/invalid/*.bin")
	for _, s := range append(seeds, more...) {
		b, _ := os.ReadFile(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tk, err := Parse(b)
		if err != nil {
			return
		}
		tk.Journey()
		for _, r := range tk.Records {
			ParseDB(r)
		}
	})
}

func FuzzLayout(f *testing.F) {
	rs, _ := filepath.Glob("testdata/*.rct2")
	for _, s := range rs {
		f.Add(rct2Record(f, filepath.Base(s)).Data)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if l, err := ParseLayout(Record{ID: "U_TLAY", Version: "01", Data: b}); err == nil {
			l.RCT2()
		}
	})
}

// TestIssued reads U_HEAD's issue day.
func TestIssued(t *testing.T) {
	for file, want := range map[string]Date{
		"uic-mav.bin":                           {2016, 8, 15},
		"20210113-Muster-918-3-City-Ticket.bin": {2020, 10, 27},
	} {
		b, _ := os.ReadFile(filepath.Join("testdata", file))
		tk, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := tk.Issued(); !ok || got != want {
			t.Errorf("%s: issued %+v, want %+v", file, got, want)
		}
	}
}
