package extract

import "testing"

// TestStatusAtDoorToday: a courier "at your door" today is a delivery
// today in every language's words for the door (status.deliver), however
// the sentence runs; the door without today, or a delivery at the door
// told as past, is none today.
func TestStatusAtDoorToday(t *testing.T) {
	for s, want := range map[string]string{
		"hoi sam, we staan vandaag voor de deur met je pakket van fietsplaza.": StatusOutForDelivery,
		"goedemiddag, de koerier staat vanavond bij u aan de deur.":            StatusOutForDelivery,
		"good news: we'll be at your door today between 14:00 and 16:00.":      StatusOutForDelivery,
		"your driver will be on your doorstep this evening.":                   StatusOutForDelivery,
		"wir stehen heute mit ihrem paket vor ihrer tür.":                      StatusOutForDelivery,
		"nous serons à votre porte aujourd'hui entre 9h et 13h.":               StatusOutForDelivery,
		"hoy llegamos a tu puerta con tu pedido.":                              StatusOutForDelivery,
		// The delivery's noun as a label, above or beside its value; a
		// delivered word as the label tells a delivery done.
		"lieferstatus\nheute vor ihrer tür\nbestellnummer\n40032177": StatusOutForDelivery,
		"delivery\tour driver will be on your doorstep this evening": StatusOutForDelivery,
		"livraison : aujourd'hui entre 9h et 13h":                    StatusOutForDelivery,
		"delivered: today 11:42":                                     StatusDelivered,
		"zugestellt\theute, 11:42":                                   StatusDelivered,
		// No day, or another day: on its way, not out for delivery.
		"je pakket is onderweg en staat binnenkort voor de deur.": StatusShipped,
		"your parcel is on its way to your door.":                 StatusShipped,
		// Left at the door today: delivered.
		"your parcel was left at your door today.": StatusDelivered,
	} {
		if got := statusIn(s); got != want {
			t.Errorf("statusIn(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestStatusDoorTodayOnlyAStatement: the door today counts only as a
// statement about this parcel, in any language: a question, the answer
// to one (an offer), a negation or a condition around it tells of no
// delivery today.
func TestStatusDoorTodayOnlyAStatement(t *testing.T) {
	for s, want := range map[string]string{
		"your order has shipped.\nwon't be at your door today? choose a safe place.":                                StatusShipped,
		"your order has shipped.\nneed it faster next time? with express we're at your door today.":                 StatusShipped,
		"your order has shipped.\nif you order by noon, we're at your door today.":                                  StatusShipped,
		"ihre bestellung wurde versandt.\nnicht zu hause? wir stehen heute vor ihrer tür, wenn sie express wählen.": StatusShipped,
		"ihre bestellung wurde versandt.\nfalls sie express wählen, stehen wir heute vor ihrer tür.":                StatusShipped,
		"je bestelling is verzonden.\nniet thuis? we staan vandaag niet voor de deur.":                              StatusShipped,
		// The statement itself, beside a question of another matter.
		"your order has shipped. good news: we'll be at your door today between 14:00 and 16:00. questions? reply to this mail.": StatusOutForDelivery,
		"je bestelling is verzonden.\nwe staan vandaag voor de deur met je pakket.":                                              StatusOutForDelivery,
	} {
		if got := statusIn(s); got != want {
			t.Errorf("statusIn(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestStatements: the sentences of a line that tell of this parcel.
func TestStatements(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"we're at your door today.", "we're at your door today."},
		{"won't be home? we're at your door today.", ""},
		{"if you order by noon, we're at your door today. thanks!", " thanks!"},
		{"we did not reach your door today. see you tomorrow.", " see you tomorrow."},
		{"order no. 12 is at your door today", "order no. 12 is at your door today"},
		{"tipp: falls sie express wählen, stehen wir heute vor ihrer tür.", ""},
		{"pakken din fra komplett.no leveres i dag.", "pakken din fra komplett.no leveres i dag."},
	} {
		if got := statements(tc.in); got != tc.want {
			t.Errorf("statements(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
