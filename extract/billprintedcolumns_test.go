package extract_test

import (
	"testing"
	"time"
)

// TestPrintedBillsColumnsRunTogether: utilities' and telecoms' bills as
// their PDFs' text (issue 46, foreign-25: ENGIE, Enel, Orange Romania,
// Energa, MSEDCL, an Amazon.de payment demand) run a summary's columns
// together and print their labels in the forms of their country. Each
// case is one such class, in a text written here:
//   - the day it is debited between the label and the amount
//     ("prélevé le 18 mars 2027 196,40 €"; a year's digits lent to the
//     amount: TestAmountAfterAYear), the number under the bill's title
//     as "N° …", and "hors toutes taxes" a net amount;
//   - Romanian: "lei" before the figure in a statement's column, the
//     invoice's series before its number ("seria 27 BX nr. 00412233"),
//     the due label's line holding the next column's cells and the day
//     under it, ș and ț with a cedilla, "Total factura" beside a phone's
//     number and the figure bare, in the currency the text's amounts are;
//   - Polish: "Faktura VAT" before the number, a fee's row of 0,00 under
//     "do zapłaty" before the amount's own label ("Kwota płatności");
//   - Indian: "Rs:" before the figure;
//   - German: a failed debit's demand to transfer the amount "bis
//     spätestens" a day, whose "(Zahlungseingangsdatum)" says nothing
//     was paid.
func TestPrintedBillsColumnsRunTogether(t *testing.T) {
	type want struct{ number, amount, currency, status, due string }
	for _, tt := range []struct {
		name, from, subject, text string
		sent                      time.Time
		want                      want
	}{
		{"a year before the amount, the number under the title", "Lumière Énergie <factures@lumiere-energie.example>", "Votre facture du 02 mars 2027",
			"Votre facture du 02 mars 2027\n\nN° 30118844120\n\nVos informations client MONTANT TTC prélevé le 18 mars 2027 196,40 €\n\n" +
				"électricité 161,10 €\ntotal hors toutes taxes 163,67 €\nTotal TVA 32,73 €\n\ntotal TTC 196,40 €\n",
			time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC), want{"30118844120", "196.40", "EUR", "due", "2027-03-18"}},
		{"Romanian columns", "Electrica Sud <facturi@electricasud.example>", "Factura seria 27 BX nr. 00412233",
			"Factură fiscală seria 27 BX nr. 00412233 din data de 05.02.2027\n\nInformaţii necesare plăţii\n" +
				"1 Valoare factura fara TVA lei 52,10\nRegularizare 2 Total baza de impozitare TVA lei 52,10\nDată scadenţă: 3 TVA 19% lei 9,90\n02.03.2027\n" +
				"4 Total de plata (4=2+3) lei 62,00\n\nTOTAL DE PLATĂ 62,00 lei\n",
			time.Date(2027, 2, 5, 9, 0, 0, 0, time.UTC), want{"00412233", "62.00", "RON", "due", "2027-03-02"}},
		{"Romanian telecom: the total beside a phone's number", "Mobil Rapid <facturi@mobilrapid.example>", "Factura Mobil Rapid",
			"factura\n\nUltima zi de plata: 03.03.2027\nNumar factura: MRX004411220\nData facturii: 18.02.2027\n\nMobil Rapid S.A., Capital social subscris si varsat: 12.400.000 lei\n\n" +
				"valoarea in lei\nfara T.V.A.\nAbonament 19.01.27 - 18.02.27 40,00\nTotal fara TVA (19%) 48,74\nTVA (19%) 9,26\nTotal factura 0722000111 58,00\n",
			time.Date(2027, 2, 18, 9, 0, 0, 0, time.UTC), want{"MRX004411220", "58.00", "RON", "due", "2027-03-03"}},
		{"Polish: Faktura VAT, a fee's empty row", "Prąd Północ <faktury@pradpolnoc.example>", "Faktura VAT 7712004411/FES/00031",
			"Faktura VAT 7712004411/FES/00031\n\nRozliczenie za okres 01.01.2027 - 31.03.2027 Wartość do zapłaty\n\n\nwartość energii pobranej 212,48 zł\n\n" +
				"odsetki za nieterminową wpłatę 0,00 zł\nopłata za wezwanie do zapłaty 0,00 zł\nTermin płatności: 24.04.2027\nKwota płatności: 212,48\n",
			time.Date(2027, 4, 10, 9, 0, 0, 0, time.UTC), want{"7712004411/FES/00031", "212.48", "PLN", "due", "2027-04-24"}},
		{"Indian: Rs before the figure", "Power Board <ebill@powerboard.example.in>", "Electricity Bill for MAR-2027",
			"Electricity Distribution Co. Ltd.\nBill of Supply For: MAR-2027\nBILL NO.(GGN): 000002201144553\n\nConsumer No: 850280099001 Bill Date: 22-MAR-27\n" +
				"Bill Amount Rs: 1,240.00\nDue Date: 12-APR-27\nIf Paid After Due Date: 1,260.00\n",
			time.Date(2027, 3, 22, 9, 0, 0, 0, time.UTC), want{"000002201144553", "1240.00", "INR", "due", "2027-04-12"}},
		{"German: a failed debit's demand", "Versandhaus <zahlung@versandhaus.example.de>", "Ihre Zahlung bei Versandhaus",
			"Guten Tag,\n\nwie vereinbart haben wir versucht den Betrag für Ihre Bestellung von Ihrem Konto abzubuchen. Die Bezahlung dieser Bestellung konnte nicht abgeschlossen werden.\n\n" +
				"Wir fordern Sie hiermit höflich auf, den ausstehenden Betrag in Höhe von EUR 54.90 bis spätestens 14.04.2027 (Zahlungseingangsdatum) unter Angabe des Verwendungszwecks 77120044 zu überweisen:\n\n" +
				"Bestellnummer Betrag\n302-7711002-1100442 EUR 51.90\nRücklastschriftentgelt EUR 3.00\nGesamtbetrag EUR 54.90\n",
			time.Date(2027, 4, 1, 9, 0, 0, 0, time.UTC), want{"", "54.90", "EUR", "due", "2027-04-14"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := oneBill(t, mailFacts(tt.from, tt.subject, tt.text, tt.sent))
			due := ""
			if b.Due != nil {
				due = b.Due.Format("2006-01-02")
			}
			a, cur := billAmount(b)
			got := want{b.Number, a, cur, b.Status, due}
			if got != tt.want {
				t.Errorf("bill %+v, want %+v", got, tt.want)
			}
		})
	}
}
