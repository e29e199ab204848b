package extract_test

import (
	"mailnode/mail/msgauth"

	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
)

func htmlMessage(t *testing.T, file, from string) *mime.Message {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return &mime.Message{
		From: []mime.Address{{Address: from}},
		Date: time.Date(2017, 1, 10, 12, 0, 0, 0, time.FixedZone("", 3600)),
		HTML: []string{string(b)},
	}
}

// segLine renders the fields a segment is judged on.
func segLine(s *extract.Segment) string {
	place := func(p *extract.Place) string {
		if p == nil {
			return "-"
		}
		if p.Code != "" {
			return p.Code
		}
		return p.Name
	}
	when := func(t *extract.Time) string {
		if t == nil {
			return "-"
		}
		if t.DateOnly {
			return t.Format("2006-01-02") + "[" + t.Zone + "]"
		}
		return t.Format(time.RFC3339) + "[" + t.Zone + "]"
	}
	if s.Type == extract.KindHotel {
		return fmt.Sprintf("hotel %s %q %s %s %s", s.Reservation, s.Hotel, when(s.CheckIn), when(s.CheckOut), s.Status)
	}
	return fmt.Sprintf("%s %s %s %s>%s %s %s %s", s.Type, s.Reservation, s.Number, place(s.From), place(s.To), when(s.Depart), when(s.Arrive), s.Status)
}

