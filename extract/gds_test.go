package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestPrintouts: booking systems' one-line flights, codeshare lines that
// are no flight of their own, and month abbreviations that are no
// airports.
func TestPrintouts(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // number from to depart arrive status
	}{
		{"amadeus", "BOOKING REF: K7XQ2M\n  1  LH1792 Y 14MAR 7 MUCLIS HK1  0955 1215   O*   E\n     OPERATED BY LUFTHANSA CITYLINE\n  2  TP 557 Y 21MAR 7 LISMUC HK1  1330 1720   O*\n     LH 6651 CODESHARE\n",
			[]string{"LH 1792 MUC LIS 2027-03-14T09:55+01:00 2027-03-14T12:15Z confirmed", "TP 557 LIS MUC 2027-03-21T13:30Z 2027-03-21T17:20+01:00 confirmed"}},
		{"sabre columns", "Flight itinerary, airport check-in 2h before\n BA 2594  02APR  LONDON GATWICK    ROME FIUMICINO    0715   1050\n",
			[]string{"BA 2594 LGW FCO 2027-04-02T07:15+01:00 2027-04-02T10:50+02:00 confirmed"}},
		{"date first, next day, cancelled", "Your flight itinerary\n 05DEC27  NH 204  FRAHND  2105  1625+1  XX1\n",
			[]string{"NH 204 FRA HND 2027-12-05T21:05+01:00 2027-12-06T16:25+09:00 cancelled"}},
		{"codeshare sentence", "Outbound flight\n14 April 2027\nAY 1331  Helsinki (HEL) 07:30 -> Stockholm (ARN) 07:35\nOperated by Norra. Also sold as SK 5711.\n",
			[]string{"AY 1331 HEL ARN 2027-04-14T07:30+03:00 2027-04-14T07:35+02:00 confirmed"}},
		{"receipt, names apart by a slash, a city with two large airports", "ELECTRONIC TICKET RECEIPT\nFLIGHT   DATE   FROM/TO               DEP   ARR\nLH 1132  05SEP  FRANKFURT/BARCELONA   0710  0905  K  OK\n",
			[]string{"LH 1132 FRA BCN 2027-09-05T07:10+02:00 2027-09-05T09:05+02:00 confirmed"}},
		{"a flight's shape over words that trains share ('PNR'), the date beside each airport", "PNR: TKS4U6\nTK 1663 Istanbul (IST) 10 Apr 2027 08:05 - Hamburg (HAM) 10 Apr 2027 10:20\n",
			[]string{"TK 1663 IST HAM 2027-04-10T08:05+03:00 2027-04-10T10:20+02:00 confirmed"}},
		{"a card of stacked blocks", "Booking reference: SNV7W8\n\nTue, 13 Apr 2027\n\nSN 3583\n\n07:10\n\nBrussels\n\nBRU\n\n08:45\n\nRome Fiumicino\n\nFCO\n",
			[]string{"SN 3583 BRU FCO 2027-04-13T07:10+02:00 2027-04-13T08:45+02:00 confirmed"}},
		{"a card of stacked blocks, each code after its airport's name", "Référence de réservation : XKQ2M8\n\nSamedi 17 avril 2027\n\nXK 215\n\n07:30\n\nNice (NCE)\n\n08:20\n\nBastia (BIA)\n",
			[]string{"XK 215 NCE BIA 2027-04-17T07:30+02:00 2027-04-17T08:20+02:00 confirmed"}},
		{"a row's date with four digits of year, each airport's code after its name", "Flight   Date        From                 To                   Dep    Arr\nKL1673   14JAN2028   Amsterdam (AMS)      Barcelona (BCN)      08:35  10:50\n",
			[]string{"KL 1673 AMS BCN 2028-01-14T08:35+01:00 2028-01-14T10:50+01:00 confirmed"}},
		{"the clocks as a span over the route, the number under", "Your flight on 14 April 2027\n08:35 – 10:50\nAmsterdam (AMS) → Barcelona (BCN)\nKL 1673\n",
			[]string{"KL 1673 AMS BCN 2027-04-14T08:35+02:00 2027-04-14T10:50+02:00 confirmed"}},
		{"a route by cities' names and a word for 'to'", "Flight KL1674 Barcelona to Amsterdam\nThu, Apr 15, 2027 11:40 AM - 2:05 PM\n",
			[]string{"KL 1674 BCN AMS 2027-04-15T11:40+02:00 2027-04-15T14:05+02:00 confirmed"}},
		{"a sentence naming the airports in French", "Vol AF 1148 le 17/04/2027 : départ de Paris-CDG à 08h35, arrivée à Athènes à 12h50.\n",
			[]string{"AF 1148 CDG ATH 2027-04-17T08:35+02:00 2027-04-17T12:50+03:00 confirmed"}},
		{"sabre, 12-hour clocks with one letter, the arrival's date in its column", "RECORD LOCATOR: QXRT4P\n 1 DL 1234Y 13JUN F JFKLHR HK1  1025P  1040A  14JUN  SA\n 2 DL  401Y 20JUN F LHRJFK HK1  1200N   250P  /DCDL*QXRT4P /E\n",
			[]string{"DL 1234 JFK LHR 2027-06-13T22:25-04:00 2027-06-14T10:40+01:00 confirmed", "DL 401 LHR JFK 2027-06-20T12:00+01:00 2027-06-20T14:50-04:00 confirmed"}},
		{"galileo, 12-hour clocks of three digits, the day after as a column", "  1. UA  930 Y  13JUN SFOLHR HK1   505P   1125A  +1 TH\n",
			[]string{"UA 930 SFO LHR 2027-06-13T17:05-07:00 2027-06-14T11:25+01:00 confirmed"}},
		{"a heading's date over the airline by name, its departure and arrival lines", "AIR   FRIDAY, JUNE 13\n      DELTA AIR LINES        FLT: 1234    ECONOMY\n      DEPART: NEW YORK JFK            10:25P\n      ARRIVE: LONDON HEATHROW         10:40A  +1\n      EQUIPMENT: BOEING 767-400\n",
			[]string{"DL 1234 JFK LHR 2027-06-13T22:25-04:00 2027-06-14T10:40+01:00 confirmed"}},
		{"an airline airlines.tsv does not name, its designator beside its name", "AIR   MONDAY, JUNE 16\n      NORDIC SKYLINK (N7)        FLT: 301    ECONOMY\n      DEPART: OSLO                    0905A\n      ARRIVE: NEW YORK JFK            1125A\n",
			[]string{"N7 301 OSL JFK 2027-06-16T09:05+02:00 2027-06-16T11:25-04:00 confirmed"}},
		{"the departure's word on the flight's row, the arrival's line under it", " 13JUN  UA 930   Y  DEPART SAN FRANCISCO      1025A\n                    ARRIVE LONDON HEATHROW    505A   14JUN\n",
			[]string{"UA 930 SFO LHR 2027-06-13T10:25-07:00 2027-06-14T05:05+01:00 confirmed"}},
		{"LV and AR lines under a date heading, the arrival's date in words", "13 JUN 2027 - FRIDAY\nAIR  BA 178   ECONOMY\nLV NEW YORK JFK               0810P     TERMINAL 7\nAR LONDON HEATHROW            0820A     ARRIVES SATURDAY, JUNE 14\n",
			[]string{"BA 178 JFK LHR 2027-06-13T20:10-04:00 2027-06-14T08:20+01:00 confirmed"}},
		{"an e-ticket receipt's two lines a flight, the arrival's time and date on the second", "FROM /TO           FLIGHT  CL DATE  DEP   FARE BASIS  NVB   NVA   BAG  ST\nFRANKFURT FRA      LH 400  Y  13JUN 1025  YOWDE       13JUN 13JUN 1PC  OK\nNEW YORK JFK                         ARRIVAL TIME: 1300  ARRIVAL DATE: 13JUN\nNEW YORK JFK       LH 401  Y  20JUN 1730  YOWDE       20JUN 20JUN 1PC  OK\nFRANKFURT FRA                        ARRIVAL TIME: 0725  ARRIVAL DATE: 21JUN\n",
			[]string{"LH 400 FRA JFK 2027-06-13T10:25+02:00 2027-06-13T13:00-04:00 confirmed", "LH 401 JFK FRA 2027-06-20T17:30-04:00 2027-06-21T07:25+02:00 confirmed"}},
		{"rows without their date under a heading that gives it, the pair apart by a dash", "13 JUN 27  FRIDAY\n  DL 1234   NEW YORK JFK   - LONDON HEATHROW      1025P  1040A+1\n20 JUN 27  FRIDAY\n  DL 401    LONDON HEATHROW - NEW YORK JFK        1200N  250P\n",
			[]string{"DL 1234 JFK LHR 2027-06-13T22:25-04:00 2027-06-14T10:40+01:00 confirmed", "DL 401 LHR JFK 2027-06-20T12:00+01:00 2027-06-20T14:50-04:00 confirmed"}},
		{"two cities' names in one column apart by one space", " 1 UA 930Y 13JUN SAN FRANCISCO LONDON HEATHROW HK1 1025A 505A+1\n",
			[]string{"UA 930 SFO LHR 2027-06-13T10:25-07:00 2027-06-14T05:05+01:00 confirmed"}},
		// Booking systems' e-tickets as agencies mail them, a line a
		// field (issue 46 class 1, the labelled reader).
		{"labelled e-ticket: the day's own line, each city's airport on the line under it", "E-TICKET - Worldspan Record Locator: 3KX7QF\nFLIGHT: Edinburgh to London (BA1436)\n   Date:      Thursday, March 18, 2027\n   Departs:   07:40 hrs\n   Arrives:   09:05 hrs\n   Flight:    BA1436 (operated by British Airways)\n   From:      Edinburgh,  United Kingdom\n   Airport:   EDI - Edinburgh Airport\n   To:        London,  United Kingdom\n   Airport:   LHR - Heathrow, Terminal 5\n\nFLIGHT: London to Edinburgh (BA1447)\n   Date:      Monday, March 22, 2027\n   Departs:   18:25 hrs\n   Arrives:   19:50 hrs\n   Flight:    BA1447 (operated by British Airways)\n   From:      London,  United Kingdom\n   Airport:   LHR - Heathrow, Terminal 5\n   To:        Edinburgh,  United Kingdom\n   Airport:   EDI - Edinburgh Airport\n",
			[]string{"BA 1436 EDI LHR 2027-03-18T07:40Z 2027-03-18T09:05Z confirmed", "BA 1447 LHR EDI 2027-03-22T18:25Z 2027-03-22T19:50Z confirmed"}},
		{"labelled e-ticket in German, the arrival's day in brackets", "Amadeus-Buchungsnummer: 5ZKQ2W\n   Flug:      LH 780 (durchgeführt von Lufthansa)\n   Datum:     Dienstag, 14. September 2027\n   Abflug:    21:55 Uhr\n   Von:       Frankfurt/Main, Deutschland\n   Flughafen: FRA - Frankfurt International, Terminal 1\n   Ankunft:   13:40 Uhr (15. September)\n   Nach:      Singapur, Singapur\n   Flughafen: SIN - Changi, Terminal 2\n",
			[]string{"LH 780 FRA SIN 2027-09-14T21:55+02:00 2027-09-15T13:40+08:00 confirmed"}},
		{"labelled e-ticket in French", "Référence de dossier : 4HJK9S\n   Vol :      AF 1232 (opéré par Air France)\n   Date :     samedi 17 avril 2027\n   Départ :   08h35\n   De :       Paris, France\n   Aéroport : CDG - Roissy Charles de Gaulle, terminal 2F\n   Arrivée :  12h50\n   À :        Athènes, Grèce\n   Aéroport : ATH - Eleftherios Venizelos\n",
			[]string{"AF 1232 CDG ATH 2027-04-17T08:35+02:00 2027-04-17T12:50+03:00 confirmed"}},
		{"labelled e-ticket in Spanish, a connection on one day, each stop with its airport's code", "Localizador: 7TPQ4X\n   Vuelo:   LH 1121\n   Fecha:   miércoles, 12 de mayo de 2027\n   Salida:  07:15  Madrid (MAD), Terminal 2\n   Llegada: 09:50  Fráncfort (FRA), Terminal 1\n\n   Vuelo:   LH 866 (operado por Lufthansa)\n   Fecha:   miércoles, 12 de mayo de 2027\n   Salida:  10:55  Fráncfort (FRA), Terminal 1\n   Llegada: 12:55  Oslo (OSL)\n",
			[]string{"LH 1121 MAD FRA 2027-05-12T07:15+02:00 2027-05-12T09:50+02:00 confirmed", "LH 866 FRA OSL 2027-05-12T10:55+02:00 2027-05-12T12:55+02:00 confirmed"}},
		{"labelled itinerary, the airline by its name, an overnight '(+1)'", "Trip Locator: KJWMRT\nFlight:  Alaska Airlines 0750\n   Date:            Thu, May 20, 2027\n   Departure:       10:40 PM\n   Departing from:  Seattle, WA (SEA - Seattle-Tacoma Intl)\n   Arrival:         7:05 AM (+1)\n   Arriving at:     Boston, MA (BOS - Logan Intl)\n",
			[]string{"AS 750 SEA BOS 2027-05-20T22:40-07:00 2027-05-21T07:05-04:00 confirmed"}},
		{"an e-ticket receipt's departure airport and terminal on lines of their own", "BOOKING REF: AMADEUS: 6RKT2P, AIRLINE: SK/ZL4Q8N\nFROM /TO           FLIGHT   CL DATE   DEP   FARE BASIS  NVB   NVA   BAG  ST\nCOPENHAGEN CPH     SK 1415  M  19MAR  0705  MLOWDK            19MAR 1PC  OK\nKASTRUP\nTERMINAL:3\nOSLO OSL                            ARRIVAL TIME: 0815  ARRIVAL DATE: 19MAR\n",
			[]string{"SK 1415 CPH OSL 2027-03-19T07:05+01:00 2027-03-19T08:15+01:00 confirmed"}},
		{"a schedule change: the old segment (UN) gives way to the new one (TK) of the same flight and day", "RECORD LOCATOR: WQXPRT\nORIGINAL FLIGHT\n 1 UA 1542Y 06MAY 4 ORDDEN UN1  0915A 1100A\nNEW FLIGHT\n 1 UA 1542Y 06MAY 4 ORDDEN TK1  1005A 1150A\n",
			[]string{"UA 1542 ORD DEN 2027-05-06T10:05-05:00 2027-05-06T11:50-06:00 confirmed"}},
		{"a fare quote, nothing booked, is no flight", "FARE QUOTE - FOR INFORMATION ONLY. Nothing has been booked.\n 1 ME 211 Y 14APR BEYCDG 0810 1120\n 2 ME 212 Y 21APR CDGBEY 1250 1805\n", nil},
		{"a departure line without a flight is no block", "Your coach\nDEPART LONDON VICTORIA 10:25\nARRIVE MANCHESTER 14:40\n", nil},
		{"prose is no row", "Our flight sale: 12MAR to 20MAR, fly LH 400 from 99 EUR, departures 0955 and 1215 daily\n", nil},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "travel@agency.example"}}, Subject: "Itinerary", Text: c.text,
			Date: time.Date(2027, 1, 11, 9, 0, 0, 0, time.UTC)}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && s.Depart != nil && s.Arrive != nil {
				got = append(got, strings.Join([]string{s.Number, s.From.Code, s.To.Code,
					s.Depart.Format(time.RFC3339)[:16] + zoneOf(s.Depart.Time), s.Arrive.Format(time.RFC3339)[:16] + zoneOf(s.Arrive.Time), s.Status}, " "))
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func zoneOf(t time.Time) string {
	if _, off := t.Zone(); off == 0 {
		return "Z"
	}
	return t.Format("-07:00")
}

// TestAirlineLocator: a printout's segments take the airline's record
// locator the printout names beside the agency's, after the airline's
// name or alone; the agency's when it names none.
func TestAirlineLocator(t *testing.T) {
	const rows = " 13JUN  UA 930   Y  DEPART SAN FRANCISCO      1025A\n                    ARRIVE LONDON HEATHROW    505A   14JUN\n"
	for _, c := range []struct{ head, want string }{
		{"RESERVATION CODE: 8JW2TQ\nAIRLINE CONFIRMATION: UNITED AIRLINES - HX7M4C\n", "HX7M4C"},
		{"RESERVATION CODE: 8JW2TQ\nAirline reference: HX7M4C\n", "HX7M4C"},
		{"RESERVATION CODE: 8JW2TQ\n", "8JW2TQ"},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "travel@agency.example"}}, Subject: "Itinerary", Text: c.head + rows,
			Date: time.Date(2027, 1, 11, 9, 0, 0, 0, time.UTC)}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			got = append(got, f.Segment.Number+" "+f.Segment.Reservation)
		}
		if want := "UA 930 " + c.want; strings.Join(got, ",") != want {
			t.Errorf("%q: got %q, want %q", c.head, got, want)
		}
	}
}
