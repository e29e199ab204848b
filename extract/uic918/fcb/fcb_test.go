package fcb_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/extract/uic918"
	"mailnode/extract/uic918/fcb"
)

// flex reads the U_FLEX record of a ticket in ../testdata.
func flex(t testing.TB, name string) uic918.Record {
	b, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	tk, err := uic918.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := tk.Record("U_FLEX")
	if !ok {
		t.Fatalf("%s: no U_FLEX", name)
	}
	return r
}

func legs(tk *fcb.Ticket) string {
	var out []string
	for _, l := range tk.Legs {
		s := fmt.Sprintf("%s>%s %s", l.From, l.To, l.Day.Format("2006-01-02"))
		if l.Further {
			s = fmt.Sprintf("(%s>%s) %s", l.From, l.To, l.Day.Format("2006-01-02"))
		}
		if l.Clock >= 0 {
			s += fmt.Sprintf(" %02d:%02d", l.Clock/60, l.Clock%60)
		}
		if l.Train != "" {
			s += " " + l.Train
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// TestDecode holds DB's and the UIC sample's FCB records to KItinerary's
// readings of them (its expected outputs: the booking, stations, day,
// the first train of each direction and its clock, and each further
// train the direction is bound to). KItinerary gives each further train
// as a reservation of the whole route; DB's train links state no
// station, so here it is a train on the route, "(From>To)", with its
// day and clock and no station of its own.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		file, issued, pnr, legs string
	}{
		{"20220421-Muster-918-9-CityTicket.bin", "2022-04-19 11:08", "CMJTUN93", "Kassel+City>Frankfurt(Main)+City 2022-04-21"},
		{"20220422-Muster-918-9-FV_SuperSparpreis.bin", "2022-04-19 11:16", "NA5AMJY2", "Mannheim>Reutlingen 2022-04-22 11:59 ICE573"},
		{"20221030-Muster-918-9-FV_SuperSparpreisSenior_InklRueckfahrt.bin", "2022-10-06 13:03", "R4YNMU9E",
			"Flensburg>Rosenheim 2022-10-30 17:35 ICE803; (Flensburg>Rosenheim) 2022-10-30 20:05 ICE1109; Rosenheim>Flensburg 2022-11-01 13:35 ICE786"},
		{"20221104-Muster-918-9-FV_SuperSparpreis_3Erw_InklRueckfahrt.bin", "2022-10-06 14:15", "0ZH2EWKX",
			"Hamburg>Rosenheim 2022-11-04 03:20 ICE591; (Hamburg>Rosenheim) 2022-11-04 06:56 ICE781; (Hamburg>Rosenheim) 2022-11-04 09:17 ICE1121; " +
				"Rosenheim>Hamburg 2022-11-04 17:35 ICE1120; (Rosenheim>Hamburg) 2022-11-04 18:53 ICE782"},
		{"uic-sparpreis-ticket.bin", "2020-10-30 10:50", "D260V48G", "Mannheim>Reutlingen 2020-11-05 11:58 ICE973"},
		// A regional day ticket, a railcard, a Deutschlandticket: no
		// stations, no journey.
		{"20221020-Muster-918-9-Laenderticket-Thueringen.bin", "2022-10-06 12:42", "NB45C9ZU", ""},
		{"20240118-Muster-918-9-BahnCard-25.bin", "2024-01-18 00:00", "", ""},
		{"20230501-Deutschlandticket-FCB-TLB-RCT2-v1.01.bin", "2023-04-01 08:00", "J7EJ5KNN", ""},
		// Version 3.0.
		{"20250227-Muster-918-9-Deutschland-Ticket.bin", "2025-02-27 09:14", "QWXY3BTA", ""},
		{"20250227-Muster-918-9-Deutschland-Jobticket.bin", "2025-02-27 09:11", "M8T403EA", ""},
	} {
		r := flex(t, tc.file)
		tk, err := fcb.Decode(r.Version, r.Data)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if got := tk.Issued.Format("2006-01-02 15:04"); got != tc.issued {
			t.Errorf("%s: issued %s, want %s", tc.file, got, tc.issued)
		}
		if tk.PNR != tc.pnr {
			t.Errorf("%s: PNR %q, want %q", tc.file, tk.PNR, tc.pnr)
		}
		if got := legs(tk); got != tc.legs {
			t.Errorf("%s:\n got %s\nwant %s", tc.file, got, tc.legs)
		}
	}
}

// TestVersions: a record is read by its own version's schema (2025's
// Deutschland-Ticket is version 3.0), never by another's; a version not
// transcribed reads nothing.
func TestVersions(t *testing.T) {
	r := flex(t, "20250227-Muster-918-9-Deutschland-Ticket.bin")
	if r.Version != "03" {
		t.Fatalf("version %q", r.Version)
	}
	for _, v := range []string{"13", "02"} {
		if _, err := fcb.Decode(v, r.Data); err == nil {
			t.Errorf("version 3 read as %s", v)
		}
	}
	if _, err := fcb.Decode("04", r.Data); !errors.Is(err, fcb.ErrVersion) {
		t.Errorf("version 4: %v, want ErrVersion", err)
	}
}

// TestTruncated: a record cut anywhere, or with an octet more, reads
// nothing (UPER has no end marker but the record's length).
func TestTruncated(t *testing.T) {
	r := flex(t, "20221030-Muster-918-9-FV_SuperSparpreisSenior_InklRueckfahrt.bin")
	for n := 0; n < len(r.Data); n++ {
		if tk, err := fcb.Decode("13", r.Data[:n]); err == nil {
			t.Fatalf("cut at %d of %d: read %s", n, len(r.Data), legs(tk))
		}
	}
	if _, err := fcb.Decode("13", append(r.Data[:len(r.Data):len(r.Data)], 0)); err == nil {
		t.Error("an octet more: read")
	}
}

func FuzzFCB(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.bin"))
	for _, name := range files {
		b, _ := os.ReadFile(name)
		if tk, err := uic918.Parse(b); err == nil {
			if r, ok := tk.Record("U_FLEX"); ok {
				f.Add(r.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, version := range []string{"13", "02", "03"} {
			tk, err := fcb.Decode(version, data)
			if err != nil {
				continue
			}
			for _, l := range tk.Legs {
				if l.From == "" || l.To == "" || l.Clock >= 1440 {
					t.Errorf("leg %+v", l)
				}
			}
		}
	})
}
