package extract_test

import (
	"strings"
	"testing"

	"mailnode/extract"
)

// TestReplyOverQuotedOriginal: a reply that states a changed booking over
// the older confirmation it quotes, under Outlook's marker or header block
// in any language, gives the changed booking alone; a forward whose own
// words state nothing, or a person's (another domain's) words, still
// gives the forwarded booking.
func TestReplyOverQuotedOriginal(t *testing.T) {
	const old = "Booking number: 558120\nHotel Lindenhof\nCheck-in: 11 December 2026\nCheck-out: 14 December 2026\n"
	const changed = "Booking number: 558120\nHotel Lindenhof\nCheck-in: 18 December 2026\nCheck-out: 21 December 2026\n"
	for _, c := range []struct{ name, body, want string }{
		{"outlook marker", "Dear Ms Novak,\n\nyour new dates:\n\n" + changed + "\nKind regards\n\n-----Original Message-----\n" +
			"From: Hotel Lindenhof <res@lindenhof.example>\nSent: Monday, 3 May 2027 09:12\nTo: k.novak@example.si\nSubject: Booking confirmation 558120\n\n" + old, "2026-12-18"},
		{"german marker", "Sehr geehrte Frau Novak,\n\nIhre neuen Daten:\n\n" + changed + "\nMit freundlichen Grüßen\n\n-----Ursprüngliche Nachricht-----\n" +
			"Von: Hotel Lindenhof <res@lindenhof.example>\nGesendet: Montag, 3. Mai 2027 09:12\nAn: k.novak@example.si\nBetreff: Reservierungsbestätigung 558120\n\n" + old, "2026-12-18"},
		{"french header block", "Bonjour,\n\nvos nouvelles dates :\n\n" + changed + "\nCordialement\n\n" +
			"De : Hotel Lindenhof <res@lindenhof.example>\nEnvoyé : lundi 3 mai 2027 11:02\nÀ : k.novak@example.si\nObjet : Confirmation 558120\n\n" + old, "2026-12-18"},
		{"forward with a note", "FYI, our hotel for December.\n\n-------- Forwarded Message --------\n" +
			"Subject: Booking confirmation 558120\nDate: Mon, 3 May 2027 09:12:00 +0200\nFrom: Hotel Lindenhof <res@lindenhof.example>\nTo: k.novak@example.si\n\n" + old, "2026-12-11"},
		// A person's reply quoting the hotel's reply, whose quoted
		// marker is the hotel's own: the hotel's words are read.
		{"reply over the reply", "Thanks, that works for me.\n\nOn Tue, 11 May 2027 at 14:30, Hotel Lindenhof <res@lindenhof.example> wrote:\n" +
			"> Dear Ms Novak,\n>\n> " + strings.ReplaceAll(changed, "\n", "\n> ") + "\n> -----Original Message-----\n" +
			"> From: Hotel Lindenhof <res@lindenhof.example>\n> Sent: Monday, 3 May 2027 09:12\n> Subject: Booking confirmation 558120\n>\n> " +
			strings.ReplaceAll(old, "\n", "\n> "), "2026-12-18"},
		// A person's own words over what they forward are theirs, not
		// the hotel's: the forwarded booking stands.
		{"person's note", "Wir wollten eigentlich verschieben:\n\n" + changed + "\n-----Original Message-----\n" +
			"From: Hotel Lindenhof <res@lindenhof.example>\nSent: Monday, 3 May 2027 09:12\nTo: k.novak@example.si\nSubject: Booking confirmation 558120\n\n" + old, "2026-12-11"},
	} {
		from := "Hotel Lindenhof <res@lindenhof.example>"
		if c.name == "person's note" || c.name == "reply over the reply" {
			from = "Katarina Novak <k.novak@example.si>"
		}
		var got []string
		for _, f := range review4Mail(from, "RE: Booking 558120", c.body).Facts {
			if f.Segment != nil && f.Segment.Type == extract.KindHotel && f.Segment.CheckIn != nil {
				got = append(got, f.Segment.CheckIn.Format("2006-01-02"))
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: stays checking in %q, want only %s", c.name, got, c.want)
		}
	}
}
