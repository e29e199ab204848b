package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestNameOverGuest: a stay's block that opens with the place's name
// alone over the guest's label names the stay; a heading there, or a
// chain's name, does not.
func TestNameOverGuest(t *testing.T) {
	for _, c := range []struct {
		from, text string
		want       string
	}{
		{"Reservations <reservations@staydesk.example.com>",
			"Your reservation is confirmed.\n\nThe Carrington Kensington\n\nGuest name: ANA SILVA\nConfirmation Number: 5512093\nCheck-in: Friday, June 11, 2027\nCheck-out: Monday, June 14, 2027\n",
			"The Carrington Kensington"},
		{"Buchungsservice <buchung@reiseportal.example.de>",
			"Vielen Dank für Ihre Buchung.\n\nAlpenblick Garni Mittenwald\nName des Gastes: Jonas Weber\nBuchungsnummer: 448120\nAnreise: 11.06.2027\nAbreise: 14.06.2027\n",
			"Alpenblick Garni Mittenwald"},
		{"Réservations <resa@sejours.example.fr>",
			"Merci pour votre réservation.\n\nLe Clos des Vignes\nNom du client : Marie Laurent\nNuméro de réservation : 771204\nArrivée : 11/06/2027\nDépart : 14/06/2027\n",
			"Le Clos des Vignes"},
		// A heading over the guest's label names no place.
		{"Reservations <reservations@staydesk.example.com>",
			"Your reservation is confirmed.\n\nReservation Details\nGuest name: ANA SILVA\nConfirmation Number: 5512093\nCheck-in: Friday, June 11, 2027\nCheck-out: Monday, June 14, 2027\n",
			""},
		// A line in a paragraph, not a block's first line.
		{"Reservations <reservations@staydesk.example.com>",
			"Your reservation is confirmed.\nSee You Soon\nGuest name: ANA SILVA\nConfirmation Number: 5512093\nCheck-in: Friday, June 11, 2027\nCheck-out: Monday, June 14, 2027\n",
			""},
	} {
		got, stays := "", 0
		for _, f := range mailFacts(c.from, "Confirmation", c.text, time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC)) {
			if s := f.Segment; s != nil && s.Type == extract.KindHotel {
				got, stays = s.Hotel, stays+1
			}
		}
		if stays != 1 || got != c.want {
			t.Errorf("%q: got %d stays, %q, want %q", c.text[:40], stays, got, c.want)
		}
	}
}
