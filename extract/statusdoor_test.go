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
