package extract

import (
	"strings"
	"testing"
	"time"

	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestStayCancelled: a subject that says a booking is cancelled, in the
// words of each language (booking.cancelled), cancels the stay the mail
// names; a confirmation whose subject says nothing of the kind stays
// confirmed.
func TestStayCancelled(t *testing.T) {
	body := "Numer: 4120883571\nCheck-in: 21.05.2027\nCheck-out: 23.05.2027\n"
	for subject, want := range map[string]string{
		"Twoja rezerwacja została anulowana": StatusCancelled,
		"Avbokning bekräftad – 55218":        StatusCancelled,
		"Anulación de su reserva nº 77310":   StatusCancelled,
		"Varauksesi on peruttu":              StatusCancelled,
		"Rezervace byla zrušena":             StatusCancelled,
		"Din bestilling er avbestilt":        StatusCancelled,
		"Annulering van uw reservering":      StatusCancelled,
		"Your booking has been cancelled":    StatusCancelled,
		"Your booking is confirmed":          StatusConfirmed,
		"Potwierdzenie rezerwacji":           StatusConfirmed,
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Hotel Stary Młyn", Address: "recepcja@starymlyn.example"}},
			Subject: subject, Date: time.Date(2027, 4, 14, 9, 0, 0, 0, time.UTC), Text: "Hotel Stary Młyn\n" + body}
		got := ""
		for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
			if f.Kind == KindHotel {
				got = f.Segment.Status
			}
		}
		if got != want {
			t.Errorf("%q: status %q, want %q", subject, got, want)
		}
	}
}

