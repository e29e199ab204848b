package extract_test

import (
	"mailnode/mail/msgauth"

	"encoding/json"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
)

// FuzzExtract runs every extractor over arbitrary markup and text. It must
// not panic, hang or return facts that cannot be serialised.
func FuzzExtract(f *testing.F) {
	f.Add(`<script type="application/ld+json">{"@type":"FlightReservation","reservationFor":{"@type":"Flight","departureTime":"2026-12-01T10:00"}}</script>`,
		"Flight LH 400\n14 Dec 2026\nDEP 10:05 (FRA)\nARR 13:00 (JFK)", "")
	f.Add(`<div itemscope itemtype="http://schema.org/Order"><meta itemprop="orderNumber" content="1"></div>`,
		"Rechnungsnummer: R-1\nBetrag: 1.234,50 €\nZahlbar bis 30.11.", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20261201T070000Z\r\nSUMMARY:Flight LH 1 FRA -> MUC\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
	f.Add("", "BOOKING REF: K7XQ2M\n  1  LH1792 Y 14MAR 7 MUCLIS HK1  0955 1215+1 O*\n BA 2594  02APR  LONDON GATWICK    ROME FIUMICINO    0715   1050\n     OPERATED BY LH 6651", "")
	f.Add("", "AIR   FRIDAY, JUNE 13\n      DELTA AIR LINES        FLT: 1234\n      DEPART: NEW YORK JFK   10:25P\n      ARRIVE: LONDON HEATHROW  10:40A  +1\n 1 DL 1234Y 13JUN F JFKLHR HK1  1025P  1040A  14JUN\n 13JUN  UA 930  DEPART SAN FRANCISCO 1025A\n   ARRIVE LONDON HEATHROW 505A 14JUN", "")
	f.Add(`<table><tr><th colspan="2">Train 171</th></tr><tr><td>New York, NY (NYP)</td><td>Washington, DC (WAS)</td></tr><tr><td>Depart 8:05 AM</td><td>Arrive 11:35 AM</td></tr><tr><td>June 18, 2027</td><td>June 18, 2027</td></tr></table>`,
		"Your coach ticket\nFr., 01.10.2027\n08:15 München ZOB, Steig 5\n13:40 Berlin Südkreuz\nSeat 12A", "")
	f.Add(`<table><tr><th>DATE</th><th>FLIGHT</th><th>FROM</th><th>TO</th><th>DEPARTS</th><th>ARRIVES</th></tr><tr><td>JUN 13</td><td>BA 117</td><td>London (LHR)</td><td>New York (JFK)</td><td>08:25 (UTC+01:00)</td><td>11:05 +1</td></tr></table>`,
		"Vlucht    Datum        Van         Naar      Vertrek   Aankomst\nHV 5131   15.5.        Amsterdam   Faro      07:05     09:35\n", "")
	f.Add(`[{"a":1}{"b":2},]`, "Order number: 12345\nTracking number: 1Z999AA10123456784\nshipped", "")
	f.Add("", "Thanks\n\nOn Thu, Apr 8, 2027 at 4:52 PM Shop <\ns@shop.example> wrote:\n\n> Order 1\n>\n> On 3.6.27 10:14, Rail wrote:\n> > Train 612\n", "")
	f.Add("", "FYI\n\nFrom: Shop, Inc. <s@shop.example>\nSent: today\nTo: a@b.example\nSubject: x\nTracking number: 1Z999AA10123456784\n", "")
	// Flattened rows, a table on one line, heading cells over values, an
	// order's number in a sentence (flightclockleg_test.go,
	// ordersentence_test.go).
	f.Add("", "Buchungscode / Rechnungsnummer: K8VPZ3\nDatum Flug Abflug Ankunft\n12.05.2027 EW 9044 07:15 Hamburg 08:20 München\nTP 1327\nDublin → Lisbon\nMon, 14 Jun 2027\n06:25\n", "")
	f.Add("", "Code: K8VPZ3 Date Departs Arrives Flt # Route Fri, Jun 11 6:10 AM 8:45 AM AM 427 Operated by X DBA Y GDL to MEX Ana Lopez Sat, Jun 12 11:30 AM 2:05 PM UA 1207 MEX to IAH Ana Lopez", "")
	f.Add("", "Frontier Airlines\nDenver, CO\n2:01 PM\nFort Lauderdale, FL\n7:46 PM\nTERMINAL\nFLIGHT\nB\n1184\nTwoje zamówienie otrzymało numer: 52018.\nBestellungsreferenznummer 456629\n", "")
	// A departure's clock alone, a time's label, a printed slip's rows,
	// a card's code, name, day and clock (traindepartureclock_test.go,
	// trainslip_test.go, flightcardstop_test.go).
	f.Add("", "From: Baler\nTo: Cubao\nDeparture: Wednesday, May 21, 2027 1:00 PM\nFecha de viaje: 29/07/2027\nHora: 20:15\n", "")
	f.Add("", "Boarding From To\nNEW DELHI (NDLS) PRAYAGRAJ JN. (PRYJ)\nDeparture* 22:30 16-Sep-2027 Arrival* 06:20 17-Sep-2027\nPNR: Train No./Name Class\n\n2201893135 12276/PRYJ HUMSFAR EX\n", "")
	f.Add("", "Booked From To\nTHANE - TNA (MUMBAI) THANE (TNA) KARMALI - KRMI (GOA)\nStart Date* 14-Dec-2027 Departure* 21:45 14-Dec-2027 Arrival* 5:10 15-Dec-2027\nPNR Train No./Name Class\n", "")
	f.Add("", "SG 8169 (B737) | 04 Dec 2026 | Check-in closes: 06:35 hrs\nMAA - Chennai International Airport 1h 55m\nPNQ - Pune Airport\n07:35 hrs, 04 Dec 2026 09:30 hrs, 04 Dec 2026\nKuala Lumpur (KUL)\nKLIA (Terminal 1)\nSat 12 Dec 2026, 0740 hrs ( 7:40AM)\n", "")
	f.Add("", "Voo para\n GRU\n São Paulo, Guarulhos\n 12/03/2027 - 07:05\n Voo G3 1450\n REC\n Recife\n 12/03/2027 - 10:15\n", "")
	f.Add("", "Thanks for riding with Jonas!\nFare (3.2mi, 11m)\t$7.90\nApple Pay (Visa) * $8.20 *\nVisa ••••1234\n3/2/27 8:10 PM $8.20\nPayment declined\nReceipt #55120774310\n", "")
	f.Add("", "Vendredi 2 Septembre\nAller\t16h57\tPARIS GARE DE LYON\tTGV\t6687\t1e classe\n18h56\tLYON PART DIEU\nVotre voyage\nPARIS <> LYON - les 02/09/2027 et 04/09/2027\nRéférence de dossier : SOQUUL | SOQUYW\nPARIS <> AVIGNON - les 15/09/2027\nRéférence de dossier : SOUHHS\n", "")
	f.Add("", "Flight # 1834 → Sat, Oct 24, 2027\nDEN 6:10 AM Departs\nKOA 10:35 AM Arrives\nGdansk (GDN) - Eindhoven (EIN)\n06:45, 14 okt 2027 08:30, 14 okt 2027\tReistijd: 1h 45min\nLuchtvaartmaatschappij: Wizz Air Vluchtnummer: 1999\n", "")
	f.Add("", "From To Flight Departure Arrival Last check-in\nTORONTO PEARSON INTL LONDON HEATHROW AC868 18:30 06:35 17:30\n\n\nINTL Terminal / Terminal: 1 21Jun2027 22Jun2027\n", "")
	f.Add("", "Record Locator:\nJWXKPD\nMonday, March 8, 2027\nPHX\nDFW\n6:15\nAM\n10:52\nAM\nPhoenix\nAA 2210\n", "")
	f.Add("", "2. A Menon Date 09Dec26 Date 13Dec26 From Chennai From Pune\nFlight 6E 2041 Flight 6E 2042\nTo Pune To Chennai\nDeparts 6:10 AM Departs 9:30 PM\nArrives 8:05 AM Arrives 11:20 PM\n"+
		"TUE, 08 DEC, 2026 SG 8137 MUMBAI / T 1 CHENNAI 06:10 08:05 SPICEJET\nDelhi (T1D) Srinagar (T1)\nSG 272\nCebu Pacific Air DAVAO | DVO MANILA | MNL\nStatus: Booking Date: Booking Reference:\nCONFIRMED Wed. 25 Nov. 2026 QK7P2M\n"+
		"PNR: Train No./Name Class\n4456992546 16581/YPR SMET EXP ( 2A\n1.A J 29 MALE CNF/D7/24\nAmount due 660.03\nTotal (`) 663.77\nFor Meghdoot Telecom Limited\n"+
		"G3 1101 A 14/12/2026 06:10 14/12/2026 07:45 Com bagagem\nLOC (Localizador da reserva) QX7RTP\n1:20 p. m.\nLANPERU BUENOS AIRES PISTARINI Dom 13-DIC-26 MEXICO CITY 08:45\n", "")
	// A calendar pasted as text, its lines doubled and cut short, with a
	// zone its VTIMEZONE defines (icalzone.go).
	f.Add("", "BEGIN:VCALENDAR\n\nBEGIN:VTIMEZONE\n\nTZID:W. Europe Standard Time\n\nBEGIN:DAYLIGHT\n\nDTSTART:16010325T020000\n\nTZOFFSETFROM:+0100\n\nTZOFFSETTO:+0200\n\n"+
		"RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\n\nEND:DAYLIGHT\n\nEND:VTIMEZONE\n\nBEGIN:VEVENT\n\nDTSTART;TZID=W. Europe Standard Time:20270610T052100\n\n"+
		"DTEND;TZID=W. Europe Standard Time:20270610T132300\n\nSUMMARY:Zug von A nach B\n\nDESCRIPTION:Deutsche Bahn - CB 55672 Zweite Klasse\\nAbreise von A um 05:21\\nAnkunft in", "")
	f.Fuzz(func(t *testing.T, html, text, cal string) {
		m := &mime.Message{
			From:    []mime.Address{{Name: "X", Address: "x@shop.example"}},
			Subject: "Your order has shipped: flight hotel invoice",
			Date:    time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC),
			HTML:    []string{html, `<script type="application/ld+json">` + html + `</script>`},
			Text:    text,
		}
		if cal != "" {
			m.Calendars = []string{cal}
		}
		res := extract.Extract(m, msgauth.Checker{}.Check(m, nil))
		var recs []extract.Record
		for _, fc := range res.Facts {
			if _, err := json.Marshal(fc); err != nil {
				t.Fatalf("fact does not serialise: %v", err)
			}
			recs = append(recs, extract.Record{Fact: fc, Date: m.Date})
		}
		if _, err := json.Marshal(extract.Merge(recs)); err != nil {
			t.Fatalf("merged state does not serialise: %v", err)
		}
	})
}
