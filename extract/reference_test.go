package extract

import "testing"

// TestOrderNumberAfterVerb: an order's number after its label and a verb
// that introduces it, with or without a colon after the verb.
func TestOrderNumberAfterVerb(t *testing.T) {
	for text, want := range map[string]string{
		"Deine Bestellnummer lautet: KW-2030-77184\n":     "KW-2030-77184",
		"Ihre Bestellnummer lautet 4021-88317.\n":         "4021-88317",
		"Your order number is: 88213-55\n":                "88213-55",
		"Bestellnummer: 10029384\n":                       "10029384",
		"Ihre Bestellung lautet: wie besprochen, bald.\n": "",
		// "N°" in capitals, as a header prints it.
		"ATELIER LUNE\tCOMMANDE N° 1582\n": "1582",
		"Commande n° 1733\n":               "1733",
		// A store's prefix with a dot; the ids of digital orders.
		"Order number: GPA.3345-1234-5678-90123\n": "GPA.3345-1234-5678-90123",
		"Order ID: MK4T8Q2LZ9\n":                   "MK4T8Q2LZ9",
		"Bestell-ID: LZ-4481-2290\n":               "LZ-4481-2290",
		"Order-ID: LR-778120\n":                    "LR-778120",
		// The word for number between the noun and the number, as its
		// abbreviation stands: French, Italian, Spanish, German.
		"Votre commande numéro 48120377 est partie.\n":      "48120377",
		"Il tuo ordine numero 7720-1183 è stato spedito.\n": "7720-1183",
		"Tu pedido número ES-220981 ya está en camino.\n":   "ES-220981",
		"Ihre Bestellung Nummer 5531209 wurde versandt.\n":  "5531209",
		"Votre commande numéro de suivi sera envoyé.\n":     "",
		// A date after the label is no number.
		"Order date: 07.09.2027\n": "",
	} {
		c := &msgContext{}
		if got := c.orderNumber(text); got != want {
			t.Errorf("orderNumber(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestReservationLabels: a booking's code after the labels airlines and
// agencies print (issue 46): the airline's locator beside an agency's
// number in each of the thirteen languages, Mexico's "clave".
func TestReservationLabels(t *testing.T) {
	for text, want := range map[string]string{
		"ID de reserva: 2198374655\nLocalizador de la aerolínea: NW8K4D\n":        "NW8K4D",
		"Clave de reservación: AMQ7K2\n":                                          "AMQ7K2",
		"Número do processo: 2028-7741\nLocalizador da companhia aérea: TPQ6N2\n": "TPQ6N2",
		"Bestillingsreferanse: WF7TQZ\n":                                          "WF7TQZ",
		"STORGATA 12, 0155 OSLO        BESTILLINGSREFERANSE: K7QX2M\n":            "K7QX2M",
		// The airline's own code beside an agency's number, in each
		// language.
		"Booking no. 2028-7741\nAirline booking reference: TPQ6N2\n":                "TPQ6N2",
		"Buchungsnr. 2028-7741\nBuchungscode der Fluggesellschaft: TPQ6N2\n":        "TPQ6N2",
		"Dossier 2028-7741\nRéférence de la compagnie aérienne : TPQ6N2\n":          "TPQ6N2",
		"Dossier 2028-7741\nCode de réservation compagnie : TPQ6N2\n":               "TPQ6N2",
		"Pratica 2028-7741\nCodice di prenotazione della compagnia aerea: TPQ6N2\n": "TPQ6N2",
		"Dossier 2028-7741\nBoekingscode luchtvaartmaatschappij: TPQ6N2\n":          "TPQ6N2",
		"Order 2028-7741\nFlygbolagets bokningsnummer: TPQ6N2\n":                    "TPQ6N2",
		"Ordre 2028-7741\nFlyselskabets bookingreference: TPQ6N2\n":                 "TPQ6N2",
		"Ordre 2028-7741\nFlyselskapets referanse: TPQ6N2\n":                        "TPQ6N2",
		"Tilaus 2028-7741\nLentoyhtiön varaustunnus: TPQ6N2\n":                      "TPQ6N2",
		"Zamówienie 2028-7741\nKod rezerwacji linii lotniczej: TPQ6N2\n":            "TPQ6N2",
		"Objednávka 2028-7741\nRezervační kód letecké společnosti: TPQ6N2\n":        "TPQ6N2",
		"Expediente 2028-7741\nCódigo de reserva de la aerolínea: TPQ6N2\n":         "TPQ6N2",
		"Processo 2028-7741\nCódigo de reserva da companhia aérea: TPQ6N2\n":        "TPQ6N2",
		// Two labels run together, as US airlines print them: the
		// code after both, not "confirmation" after "Booking".
		"Booking confirmation: QZ7WPA\nSAT 12/05/2026\n": "QZ7WPA",
		"Booking Confirmation: PWTQZK\n":                 "PWTQZK",
	} {
		c := &msgContext{}
		if got := c.recordLocator(text); got != want {
			t.Errorf("recordLocator(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestReservationBareWord: a booking's or order's word alone with its
// colon before a dashed code ("Auftrag: 771-203-991"); the word without
// a colon ("im Auftrag von"), or a date after it, is no code.
func TestReservationBareWord(t *testing.T) {
	for text, want := range map[string]string{
		"Auftrag: 771-203-991\n":                       "771-203-991",
		"Buchung: 2030-4410-7\n":                       "2030-4410-7",
		"Boeking: 4471-220-19\n":                       "4471-220-19",
		"Réservation : 8812-33-401\n":                  "8812-33-401",
		"Durchgeführt von ÖBB im Auftrag von Alpine\n": "",
		"Buchung: 12.03.2030\n":                        "",
	} {
		c := &msgContext{}
		if got := c.recordLocator(text); got != want {
			t.Errorf("recordLocator(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestReservationInGroups: a code printed in groups apart by dots or by
// spaces is one code, not its first group; two groups of four digits are
// no code of that form (a number and a year).
func TestReservationInGroups(t *testing.T) {
	for text, want := range map[string]string{
		"Buchungscode: 1234 5678 9012\n":      "1234 5678 9012",
		"Booking code: 4417 2093 8812 0051\n": "4417 2093 8812 0051",
		"Buchungsnummer: 3812.447.120\n":      "3812.447.120",
		"Buchungsnummer: 3012 4478 20\n":      "3012 4478 20",
		"Buchungsnummer: 7712 2030\n":         "7712",
	} {
		if got := findReservation(text); got != want {
			t.Errorf("findReservation(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestShipperInCompound: the shop after a compound whose last word is a
// parcel's or delivery's ("Möbellieferung von Wohnwerk24"); a lower-case
// word after it names none.
func TestShipperInCompound(t *testing.T) {
	for text, want := range map[string]string{
		"Ihre Möbellieferung von Wohnwerk24 ist unterwegs.\n": "Wohnwerk24",
		"Din möbelleverans från Hemmaboden är på väg.\n":      "Hemmaboden",
		"Je meubelzending van Woonhuys is onderweg.\n":        "Woonhuys",
		"Ihre Teillieferung von heute enthält 2 Artikel.\n":   "",
	} {
		c := &msgContext{}
		if got := c.shipperNamed(text); got != want {
			t.Errorf("shipperNamed(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestShortStayRef: a small house's short booking number after its
// label, alone on its line; a count, an amount or a word after a number
// makes it none, and a longer code is findReservation's.
func TestShortStayRef(t *testing.T) {
	for text, want := range map[string]string{
		"Prenotazione n. 558\n":                "558",
		"Buchungsnummer: 312\n":                "312",
		"Reservation #731\n":                   "731",
		"Réservation n° 889\n":                 "889",
		"Reserva nº 123\n":                     "123",
		"Booking number: 312 (please quote)\n": "312",
		"Confirmation: H-77\n":                 "H-77",
		"Boekingsnummer: BV 88213\n":           "BV 88213",
		"Reservation: 2 adults\n":              "",
		"Booking: 150 EUR\n":                   "",
		"Booking number: 1 room\n":             "",
		"Reservation for 4 people\n":           "",
		"Buchung Nr. 88\n":                     "",
		"Room: 204\n":                          "",
		"Booking reference: LON-7F-22\n":       "",
	} {
		if got := shortStayRef(text); got != want {
			t.Errorf("shortStayRef(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestRecordLocatorAirlineOverAgency: an agency's or a booking system's
// mail that prints its own six-character locator before the airline's
// gives the one its label names as the airline's, in any order and
// language; a mail with only the agency's keeps it.
func TestRecordLocatorAirlineOverAgency(t *testing.T) {
	for text, want := range map[string]string{
		"Agency PNR : K2W9QX\n\nAirline PNR : 7HTR4B\n":                           "7HTR4B",
		"GDS record locator: QX7K2M\nCarrier locator: B4NZ8T\n":                   "B4NZ8T",
		"Airline confirmation code: B4NZ8T\nGalileo record locator: QX7K2M\n":     "B4NZ8T",
		"Your booking number is ZT4Q8M. The airline's booking code is HX2R7N.\n":  "HX2R7N",
		"Reisebüro-Buchungscode: LM4Q7Z\nBuchungscode der Airline: R8KP2D\n":      "R8KP2D",
		"Réf. agence\nRéférence dossier : WQ4TZK\nRéférence compagnie : P7MM2C\n": "P7MM2C",
		"Localizador: 4XRT2P\nLocalizador de la aerolínea: ZQ8K1M\n":              "ZQ8K1M",
		"Bokningsnummer: TT5K9Q\nFlygbolagets bokningsreferens: MX2B7R\n":         "MX2B7R",
		"Booking reference | Agency PNR: K2W9QX | Segment 1 SQ 231 SIN-SYD\n":     "K2W9QX",
		// A booking system's own reference is the booking's where its
		// printout calls the airline's a "Vendor Locator" (Galileo).
		"E-TICKET - Booking system reference: 00KQ7T\nFLIGHT: Oslo to Rome (SK4711) Vendor Locator: 00ZW2M\n": "00KQ7T",
		"Provider PNR: K2W9QX\nSegment 1 SQ 231 SIN-SYD\nAirline: Singapore Airlines\n":                       "K2W9QX",
	} {
		c := &msgContext{}
		if got := c.recordLocator(text); got != want {
			t.Errorf("recordLocator(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestReservationPurposeBeforeColon: a booking's code whose label says
// what it is for before the colon ("Dein Buchungscode für den Check-in:
// …", "Booking reference for online check-in: …"), in a run-on line or
// alone, in several languages; the phrase without a colon after it
// ("use your booking code for check-in at the airport") gives no code.
func TestReservationPurposeBeforeColon(t *testing.T) {
	for text, want := range map[string]string{
		"Hallo Jana, danke für deine Buchung. Dein Buchungscode für den Check-in: QT7MZK Flugdaten (Ortszeiten) Flug: 12.11.2026": "QT7MZK",
		"Booking reference for online check-in: W4KQ2P\n":                            "W4KQ2P",
		"Votre référence de réservation pour l'enregistrement en ligne : RZ8TQM\n":   "RZ8TQM",
		"Código de reserva para el check-in: MX4TQZ\n":                               "MX4TQZ",
		"Bokningsnummer för incheckning: KQ2WZT\n":                                   "KQ2WZT",
		"Use your booking code for check-in at the airport. Gate closes at 10:40.\n": "",
	} {
		c := &msgContext{}
		if got := c.recordLocator(text); got != want {
			t.Errorf("recordLocator(%q) = %q, want %q", text, got, want)
		}
	}
}