// TestListingName: a rented home's title is the line over the one that
// names its host; a sentence, a line with digits or a colon is none.
func TestListingName(t *testing.T) {
	for text, want := range map[string]string{
		"You're going to Barcelona!\n\nSunny loft by Sagrada Família\nEntire rental unit hosted by Marta\n": "Sunny loft by Sagrada Família",
		"Holzhaus am See mit Sauna\nGesamte Unterkunft: Ferienhaus · Gastgeber:in ist Katrin\n":             "Holzhaus am See mit Sauna",
		"Property ID 3381924\nYour host: Dan & Linda\n":                                                     "",
		"Thanks for booking.\nYour host is Anna.\n":                                                         "",
		"Guests: 2\nHosted by Marta\n":                                                                      "",
		"Sunny loft by Sagrada Família\nCheck-in: 12 June\n":                                                "",
	} {
		if got := listingName(text); got != want {
			t.Errorf("listingName(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestStayAtSentenceEnd: a name after a stay's phrase ends where its
// sentence does; an abbreviation's stop inside a name does not end it.
func TestStayAtSentenceEnd(t *testing.T) {
	for s, want := range map[string]string{
		"Thank you for choosing Ryokan Kasuitei. We are pleased to confirm": "Ryokan Kasuitei",
		"Welcome to The St. Pancras Renaissance Hotel.":                     "The St. Pancras Renaissance Hotel",
		"Your stay at Hotel Adler Bamberg is confirmed":                     "Hotel Adler Bamberg",
		"we're excited to welcome you to Casa Mirador Lodge. If there is":   "Casa Mirador Lodge",
	} {
		if got := stayAtName(s); got != want {
			t.Errorf("stayAtName(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestLabelColumn: labels down the left with their values beside them
// are no header row over a row of values: each label's value is its own
// line's, not the next label below it.
func TestLabelColumn(t *testing.T) {
	list := "Booking ID            1187734562\nProperty              Baan Suan Riverside Residence\n" +
		"Address               88/12 Charoen Krung Soi 30, Bangkok 10500\n\nCheck-in              Sunday, 20 June 2027\n"
	if got := hotelLabels.after(list); len(got) == 0 || got[0] != "Baan Suan Riverside Residence" {
		t.Errorf("label list: %q", got)
	}
	// A header row over one row of values still gives the value below.
	table := "Hotel                 Nights\nHotel Riviera         3\n"
	if v, ok := columnBelow(table, 0, len("Hotel                 ")); !ok || v != "Hotel Riviera" {
		t.Errorf("header row: %q %v", v, ok)
	}
}

// TestSlashedRangeOneOrder: a .com sender writing English reads a slashed
// date month first, but a range that way round runs backwards or
// through a thirteenth month; it is read day first, both ends alike.
func TestSlashedRangeOneOrder(t *testing.T) {
	for text, want := range map[string]string{
		"Stay: 12/06/2027 - 15/06/2027 (3 nights)\n": "2027-06-12 2027-06-15",
		"Stay: 06/12/2027 - 06/15/2027 (3 nights)\n": "2027-06-12 2027-06-15",
		"Dates: 06/12/2027 - 06/14/2027\n":           "2027-06-12 2027-06-14",
	} {
		m := &msgContext{ref: time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC), dateLoc: time.UTC, senderCountry: "US"}
		if got := stayDays(m.rangeDates(text, zoneHint{})); got != want {
			t.Errorf("rangeDates(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestUnitNoName: a hotel label whose value counts persons or rooms names
// a unit, not the place; the place's name comes from elsewhere.
func TestUnitNoName(t *testing.T) {
	msg := &mime.Message{From: []mime.Address{{Name: "Vakantiepark De Heidebloem", Address: "boekingen@heidebloem.example"}},
		Subject: "Bevestiging van uw boeking 118204", Date: time.Date(2027, 3, 6, 9, 0, 0, 0, time.UTC),
		Text: "Boekingsnummer: 118204\nAccommodatie: Bosbungalow 4 personen (nr. 37)\nAankomst: vrijdag 23 april 2027\nVertrek: maandag 26 april 2027\n"}
	for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
		if f.Kind == KindHotel && f.Segment.Hotel != "Vakantiepark De Heidebloem" {
			t.Errorf("hotel %q", f.Segment.Hotel)
		}
	}
}

// TestPlatformSenderNoName: a platform that books homes for others
// ("Airbnb" from airbnb.com, its footer naming it) is never the place's
// name, nor is its company in a footer over an address ("Airbnb Ireland
// UC").
func TestPlatformSenderNoName(t *testing.T) {
	for _, text := range []string{
		"Check-in: Thu, Jun 10, 2027\nCheckout: Sun, Jun 13, 2027\nConfirmation code: HMQ4XK2T8N\nAirbnb, Inc., 888 Brannan St\n",
		"Check-in: Thu, Jun 10, 2027\nCheckout: Sun, Jun 13, 2027\nConfirmation code: HMQ4XK2T8N\nAirbnb Ireland UC\n8 Hanover Quay, Dublin 2\n",
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Airbnb", Address: "automated@airbnb.com"}},
			Subject: "Reservation confirmed", Date: time.Date(2027, 3, 15, 9, 0, 0, 0, time.UTC), Text: text}
		for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
			if f.Kind == KindHotel && f.Segment.Hotel != "" {
				t.Errorf("%.40q: hotel %q, want none", text, f.Segment.Hotel)
			}
		}
	}
}

// TestCancelledInText: a sentence in a mail's first lines that says the
// booking is cancelled cancels it under a subject that names only the
// booking; a condition ("If your booking has been cancelled …") and a
// confirmation's terms ("Free cancellation until …") do not.
func TestCancelledInText(t *testing.T) {
	for text, want := range map[string]bool{
		"Hi Rachel,\n\nYour booking has been cancelled. You won't be charged.\n":                             true,
		"Beste Thomas,\n\nJe reservering is geannuleerd.\n":                                                  true,
		"Hej Erik,\n\nVi bekräftar att din bokning nu är avbokad.\n":                                         true,
		"Guten Tag,\nIhre Buchung wurde storniert.\n":                                                        true,
		"If your booking has been cancelled by the airline, call us.\n":                                      false,
		"Falls Ihre Buchung wurde storniert, melden Sie sich.\n":                                             false,
		"Your booking is confirmed.\nFree cancellation until 3 June.\n":                                      false,
		"Your booking is confirmed.\n" + strings.Repeat("Line\n", 12) + "Your booking has been cancelled.\n": false,
	} {
		if got := cancelledInText(text); got != want {
			t.Errorf("cancelledInText(%.40q) = %v, want %v", text, got, want)
		}
	}
	msg := &mime.Message{From: []mime.Address{{Name: "Hotels.com", Address: "confirmations@hotels.example"}},
		Subject: "Hotels.com itinerary 72644108823519", Date: time.Date(2027, 5, 12, 9, 0, 0, 0, time.UTC),
		Text: "Hi Rachel,\n\nYour booking has been cancelled. You won't be charged.\n\nItinerary # 72644108823519\n\nSeabird Motel\n" +
			"Check-in: Fri, Jun 18, 2027\nCheck-out: Sun, Jun 20, 2027\n"}
	for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
		if f.Kind == KindHotel && f.Segment.Status != StatusCancelled {
			t.Errorf("status %q, want cancelled", f.Segment.Status)
		}
	}
}

// TestShortStartRange: a range whose start is a day and a month without
// a year, apart by a slash or a dot ("du 12/06 au 15/06/2027", "Termin:
// 12.06–15.06.2027"), or "Zeitraum … bis" without a colon.
func TestShortStartRange(t *testing.T) {
	for text, want := range map[string]string{
		"Votre séjour du 12/06 au 15/06/2027 est confirmé.\n":      "2027-06-12 2027-06-15",
		"la prenotazione dal 10/09 al 12/09/2027, camera doppia\n": "2027-09-10 2027-09-12",
		"Termin: 23.07–27.07.2027\n":                               "2027-07-23 2027-07-27",
		"Zeitraum 06.08.2027 bis 09.08.2027\n":                     "2027-08-06 2027-08-09",
		"du 30/12 au 02/01/2028\n":                                 "2027-12-30 2028-01-02",
		"du 12/13 au 15/06/2027\n":                                 "",
		"du 12/06 au 15/10/2027\n":                                 "",
	} {
		m := &msgContext{ref: time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC), dateLoc: time.UTC}
		if got := stayDays(m.rangeDates(text, zoneHint{})); got != want {
			t.Errorf("rangeDates(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestQuotedNames: a place to stay and a shipper named in quotes, as
// Russian mail writes them, are read without the quotes around them.
func TestQuotedNames(t *testing.T) {
	if got := lodgingRE.FindString("Гостиница «Волга»"); got != "Гостиница «Волга»" {
		t.Errorf("lodgingRE = %q", got)
	}
	for text, want := range map[string]string{
		"Посылка от интернет-магазина «Книжный Мир» передана курьеру.": "Книжный Мир",
		"Your parcel from Zalando is on its way": "Zalando",
	} {
		if m := fromMerchantMatch(text); m == nil || m[1] != want {
			t.Errorf("fromMerchantMatch(%q) = %q, want %q", text, m, want)
		}
	}
}

// TestDayVisitNoStay: an arrival and a departure on one day, each with
// its clock, are a day's visit (a spa's, a day room's), no stay; a night
// between them is one.
func TestDayVisitNoStay(t *testing.T) {
	for body, want := range map[string]bool{
		"Booking reference: TS-448120\nArrival: Saturday 15 May 2027, 10:00\nDeparture: Saturday 15 May 2027, 16:00\n": false,
		"Buchungsnummer: WT-3391\nAnreise: 22.05.2027, 10:00 Uhr\nAbreise: 22.05.2027, 18:00 Uhr\n":                    false,
		"Booking reference: TS-448120\nArrival: Saturday 15 May 2027, 15:00\nDeparture: Sunday 16 May 2027, 11:00\n":   true,
	} {
		msg := &mime.Message{From: []mime.Address{{Name: "Royal Crescent Hotel", Address: "stay@royalcrescent.example"}},
			Subject: "Your booking", Date: time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC), Text: "Royal Crescent Hotel\n" + body}
		got := false
		for _, f := range Extract(msg, msgauth.Verdict{}).Facts {
			got = got || f.Kind == KindHotel
		}
		if got != want {
			t.Errorf("%q: stay %v, want %v", body, got, want)
		}
	}
}
