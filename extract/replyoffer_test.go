package extract_test

import (
	"testing"

	"mailnode/extract"
)

// TestReplyOfferOverQuotedBooking: a hotel's reply that only offers or
// proposes other dates over the confirmation it quotes (Outlook's marker,
// in several languages) gives the quoted stay alone, never the offered
// dates; the quote's number and "confirmed" are not the offer's. The same
// reply naming its own booking number states a change and gives it.
func TestReplyOfferOverQuotedBooking(t *testing.T) {
	const old = "Booking number: 58213\nHotel Adler, Innsbruck\nCheck-in: 12.07.2027\nCheck-out: 15.07.2027\n"
	for _, c := range []struct{ name, own, marker, quoteHead string }{
		{"en", "Dear Mr Smith,\n\nthank you for your request. Unfortunately the room is not available for your new dates.\nWe could offer you instead, maybe:\n\n" +
			"Check-in: 14.07.2027\nCheck-out: 16.07.2027\n\nPlease let us know if you would like this option; until then your booking stays as it is.\n\nKind regards\nHotel Adler\n",
			"-----Original Message-----", "From: Hotel Adler <res@hotel-adler.example>\nSent: Monday, June 7, 2027 10:00\nTo: John Smith <john@home.example>\nSubject: Booking confirmation 58213\n\nYour booking is confirmed.\n"},
		{"de", "Sehr geehrter Herr Schmidt,\n\nleider ist das Zimmer zu den neuen Daten nicht frei. Wir könnten Ihnen als Alternative anbieten:\n\n" +
			"Anreise: 14.07.2027\nAbreise: 16.07.2027\n\nBitte geben Sie uns Bescheid, ob Sie diese Option wünschen; bis dahin bleibt Ihre Buchung unverändert.\n\nMit freundlichen Grüßen\nHotel Adler\n",
			"-----Ursprüngliche Nachricht-----", "Von: Hotel Adler <res@hotel-adler.example>\nGesendet: Montag, 7. Juni 2027 10:00\nAn: Hans Schmidt <hans@home.example>\nBetreff: Buchungsbestätigung 58213\n\nIhre Buchung ist bestätigt.\n"},
		{"es", "Hola Pablo,\n\nlas fechas nuevas no están libres. Como propuesta, ¿qué te parece?\n\nEntrada: 14.07.2027\nSalida: 16.07.2027\n\n" +
			"Dinos si te interesa; mientras tanto tu reserva sigue igual.\n\nUn saludo\n",
			"-----Mensaje original-----", "De: Hotel Adler <res@hotel-adler.example>\nEnviado el: lunes, 7 de junio de 2027 10:00\nPara: pablo@home.example\nAsunto: Confirmación 58213\n\nTu reserva está confirmada.\n"},
		{"en formal", "Dear Mr Smith,\n\nthe 14th is fully booked, I am afraid. We can offer you the following dates:\n\nCheck-in: 14.07.2027\nCheck-out: 16.07.2027\n\nYour current reservation is unaffected.\n",
			"-----Original Message-----", "From: Hotel Adler <res@hotel-adler.example>\nSent: Monday, June 7, 2027 10:00\nTo: John Smith <john@home.example>\nSubject: Booking confirmation 58213\n\nYour booking is confirmed.\n"},
		{"it", "Gentile signor Rossi,\n\nnelle date richieste siamo al completo. Potremmo offrirle:\n\nArrivo: 14.07.2027\nPartenza: 16.07.2027\n\nLa sua prenotazione resta invariata.\n",
			"-----Messaggio originale-----", "Da: Hotel Adler <res@hotel-adler.example>\nInviato: lunedì 7 giugno 2027 10:00\nA: mario@home.example\nOggetto: Conferma 58213\n\nLa sua prenotazione è confermata.\n"},
	} {
		body := c.own + "\n" + c.marker + "\n" + c.quoteHead + old
		if got := stayCheckIns(body); len(got) != 1 || got[0] != "2027-07-12" {
			t.Errorf("%s: an offer over the quoted booking gave stays checking in %q, want only 2027-07-12", c.name, got)
		}
		// Its own number: the reply states the change.
		changed := "Booking number: 58213\n" + c.own + "\n" + c.marker + "\n" + c.quoteHead + old
		if got := stayCheckIns(changed); len(got) != 1 || got[0] != "2027-07-14" {
			t.Errorf("%s: a change naming its number gave stays checking in %q, want only 2027-07-14", c.name, got)
		}
	}
}

func stayCheckIns(body string) []string {
	var got []string
	for _, f := range review4Mail("Hotel Adler <res@hotel-adler.example>", "RE: Booking 58213", body).Facts {
		if f.Segment != nil && f.Segment.Type == extract.KindHotel && f.Segment.CheckIn != nil {
			got = append(got, f.Segment.CheckIn.Format("2006-01-02"))
		}
	}
	return got
}
