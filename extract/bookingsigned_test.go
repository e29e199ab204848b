package extract_test

import (
	"testing"
	"time"
)

// TestOrdinaryMailIsNoTrip: the eighth outside review's proof (MEDIUM-4,
// LOW-6). Labelled ends and a travel date's label with no sign of a train
// (traindateonly.go, railEvidence), a timetable's line with no ticket's
// code or one an example (smsline.go, ticketLineHead) and stops stacked in
// a friend's chat give no leg.
func TestOrdinaryMailIsNoTrip(t *testing.T) {
	for _, tt := range []struct{ name, from, subject, body string }{
		{"flight price alert", "Fare Alerts <alerts@farewatch.example>", "Price alert: London to Barcelona",
			"Prices for your saved search have dropped.\n\nOrigin: London\nDestination: Barcelona\nOutbound: 14/03/2027\nReturn: 21/03/2027\n\nSee today's prices on our website.\n"},
		{"travel insurance policy", "Cover Co <policies@coverco.example>", "Your travel insurance policy",
			"Thank you for buying single-trip cover.\n\nPolicy number: TI-448812\nFrom: United Kingdom\nTo: Spain\nTravel date: 14/03/2027\nPremium: £23.40\n"},
		{"dutch moving quote", "Verhuis BV <info@verhuisbv.example>", "Uw offerte",
			"Beste klant,\n\nHierbij de offerte voor uw verhuizing.\nVan: Utrecht\nNaar: Amsterdam\nReisdatum: 13/02/2027\nPrijs: € 650\n"},
		{"german carpool offer", "Mitfahr <info@mitfahr.example>", "Neue Mitfahrgelegenheit",
			"Jemand bietet eine Fahrt an, die zu deiner Suche passt:\nVon: Berlin\nNach: Hamburg\nHinfahrt: 13.02.2027\nPreis: 15 €\n"},
		{"bank transfer", "My Bank <noreply@mybank.example>", "Standing order set up",
			"Your standing order has been set up.\nFrom: Current Account\nTo: Savings Account\nOutbound: 13/02/2027\nAmount: £200.00\n"},
		{"headcode newsletter", "Coachline <news@coachline.example>", "Spring sale",
			"SPRING2027X\nUse this code for 20% off any coach ticket.\nLinje 830\nStockholm Cityterminalen 08:00\nUppsala 09:05\nBooking ref: NONE\n"},
		{"SMS line newsletter", "SJ <news@sj.example>", "Tips",
			"Example of a ticket: * SJ * BKD3723G0002 Datum: 270114 Avg: Norrköping C 16.24 Ank: Stockholm C 17.39 Vagn: 2 Plats: 25\n"},
		{"stacked stops quoted in a chat", "Anna <anna@gmail.com>", "Re: our trip",
			"Hi! Here are the options I found:\n\n14.03.2027 - 07:05\nAmsterdam (AMS)\nKL1121\n14.03.2027 - 09:20\nCopenhagen (CPH)\n\nShall I book?\n"},
	} {
		for _, f := range mailFacts(tt.from, tt.subject, tt.body, time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)) {
			if s := f.Segment; s != nil && s.From != nil && s.To != nil {
				t.Errorf("%s: a %s from %q to %q on %v", tt.name, f.Kind, s.From.Name, s.To.Name, s.Depart)
			} else {
				t.Logf("%s: %s order=%+v bill=%+v", tt.name, f.Kind, f.Order, f.Bill)
			}
		}
	}
}

