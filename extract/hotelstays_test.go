package extract

import (
	"strings"
	"testing"
	"time"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestStayBlocks: a mail that books several stays gives each its own
// name, dates and number; the same dates twice (two rooms, a summary over
// the details), a stay offered beside the booked one, and a check-in
// without its check-out give the one stay read from the whole mail.
func TestStayBlocks(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // name in out reservation
	}{
		{"two hotels under headings",
			"Trip reference: TRP-55120\n\nHOTEL 1\nHotel Riviera Nizza\nPromenade des Anglais 12, 06000 Nice\nCheck-in: 14 June 2027\nCheck-out: 17 June 2027\nConfirmation: RV88120\n\nHOTEL 2\nHotel Napoleon Menton\nCheck-in: 17 June 2027\nCheck-out: 20 June 2027\nConfirmation: GM-4471\n",
			[]string{"Hotel Riviera Nizza 2027-06-14 2027-06-17 RV88120", "Hotel Napoleon Menton 2027-06-17 2027-06-20 GM-4471"}},
		{"both dates on one line, the trip's number for both",
			"Booking number: 7712409\n\nHotel Alpenrose Zermatt\nCheck-in: 2 July 2027   Check-out: 5 July 2027\n\nHotel Bellevue Interlaken\nCheck-in: 5 July 2027   Check-out: 7 July 2027\n",
			[]string{"Hotel Alpenrose Zermatt 2027-07-02 2027-07-05 7712409", "Hotel Bellevue Interlaken 2027-07-05 2027-07-07 7712409"}},
		{"names placed alike, no lodging word",
			"Trip number: 5810442\n\nCasa Amora\n\nRua Sao Bento 12, 1200-820 Lisbon\n\nCheck-in\tMon, May 10, 2027\n\nCheck-out\tThu, May 13, 2027\n\nConfirmation number\t4410287731\n\nTorel Palace Porto\n\nRua de Entreparedes 42, 4000-197 Porto\n\nCheck-in\tThu, May 13, 2027\n\nCheck-out\tSun, May 16, 2027\n\nConfirmation number\t4410287755\n",
			[]string{"Casa Amora 2027-05-10 2027-05-13 4410287731", "Torel Palace Porto 2027-05-13 2027-05-16 4410287755"}},
		{"two rooms, the same dates",
			"Booking number: 24817\nHotel Lungomare\nRoom 1\nCheck-in: 14 June 2027\nCheck-out: 17 June 2027\nRoom 2\nCheck-in: 14 June 2027\nCheck-out: 17 June 2027\n",
			[]string{"Hotel Lungomare 2027-06-14 2027-06-17 24817"}},
		{"a stay offered beside the booked one",
			"Booking number: QH-88213\nThe Quayside Hotel\nCheck-in: 10 May 2027\nCheck-out: 13 May 2027\n\nOur sister hotel, Harbour View Hotel Cardiff\nCheck-in: 13 May 2027\nCheck-out: 16 May 2027\nfrom £89 a night\n",
			[]string{"The Quayside Hotel 2027-05-10 2027-05-13 QH-88213"}},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Wayfarer Travel", Address: "trips@wayfarer.example"}},
			Subject: "Your trip is confirmed", Date: time.Date(2027, 4, 2, 9, 0, 0, 0, time.UTC), Text: c.text}
		var got []string
		for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
			if f.Kind == KindHotel && f.Segment.CheckOut != nil {
				got = append(got, strings.TrimSpace(f.Segment.Hotel+" "+f.Segment.CheckIn.Format("2006-01-02")+" "+
					f.Segment.CheckOut.Format("2006-01-02")+" "+f.Segment.Reservation))
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: stays %q, want %q", c.name, got, c.want)
		}
	}
}

// TestChangedRange: the range after a word that says the stay was
// changed, on its line or on the line under it that starts with it; the
// dates before the word are the old ones, and a line whose range is a
// heading's old dates, or a sentence with no range, gives none.
func TestChangedRange(t *testing.T) {
	c := &msgContext{ref: time.Date(2027, 5, 1, 0, 0, 0, 0, time.UTC)}
	for text, want := range map[string]string{
		"Your stay on 7–9 June 2027 has been changed to 14–17 June 2027.\n":               "2027-06-14 2027-06-17",
		"Votre séjour a été modifié : du 9 juillet au 12 juillet 2027.\n":                 "2027-07-09 2027-07-12",
		"Ihre Buchung wurde geändert:\n14.–17. Juni 2027\n":                               "2027-06-14 2027-06-17",
		"Your booking has been changed.\nPrevious dates: 7–9 June 2027\n":                 "",
		"Dates can be changed free of charge until 1 June 2027.\n":                        "",
		"Your stay on 7–9 June 2027 has been changed. See your new dates below.":          "",
		"Ihr Aufenthalt vom 4. bis 6. Juni wurde auf den 18.–21. Juni 2027 verschoben.\n": "2027-06-18 2027-06-21",
		"Ihr Aufenthalt vom 4. bis 6. Juni 2027 wurde geändert.\n":                        "",
	} {
		got := ""
		if a, b := c.changedRange(text, zoneHint{}); a != nil {
			got = a.Format("2006-01-02") + " " + b.Format("2006-01-02")
		}
		if got != want {
			t.Errorf("changedRange(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestPackageStays: a trip's flights and its hotel under a heading of its
// own, by the labels no journey shares; a hotel offered beside the
// flights, and a flight's "Departure" / "Arrival" dates, are no stay.
func TestPackageStays(t *testing.T) {
	flights := "Booking reference: BW-771204\nAirline reference: Q7XK2P\n\nMon, Jun 14, 2027\nLondon (LGW) to Lisbon (LIS)\n" +
		"TAP Air Portugal TP 1336 - Economy\nDepart 06:10 - Gatwick South Terminal\nArrive 08:55 - Lisbon Terminal 1\n\n"
	for _, c := range []struct{ name, text, want string }{
		{"a booked hotel", flights + "HOTEL\nHotel Avenida Palace\nCheck-in: Mon, Jun 14, 2027\nCheck-out: Thu, Jun 17, 2027\nHotel confirmation: AP-55120\n",
			"Hotel Avenida Palace 2027-06-14 2027-06-17 AP-55120"},
		{"the trip's number", flights + "Unterkunft\nHotel Cala Blava Park\nAnreise: 14.06.2027\nAbreise: 17.06.2027\n",
			"Hotel Cala Blava Park 2027-06-14 2027-06-17 BW-771204"},
		{"a hotel offered", flights + "Need a place to stay?\nHotel Tivoli Oriente\nCheck-in: Mon, Jun 14, 2027\nCheck-out: Thu, Jun 17, 2027\nfrom £89 a night\n", ""},
		{"no heading", flights + "Check-in: Mon, Jun 14, 2027\nCheck-out: Thu, Jun 17, 2027\n", ""},
		{"a flight's dates", flights + "Hotel transfer included\nDeparture: Mon, Jun 14, 2027\nArrival: Mon, Jun 14, 2027\n", ""},
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Wayfarer Travel", Address: "trips@wayfarer.example"}},
			Subject: "Your holiday is booked", Date: time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC), Text: c.text}
		var got []string
		for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
			if f.Kind == KindHotel && f.Segment.CheckOut != nil {
				got = append(got, f.Segment.Hotel+" "+f.Segment.CheckIn.Format("2006-01-02")+" "+
					f.Segment.CheckOut.Format("2006-01-02")+" "+f.Segment.Reservation)
			}
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: stays %q, want %q", c.name, got, c.want)
		}
	}
}