func TestStructuredData(t *testing.T) {
	tests := []struct {
		file string
		from string // the Fact.From expected
		want []string
	}{
		{"google-flight-reservation-json-ld.html", extract.FromJSONLD, []string{
			"flight RXJ34P UA 110 SFO>JFK 2027-03-04T20:15:00-08:00[America/Los_Angeles] 2027-03-05T06:30:00-05:00[America/New_York] confirmed",
		}},
		{"google-flight-reservation-microdata.html", extract.FromMicrodata, []string{
			"flight RXJ34P UA 110 SFO>JFK 2027-03-04T20:15:00-08:00[America/Los_Angeles] 2027-03-05T06:30:00-05:00[America/New_York] confirmed",
		}},
		// Objects without commas between them, and month-first dates.
		{"ew-invalid-json-array.html", extract.FromJSONLD, []string{
			"flight XXX007 4U 8102 TXL>BRU 2018-02-02T18:35:00+01:00[Europe/Berlin] 2018-02-02T19:55:00+01:00[Europe/Brussels] confirmed",
			"flight XXX007 4U 8103 BRU>TXL 2018-02-04T20:40:00+01:00[Europe/Brussels] 2018-02-04T22:00:00+01:00[Europe/Berlin] confirmed",
		}},
		// A raw "&" in the JSON, HTML that does not close, and times marked
		// "+0:00" at a place on summer time: local times, wrongly labelled.
		{"hotel-json-ld-fallback.html", extract.FromJSONLD, []string{
			`hotel KDEKDEKDE "Parser & Breaking Hotels" 2017-06-15T14:00:00+01:00[Europe/London] 2017-06-18T11:00:00+01:00[Europe/London] confirmed`,
		}},
		// HTML4 <meta> microdata inside <head>.
		{"lh-invalid-microdata.html", extract.FromMicrodata, []string{
			"flight KDEKDE LH 2029 TXL>MUC 2017-04-07T08:30:00+02:00[Europe/Berlin] 2017-04-07T09:35:00+02:00[Europe/Berlin] confirmed",
			"flight KDEKDE LH 2218 MUC>TLS 2017-04-07T11:10:00+02:00[Europe/Berlin] 2017-04-07T13:00:00+02:00[Europe/Paris] confirmed",
			"flight KDEKDE LH 2221 TLS>MUC 2017-04-09T18:15:00+02:00[Europe/Paris] 2017-04-09T19:55:00+02:00[Europe/Berlin] confirmed",
			"flight KDEKDE LH 2054 MUC>TXL 2017-04-09T21:30:00+02:00[Europe/Berlin] 2017-04-09T22:35:00+02:00[Europe/Berlin] confirmed",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			res := extract.Extract(htmlMessage(t, tt.file, "booking@airline.example"), msgauth.Verdict{})
			var got []string
			for _, f := range res.Facts {
				if f.From != tt.from {
					t.Errorf("fact from %s, want %s", f.From, tt.from)
				}
				got = append(got, segLine(f.Segment))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Extract(%s) =\n%s\nwant\n%s", tt.file, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func textMessage(from, subject, date, body string) *mime.Message {
	d, err := time.Parse(time.RFC1123Z, date)
	if err != nil {
		panic(err)
	}
	name, addr, _ := strings.Cut(from, "|")
	return &mime.Message{From: []mime.Address{{Name: name, Address: addr}}, Subject: subject, Date: d, Text: body}
}

func TestTextRules(t *testing.T) {
	tests := []struct {
		name string
		msg  *mime.Message
		want string // JSON-ish summary of the single fact, "" for none
	}{
		{"flight with codes in parentheses", textMessage("Lufthansa|booking@lufthansa.com", "Your booking XK4R7Q",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Booking reference: XK4R7Q\n\nFlight LH 400\n14 December 2026\nDeparture 10:05 Frankfurt (FRA)\nArrival 13:00 New York (JFK)\n"),
			"flight XK4R7Q LH 400 FRA>JFK 2026-12-14T10:05:00+01:00[Europe/Berlin] 2026-12-14T13:00:00-05:00[America/New_York] confirmed"},
		{"no year: the next such day after the mail", textMessage("Air|x@air.example", "Flight reminder",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Flight AB 1234 on 3 Jan\nDEP 07:00 (LIS)\nARR 09:40 (FRA)\n"),
			"flight  AB 1234 LIS>FRA 2027-01-03T07:00:00Z[Europe/Lisbon] 2027-01-03T09:40:00+01:00[Europe/Berlin] confirmed"},
		{"hotel", textMessage("Motel One|res@motel-one.com", "Reservation confirmed",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Hotel: Motel One Wien-Westbahnhof\nCheck-in: 08.01.2027 from 15:00\nCheck-out: 10.01.2027\nReservation number: MO-77321\n"),
			`hotel MO-77321 "Motel One Wien-Westbahnhof" 2027-01-08T15:00:00+01:00[] 2027-01-10[] confirmed`},
		{"order with tracking", textMessage("Shop|orders@shop.example", "Your order has shipped",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Order number: 4471093\nTracking number: 1Z999AA10123456784\n"),
			"order 4471093 shipped UPS 1Z999AA10123456784"},
		{"bill", textMessage("Stadtwerke|rechnung@stadtwerke.example", "Ihre Rechnung",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Rechnungsnummer: R-2026-0042\nRechnungsbetrag: 1.234,50 €\nZahlbar bis 30.11.2026\n"),
			"bill R-2026-0042 due 1234.50 EUR 2026-11-30"},
		{"promotion with a price is no bill", textMessage("Shop|news@shop.example", "Black Friday: 30% off",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Everything must go! Total savings: €50. Offer ends 30.11.2026.\n"), ""},
		{"one-time code is nothing", textMessage("Bank|noreply@bank.example", "Your security code",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Your code is 482913. It expires at 10:15.\n"), ""},
		{"wrong check digit is no tracking number", textMessage("Shop|orders@shop.example", "Shipped!",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Your parcel 1Z999AA10123456785 is on its way.\n"), ""},
		// A masked number names nothing; the subject's number stands in.
		{"masked order number, number in the subject", textMessage("Amazon.it|conferma-spedizione@amazon.it", "Il tuo ordine Amazon.it n. 405-5236882-9395563 è stato spedito",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Ordine n° XXX-5XXX882-9XXX5X3=XX\nIl tuo ordine è stato spedito con il corriere SDA e il numero di tracciabilità è 350C20177729F.\nTotale parziale: EUR 88,52\nTotale: EUR 107,34\n"),
			"order 405-5236882-9395563 shipped SDA 350C20177729F"},
		// Of two labelled numbers, the one whose check digit is right.
		{"labelled waybill with a right check digit wins", textMessage("DHL|noreply@dhl.com", "Your Delivery Is Today",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Your shipment with waybill number 4212345678 is scheduled for delivery today.\nWaybill No.\n4294142591\n"),
			"order  out_for_delivery DHL 4294142591"},
		// The carrier's own notice: its number form is proof enough.
		{"carrier's own form without a check digit", textMessage("UPS|mcinfo@ups.com", "UPS Update: Package Scheduled for Delivery Today",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Your package is arriving today.\nFrom CVS OTCHS C/O PHOENIX LOGISTIC\nUPS Ground\n1Z0Y12345678031234\n"),
			"order  out_for_delivery UPS 1Z0Y12345678031234"},
		{"another sender's unchecked 1Z is nothing", textMessage("Shop|orders@shop.example", "Shipped!",
			"Mon, 16 Nov 2026 09:00:00 +0100", "Your parcel is on its way: 1Z0Y12345678031234\n"), ""},
	}
	calendar := func(summary, desc string) *mime.Message {
		m := textMessage("Air|x@air.example", "Your trip", "Mon, 16 Nov 2026 09:00:00 +0100", "")
		m.Calendars = []string{"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20261116T080000Z\r\n" +
			"DTSTART:20261201T091000Z\r\nDTEND:20261201T110000Z\r\nSUMMARY:" + summary + "\r\nDESCRIPTION:" + desc + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"}
		return m
	}
	tests = append(tests, []struct {
		name string
		msg  *mime.Message
		want string
	}{
		// The summary names only the destination: the origin comes from the
		// labelled description, airports from "CITY CC" reservation-system names.
		{"calendar: destination-only summary", calendar("Flug nach TOULOUSE FR", `Flugnr.: LH 2218\nVon: MUNICH DE MUNICH INTERNATIONAL TERMINAL 2\nNach: TOULOUSE FR BLAGNAC`),
			"flight  LH 2218 MUC>TLS 2026-12-01T10:10:00+01:00[Europe/Berlin] 2026-12-01T12:00:00+01:00[Europe/Paris] confirmed"},
		{"calendar: codes in the summary", calendar("Your flight from FRA to EWR", `Flight number: LH 123\nFrom: Frankfurt International (FRA)\nAt: Newark Intl Apt (EWR)`),
			"flight  LH 123 FRA>EWR 2026-12-01T10:10:00+01:00[Europe/Berlin] 2026-12-01T06:00:00-05:00[America/New_York] confirmed"},
		{"calendar: a retired airport by name", calendar("Flight Berlin-Tegel -> Brussels Airport", `Flight SN 2588`),
			"flight  SN 2588 TXL>BRU 2026-12-01T10:10:00+01:00[Europe/Berlin] 2026-12-01T12:00:00+01:00[Europe/Brussels] confirmed"},
		{"calendar: a train's number after its label in the summary", calendar("Train 5186 from Nîmes to Lyon Part-Dieu", `Coach: 17\nSeat: 62\nBooking reference: XXX007`),
			"train XXX007 5186 Nîmes>Lyon Part-Dieu 2026-12-01T09:10:00Z[] 2026-12-01T11:00:00Z[] confirmed"},
		{"calendar: a train's label in the description", calendar("Your train from Hamburg to Berlin", `Booking reference: 4RT9QX\n Operated by: Deutsche Bahn on behalf of an airline\n Train:  OS 4711\n Total travel time: 1h 50m`),
			"train 4RT9QX OS 4711 Hamburg>Berlin 2026-12-01T09:10:00Z[] 2026-12-01T11:00:00Z[] confirmed"},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := extract.Extract(tt.msg, msgauth.Verdict{})
			var got []string
			for _, f := range res.Facts {
				switch {
				case f.Segment != nil:
					got = append(got, segLine(f.Segment))
				case f.Order != nil:
					s := fmt.Sprintf("order %s %s", f.Order.Number, f.Order.Status)
					for _, sh := range f.Order.Shipments {
						s += " " + sh.Carrier + " " + sh.Tracking
					}
					got = append(got, s)
				case f.Bill != nil:
					s := fmt.Sprintf("bill %s %s", f.Bill.Number, f.Bill.Status)
					if f.Bill.Amount != nil {
						s += " " + f.Bill.Amount.Amount + " " + f.Bill.Amount.Currency
					}
					if f.Bill.Due != nil {
						s += " " + f.Bill.Due.Format("2006-01-02")
					}
					got = append(got, s)
				}
			}
			if g := strings.Join(got, "\n"); g != tt.want {
				t.Errorf("Extract() = %q, want %q", g, tt.want)
			}
		})
	}
}