// TestLayoutWithoutBookingIsNoTrip: stacked stops and a connection's row
// in a mail with no sign of a booking (bookingSigned: a newsletter's
// featured arrivals, a connection a friend looked up), a timetable's tip
// on one line, a friend's sentence, give no leg.
func TestLayoutWithoutBookingIsNoTrip(t *testing.T) {
	for _, tt := range []struct{ name, from, subject, body string }{
		{"friend's train sentence", "Marco <marco.rossi@gmail.com>", "Visit",
			"Ciao! I'm coming to see you: train 9512 on 14/03/2027 from Milano Centrale at 10:00 to Roma Termini at 12:59. Can you pick me up?\n"},
		{"friend's stacked flight plan", "Anna <anna@gmail.com>", "flights?",
			"Found these, not booked yet:\n\n14.03.2027 - 07:05\nAmsterdam (AMS)\nKL1121\n14.03.2027 - 09:20\nCopenhagen (CPH)\n\nWhat do you think?\n"},
		{"shared DB connection (Verbindungsauskunft, no booking)", "Peter <peter@web.de>", "Verbindung für Samstag",
			"Hier die Verbindung, die ich rausgesucht habe:\nKiel Hbf-Hamburg Hbf, 21.03.27, (RE 21013), Abfahrt Kiel Hbf: 23:10 Uhr, Gleis 4, Ankunft Hamburg Hbf: 00:25 Uhr, Gleis 7\n"},
		{"airport arrivals newsletter", "Airport News <news@airport.example>", "Today at the airport",
			"Featured arrivals this week:\n\nFri 14.03.2027 - 07:05\nAmsterdam (AMS)\nKL1121\nFri 14.03.2027 - 09:20\nCopenhagen (CPH)\n\nEnjoy our new lounge!\n"},
		{"Swedish SMS timetable tip", "Pendel <info@pendel.example>", "Tidtabell",
			"Ny tidtabell: Datum: 270114 Avg: Uppsala C 16.24 Ank: Stockholm C 17.39 Vagn: 2 Plats: 25\n"},
	} {
		for _, f := range mailFacts(tt.from, tt.subject, tt.body, time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)) {
			if s := f.Segment; s != nil && s.From != nil && s.To != nil {
				t.Errorf("%s: a %s %s from %q to %q on %v status %s", tt.name, f.Kind, s.Number, s.From.Name+s.From.Code, s.To.Name+s.To.Code, s.Depart, s.Status)
			}
		}
	}
}

// TestListingIsNoStay: a flat's viewing, a rental's listing, a short
// let's offer and a friend's stay asked about ("On réserve ?", plan) give
// no stay.
func TestListingIsNoStay(t *testing.T) {
	for _, tt := range []struct{ name, from, subject, body string }{
		{"de flat viewing", "ImmoPortal <alerts@immoportal.example>", "Ihr Besichtigungstermin",
			"Objekt: Helle 3-Zimmer-Wohnung am Park\nWohnung\nBesichtigung von: 14.03.2027\nbis: 14.03.2027\nAnbieter: Müller Immobilien\n"},
		{"en rental listing alert", "HomeFinder <alerts@homefinder.example>", "New listing matches your search",
			"Listing: Sunny two-bedroom flat in Hackney\nApartment\nAvailable from: 1 March 2027\nMinimum term: 12 months\nRent: £1,950 pcm\nReference: HF-448812\n"},
		{"en short let offer", "HomeFinder <alerts@homefinder.example>", "Holiday homes you may like",
			"Listing: Seaside Cottage Retreat\nEntire home\nCheck-in: 14 March 2027\nCheck-out: 21 March 2027\nFrom £89 a night - book now!\n"},
		{"fr colleague's stay plan", "Julie <julie@orange.fr>", "Vacances",
			"Salut, j'ai trouvé ça:\nLogement : Chalet des Alpes\nLogement entier\nArrivée : 14/03/2027\nDépart : 21/03/2027\nOn réserve ?\n"},
	} {
		for _, f := range mailFacts(tt.from, tt.subject, tt.body, time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)) {
			if s := f.Segment; s != nil {
				t.Errorf("%s: a %s %q %v-%v status %s resv %q", tt.name, f.Kind, s.Name, s.CheckIn, s.CheckOut, s.Status, s.Reservation)
			}
		}
	}
}
